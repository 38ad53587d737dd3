import { parse as parseYaml, stringify as stringifyYaml } from 'yaml'
import { patternKey } from './pattern-key.ts'

/**
 * One worldbook entry: a markdown file a person edits, with a small YAML front
 * matter and the text as its body. Parsing never throws: a file that cannot be
 * an entry comes back as the reason, and the turn goes on without it.
 */

/** How the secondary keys narrow a primary hit (SillyTavern's optional filter). */
export type SecondaryLogic = 'and-any' | 'not-any' | 'and-all' | 'not-all'
const SECONDARY_LOGICS: readonly SecondaryLogic[] = ['and-any', 'not-any', 'and-all', 'not-all']

/** Where an entry comes from: the starter worldbook shipped in the package, or the person's own folder. */
export type EntrySource = 'starter' | 'person'

export interface WorldEntry {
  /** The file name without `.md`: a person's entry of the same name replaces the starter one. */
  name: string
  title: string
  keys: string[]
  secondaryKeys: string[]
  logic: SecondaryLogic
  constant: boolean
  /** Higher goes first and is cut last. */
  priority: number
  enabled: boolean
  /** `match_whole_words`: false → every key matches as a substring; true or absent → non-CJK keys as whole words (CJK keys are always substrings). */
  wholeWords?: boolean
  /** `case_sensitive`: keys match only in the same case (width still folded). */
  caseSensitive?: boolean
  body: string
  source: EntrySource
  /** Where the file is, for messages. */
  file: string
}

/** The front matter fields, in the order a written file has them. */
const FIELDS = ['title', 'keys', 'secondary_keys', 'secondary_logic', 'constant', 'priority', 'enabled', 'match_whole_words', 'case_sensitive'] as const

/** SillyTavern's default insertion order; an entry without `priority` sits there. */
export const DEFAULT_PRIORITY = 100

export type ParsedEntry = { entry: WorldEntry; warnings: string[] } | { skipped: string }

