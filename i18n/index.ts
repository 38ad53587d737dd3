import { en } from './en/index.ts'
import { zh } from './zh/index.ts'
import type { Catalogue, MessageKey } from './catalogue.ts'
import type { Lang } from './lang.ts'

/**
 * The person's texts in their language: one keyed catalogue per language
 * (zh is the source of the keys; en must have each of them with the same
 * `{param}` names, which i18n/catalogue.test.ts checks). No DSH import, so
 * the command line, the doctor, the host rows and the settings page's browser
 * bundle can all load it. Texts the model reads are not here.
 */
export type { Catalogue, MessageKey } from './catalogue.ts'
export { isLang, langFromEnv, type Lang } from './lang.ts'
/** @public Both languages, for the settings page's helper (client/). */
export const LANGS: readonly Lang[] = ['zh', 'en']
export const DEFAULT_LANG: Lang = 'zh'

/** The `{name}` placeholders of a message, from its zh text. */
type ParamNames<S extends string> = S extends `${string}{${infer P}}${infer Rest}` ? P | ParamNames<Rest> : never
/** @public The params a message takes, for the settings page's helper (client/). */
export type MessageParams<K extends MessageKey> = Record<ParamNames<(typeof zh)[K]>, string | number>
export type ParamArgs<K extends MessageKey> = [ParamNames<(typeof zh)[K]>] extends [never] ? [] : [params: MessageParams<K>]

export const CATALOGUES: { readonly [L in Lang]: Catalogue } = { zh, en }
export { en, zh }

/** Numbers read the same in both languages: 1,024. */
export function formatNumber(n: number): string {
  return n.toLocaleString('en-US')
}

/** The text of `key` in `lang`, its `{param}`s filled in (numbers as 1,024). */
export function t<K extends MessageKey>(key: K, lang: Lang, ...args: ParamArgs<K>): string {
  const params = (args[0] ?? {}) as Record<string, string | number>
  return fill(CATALOGUES[lang][key], params)
}

/** The same, for a key computed at run time (an area's label, a kind): its params are not checked by type. */
export function tKey(key: MessageKey, lang: Lang, params: Record<string, string | number> = {}): string {
  return fill(CATALOGUES[lang][key], params)
}

function fill(text: string, params: Record<string, string | number>): string {
  return text.replace(/\{([A-Za-z0-9_]+)\}( entries\b)?/g, (whole, name: string, plural: string | undefined) => {
    const value = params[name]
    if (value === undefined) return whole
    const shown = typeof value === 'number' ? formatNumber(value) : value
    // The English catalogue writes "{n} entries": one of them is "1 entry".
    return plural !== undefined && String(value) === '1' ? `${shown} entry` : `${shown}${plural ?? ''}`
  })
}

/** The `{param}` names a text uses, for the catalogue check. */
export function paramsOf(text: string): string[] {
  return [...new Set([...text.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]!))].sort()
}

/**
 * A text in both languages, for what DSH shows as written whatever its UI
 * language: a preset's name and description (DSH web translates only its own
 * built-in presets; a plugin's preset.yml has one name and one description).
 */
export function bothLanguages(key: MessageKey, between = ' · '): string {
  return `${zh[key]}${between}${en[key]}`
}
