import { parse } from 'yaml'

/**
 * Reading a DSH composition (agent.cordis.yml) as data: the build snapshots
 * built-in presets with it and the doctor compares the snapshots with the DSH
 * it runs in, so both read `!!js` the same way. Imports no DSH package.
 */

/** A `!!js` expression as the snapshot stores it: `{"$js": "<expr>"}`. */
export interface JsValue {
  $js: string
}

export function isJsValue(value: unknown): value is JsValue {
  return typeof value === 'object' && value !== null && typeof (value as JsValue).$js === 'string' && Object.keys(value).length === 1
}

export const jsTag = {
  tag: 'tag:yaml.org,2002:js',
  resolve: (source: string): JsValue => ({ $js: source }),
  identify: isJsValue,
  // Always double-quoted: JSON string syntax is valid YAML and keeps any expression on one line.
  stringify: (item: { value: unknown }) => JSON.stringify((item.value as JsValue).$js),
}

/** Parse a DSH composition, keeping `!!js` expressions as data. */
export function parseComposition(text: string): unknown {
  return parse(text, { customTags: [jsTag], uniqueKeys: true })
}