const FRONT_MATTER_RE = /^---[ \t]*\r?\n(?:([\s\S]*?)\r?\n)?(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/

/** Words a person may write for yes and no (YAML 1.2 reads `yes`/`no` as text). */
const YES = new Set(['true', 'yes', 'y', 'on', '1', '是', '对', '开'])
const NO = new Set(['false', 'no', 'n', 'off', '0', '否', '不', '关'])

/** A field that cannot be read: the file is skipped with this reason. */
class Problem {
  readonly why: string
  constructor(why: string) {
    this.why = why
  }
}

function yesNo(value: unknown, field: string, fallback: boolean): boolean | Problem {
  if (value === undefined || value === null) return fallback
  if (typeof value === 'boolean') return value
  const word = String(value).trim().toLowerCase()
  if (YES.has(word)) return true
  if (NO.has(word)) return false
  return new Problem(`${field} must be yes or no, not ${JSON.stringify(value)}`)
}

/** A list of keys: a YAML list, or one line split at commas (`,` `，` `、`). */
function keyList(value: unknown, field: string): string[] | Problem {
  if (value === undefined || value === null) return []
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(/[,，、]/) : [value]
  const keys: string[] = []
  for (const item of items) {
    if (typeof item !== 'string' && typeof item !== 'number') return new Problem(`${field} must be a list of words, not ${JSON.stringify(item)}`)
    const key = String(item).trim()
    if (key !== '' && !keys.includes(key)) keys.push(key)
  }
  return keys
}

function logicOf(value: unknown): SecondaryLogic | Problem {
  if (value === undefined || value === null) return 'and-any'
  const word = String(value)
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-') as SecondaryLogic
  return SECONDARY_LOGICS.includes(word) ? word : new Problem(`secondary_logic must be one of ${SECONDARY_LOGICS.join(', ')}, not ${JSON.stringify(value)}`)
}

/**
 * A file's text as an entry. `name` is the file name without `.md`. A file
 * without front matter, with YAML that is not a mapping, with a field of the
 * wrong type, or that could never be shown (enabled, not constant, no keys, or
 * no body) is skipped with the reason; unknown fields only warn.
 */
export function parseEntry(name: string, text: string, source: EntrySource, file: string): ParsedEntry {
  const clean = text.replace(/^\uFEFF/, '')
  const match = FRONT_MATTER_RE.exec(clean)
  if (match === null) return { skipped: 'no front matter: the file must start with a line ---, the fields, then a line ---' }
  let data: unknown
  try {
    data = parseYaml(match[1] ?? '', { maxAliasCount: 16 }) ?? {}
  } catch (error) {
    return { skipped: `the front matter is not valid YAML: ${String((error as Error).message).split('\n')[0]}` }
  }
  if (typeof data !== 'object' || Array.isArray(data)) return { skipped: 'the front matter must be fields (name: value), one a line' }
  const fields = data as Record<string, unknown>
  const warnings = Object.keys(fields)
    .filter((k) => !(FIELDS as readonly string[]).includes(k))
    .map((k) => `unknown field ${JSON.stringify(k)} is ignored (fields: ${FIELDS.join(', ')})`)

  const title = fields.title === undefined || fields.title === null ? name : String(fields.title).trim() || name
  const keys = keyList(fields.keys, 'keys')
  const secondaryKeys = keyList(fields.secondary_keys, 'secondary_keys')
  const logic = logicOf(fields.secondary_logic)
  const constant = yesNo(fields.constant, 'constant', false)
  const enabled = yesNo(fields.enabled, 'enabled', true)
  const wholeWords =
    fields.match_whole_words === undefined || fields.match_whole_words === null ? undefined : yesNo(fields.match_whole_words, 'match_whole_words', true)
  const caseSensitive = yesNo(fields.case_sensitive, 'case_sensitive', false)
  const priority = fields.priority === undefined || fields.priority === null ? DEFAULT_PRIORITY : Number(fields.priority)
  if (keys instanceof Problem) return { skipped: keys.why }
  if (secondaryKeys instanceof Problem) return { skipped: secondaryKeys.why }
  if (logic instanceof Problem) return { skipped: logic.why }
  if (constant instanceof Problem) return { skipped: constant.why }
  if (enabled instanceof Problem) return { skipped: enabled.why }
  if (wholeWords instanceof Problem) return { skipped: wholeWords.why }
  if (caseSensitive instanceof Problem) return { skipped: caseSensitive.why }
  if (typeof fields.priority === 'boolean' || !Number.isFinite(priority))
    return { skipped: `priority must be a number, not ${JSON.stringify(fields.priority)}` }

  const body = clean.slice(match[0].length).trim()
  for (const key of [...keys, ...secondaryKeys]) {
    const pattern = patternKey(key)
    if (pattern?.kind === 'unsupported')
      warnings.push(`key ${JSON.stringify(key)} is a pattern the worldbook cannot run (${pattern.why}; no look-ahead or back-references): it never matches`)
  }
  const entry: WorldEntry = { name, title, keys, secondaryKeys, logic, constant, priority, enabled, body, source, file }
  if (wholeWords !== undefined) entry.wholeWords = wholeWords
  if (caseSensitive) entry.caseSensitive = true
  if (entry.enabled && body === '') return { skipped: 'the body is empty: write the text below the second ---' }
  if (entry.enabled && !entry.constant && entry.keys.length === 0)
    return { skipped: 'no keys and not constant: it would never be shown (add keys, or constant: yes)' }
  return { entry, warnings }
}

/** The fields an entry file is written from (the importer's output). */
export type EntryFields = Pick<
  WorldEntry,
  'title' | 'keys' | 'secondaryKeys' | 'logic' | 'constant' | 'priority' | 'enabled' | 'wholeWords' | 'caseSensitive' | 'body'
>

/** An entry as the file a person edits: front matter in the order of `FIELDS`, then the body. */
export function formatEntry(fields: EntryFields): string {
  const front: Record<string, unknown> = { title: fields.title, keys: fields.keys }
  if (fields.secondaryKeys.length > 0) {
    front.secondary_keys = fields.secondaryKeys
    front.secondary_logic = fields.logic
  }
  front.constant = fields.constant ? 'yes' : 'no'
  front.priority = fields.priority
  front.enabled = fields.enabled ? 'yes' : 'no'
  if (fields.wholeWords !== undefined) front.match_whole_words = fields.wholeWords ? 'yes' : 'no'
  if (fields.caseSensitive === true) front.case_sensitive = 'yes'
  // One field a line, lists on one line (`keys: [a, b]`): the shape a person writes by hand.
  const yaml = Object.entries(front)
    .map(([k, v]) => `${k}: ${stringifyYaml(v, { lineWidth: 0, flowCollectionPadding: false, collectionStyle: 'flow' }).trimEnd()}\n`)
    .join('')
  const body = fields.body.replace(/\r\n?/g, '\n').trim()
  return `---\n${yaml}---\n\n${body}\n`
}
