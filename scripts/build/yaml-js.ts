import { parse, stringify } from 'yaml'

/** A `!!js` expression as the snapshot stores it: `{"$js": "<expr>"}`. */
export interface JsValue {
  $js: string
}

export function isJsValue(value: unknown): value is JsValue {
  return typeof value === 'object' && value !== null && typeof (value as JsValue).$js === 'string' && Object.keys(value).length === 1
}

const jsTag = {
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

/** Render rows as YAML; `{"$js"}` values come back as `!!js "<expr>"`. */
export function renderComposition(rows: unknown): string {
  return stringify(rows, { customTags: [jsTag], lineWidth: 0, blockQuote: 'literal' })
}
