import { tKey, zh, type Lang, type MessageKey } from './index.ts'

/**
 * What memory/ said (memory/said.ts: a code, its values, and values that are
 * saids themselves) in the person's language: key `store.<code>`. Structural,
 * so i18n/ imports nothing from memory/. Undefined when this catalogue has no
 * words for the code: the caller shows memory/'s English sentence, never
 * nothing (decision 082).
 */
export interface SaidLike {
  readonly code: string
  readonly params?: Readonly<Record<string, string | number | SaidLike | readonly SaidLike[]>>
}

/** `prefix` is the family's keys (`store.`, or `whale.said.` for whale/'s saids, decision 085). */
export function hasSaid(said: SaidLike, prefix = 'store.'): boolean {
  return Object.hasOwn(zh, `${prefix}${said.code}`)
}

export function saidText(said: SaidLike, lang: Lang, prefix = 'store.'): string | undefined {
  if (!hasSaid(said, prefix)) return undefined
  const params: Record<string, string | number> = {}
  for (const [name, value] of Object.entries(said.params ?? {})) params[name] = paramText(value, lang, prefix)
  return tKey(`${prefix}${said.code}` as MessageKey, lang, params)
}

/** What memory/ said in `lang`, or its English sentence: for English, and for a said this catalogue does not word yet. */
export function saidOr(said: SaidLike | undefined, english: string, lang: Lang, prefix = 'store.'): string {
  if (lang === 'en' || said === undefined) return english
  return saidText(said, lang, prefix) ?? english
}

/** A param: as written, a said in the same language, a list one `  - ` line each. */
function paramText(value: string | number | SaidLike | readonly SaidLike[], lang: Lang, prefix: string): string | number {
  // memory/'s own sentence writes a number as it is (5011, not 5,011): the words read the same.
  if (typeof value === 'number') return String(value)
  if (typeof value !== 'object') return value
  if (isList(value)) return value.map((x) => `  - ${saidText(x, lang, prefix) ?? x.code}`).join('\n')
  return saidText(value, lang, prefix) ?? value.code
}

function isList(value: SaidLike | readonly SaidLike[]): value is readonly SaidLike[] {
  return Array.isArray(value)
}

/**
 * An error memory/ threw, for a person: in English its own sentence; in
 * another language its said (`RefusedError.said`) when the catalogue words it,
 * else its sentence. Duck-typed, so the chat commands and the command line
 * share it without i18n/ importing memory/.
 */
export function errorText(error: unknown, lang: Lang, prefix = 'store.'): string {
  const message = error instanceof Error ? error.message : String(error)
  const said = (error as { said?: unknown } | null)?.said
  return saidOr(isSaidLike(said) ? said : undefined, message, lang, prefix)
}

function isSaidLike(v: unknown): v is SaidLike {
  return v !== null && typeof v === 'object' && typeof (v as { code?: unknown }).code === 'string'
}
