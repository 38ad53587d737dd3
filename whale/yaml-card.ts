import { parse } from 'yaml'
import { isRecord, type JsonRecord } from './json.ts'
import type { WhaleSaid } from './said.ts'

/**
 * A text-generation-webui character: a YAML file with `name`, `context` (who the character is) and
 * `greeting`. SillyTavern imports it as a v1 card, `context` → description and `greeting` → first_mes,
 * and takes nothing else from it (decision 323). Pure: text in, the card SillyTavern would make out.
 */
export type YamlCharacter = { ok: true; card: JsonRecord; left: string[] } | { ok: false; error: string; said: WhaleSaid }

/** The file's own names for the v1 fields the card is read into, so the report names what the file holds. */
export const YAML_FIELD_NAMES: Readonly<Record<string, string>> = { description: 'context', 'data.first_mes': 'greeting' }

/** Whether the file is one SillyTavern reads as YAML: it goes by the name, as its import does. */
export function isYamlName(fileName: string): boolean {
  return /\.ya?ml$/i.test(fileName)
}

export function yamlCharacter(text: string): YamlCharacter {
  let value: unknown
  try {
    // A few aliases at most: a character has no use for them, and a file of nested ones would expand without bound.
    value = parse(text.replace(/^\uFEFF/, ''), { maxAliasCount: 16, uniqueKeys: false })
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? ''
    return { ok: false, error: `the YAML character is not valid YAML (${why})`, said: { code: 'card.yaml', params: { error: why } } }
  }
  const name = isRecord(value) ? value.name : undefined
  if (!isRecord(value) || (typeof name !== 'string' && typeof name !== 'number') || String(name).trim() === '')
    return {
      ok: false,
      error: 'not a YAML character SillyTavern imports: it needs a name (and context, greeting), as text-generation-webui writes them — nothing was saved',
      said: { code: 'card.yaml-not-character' },
    }
  // SillyTavern's conversion: only these three, each as it is (a missing one is empty).
  const card: JsonRecord = { name: String(name), description: textOf(value.context), first_mes: textOf(value.greeting) }
  const left = Object.keys(value).filter((key) => !['name', 'context', 'greeting'].includes(key) && value[key] !== null && value[key] !== '')
  return { ok: true, card, left }
}

const textOf = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '')
