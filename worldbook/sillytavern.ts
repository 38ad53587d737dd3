import { DEFAULT_PRIORITY, formatEntry, type EntryFields, type SecondaryLogic } from './entry.ts'

/**
 * SillyTavern World Info → worldbook entry files. Reads a world file
 * (`{"entries": {"0": {...}, "1": {...}}}`) and, for convenience, a character
 * card's embedded book (`entries` as a list, v2 `character_book` names). Pure:
 * JSON value in, file names and texts out; writing is the caller's.
 *
 * Field by field: `key`/`keys` → keys, `keysecondary`/`secondary_keys` →
 * secondary keys (only when `selective` is not false: SillyTavern ignores them
 * then), `selectiveLogic` 0 AND ANY, 1 NOT ALL, 2 NOT ANY, 3 AND ALL,
 * `constant`, `order`/`insertion_order` → priority, `disable` (or `enabled:
 * false`) → enabled no, `comment`/`name` → title and file name, `content` →
 * body. Regex keys (`/…/flags`) have no equivalent here: they are dropped with
 * a note, and an entry left without keys is written switched off so its text
 * is not lost. Everything else (position, depth, probability, groups,
 * recursion…) has no meaning in a rail and is left out.
 */

const LOGIC: Record<number, SecondaryLogic> = { 0: 'and-any', 1: 'not-all', 2: 'not-any', 3: 'and-all' }

export interface ImportedEntry {
  /** File name without `.md`, unique within the import. */
  name: string
  fields: EntryFields
  /** The file text to write. */
  text: string
  /** What did not carry over, for the person to read. */
  notes: string[]
  /** Where it was in the source (`entries.<uid>`). */
  origin: string
}

export interface ImportPlan {
  entries: ImportedEntry[]
  /** Source entries that could not become an entry at all (no content), with why. */
  refused: { origin: string; why: string }[]
}

export class ImportFormatError extends Error {}

const REGEX_KEY_RE = /^\/(.+)\/([a-z]*)$/s

function keysOf(value: unknown): string[] {
  if (typeof value === 'string') return value.split(',')
  return Array.isArray(value) ? value.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(String) : []
}

function cleanKeys(value: unknown, notes: string[], what: string): string[] {
  const out: string[] = []
  for (const raw of keysOf(value)) {
    const key = raw.trim()
    if (key === '') continue
    if (REGEX_KEY_RE.test(key)) {
      notes.push(`${what} ${JSON.stringify(key)} is a regular expression, which the worldbook does not match; dropped`)
      continue
    }
    if (!out.includes(key)) out.push(key)
  }
  return out
}

/** A file name a person recognises, safe on every file system; '' when nothing usable is left. */
export function fileNameFor(title: string): string {
  const name = title
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f/\\:*?"<>|]/g, ' ')
    .replace(/\s+/g, ' ')
    // No hidden file, no `..`: a name never starts with a dot.
    .replace(/^[.\s]+/, '')
    .trim()
  return [...name].slice(0, 60).join('').trim()
}

function uniqueName(base: string, taken: Set<string>): string {
  let name = base
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}`
  taken.add(name.toLowerCase())
  return name
}

function entryList(json: unknown): [string, Record<string, unknown>][] {
  if (typeof json !== 'object' || json === null) throw new ImportFormatError('this is not a SillyTavern World Info file: expected a JSON object with "entries"')
  const root = json as Record<string, unknown>
  // A character card carries its book under data.character_book.
  const book = (root.data as Record<string, unknown> | undefined)?.character_book ?? root.character_book ?? root
  const entries = (book as Record<string, unknown>).entries
  if (Array.isArray(entries)) return entries.map((e, i) => [`entries[${i}]`, e as Record<string, unknown>])
  if (typeof entries === 'object' && entries !== null)
    return Object.entries(entries as Record<string, unknown>).map(([k, e]) => [`entries.${k}`, e as Record<string, unknown>])
  throw new ImportFormatError('this is not a SillyTavern World Info file: it has no "entries" object (export the world from SillyTavern\'s World Info panel)')
}

/** What the import would write; throws `ImportFormatError` for a file that is not World Info at all. */
export function planImport(json: unknown): ImportPlan {
  const taken = new Set<string>()
  const plan: ImportPlan = { entries: [], refused: [] }
  for (const [origin, raw] of entryList(json)) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      plan.refused.push({ origin, why: 'not an entry object' })
      continue
    }
    const content = typeof raw.content === 'string' ? raw.content.replace(/\r\n?/g, '\n').trim() : ''
    if (content === '') {
      plan.refused.push({ origin, why: 'no content: nothing to show the model' })
      continue
    }
    const notes: string[] = []
    const keys = cleanKeys(raw.key ?? raw.keys, notes, 'key')
    const selective = raw.selective !== false
    const secondaryKeys = selective ? cleanKeys(raw.keysecondary ?? raw.secondary_keys, notes, 'secondary key') : []
    if (!selective && keysOf(raw.keysecondary ?? raw.secondary_keys).length > 0) notes.push('secondary keys dropped: selective is off in the source')
    const logicNumber = Number(raw.selectiveLogic ?? (raw.extensions as Record<string, unknown> | undefined)?.selectiveLogic ?? 0)
    const logic = LOGIC[logicNumber] ?? 'and-any'
    if (LOGIC[logicNumber] === undefined) notes.push(`selectiveLogic ${JSON.stringify(raw.selectiveLogic)} is unknown; AND ANY used`)
    const constant = raw.constant === true
    const order = Number(raw.order ?? raw.insertion_order ?? DEFAULT_PRIORITY)
    let enabled = raw.disable !== true && raw.enabled !== false
    if (enabled && !constant && keys.length === 0) {
      enabled = false
      notes.push('no plain keys left and not constant: written switched off (enabled: no); add keys to use it')
    }
    const title = String(raw.comment ?? raw.name ?? '').trim() || keys[0] || `entry ${String(raw.uid ?? origin)}`
    const fields: EntryFields = {
      title,
      keys,
      secondaryKeys,
      logic,
      constant,
      priority: Number.isFinite(order) ? order : DEFAULT_PRIORITY,
      enabled,
      body: content,
    }
    const name = uniqueName(fileNameFor(title) || `st-${String(raw.uid ?? plan.entries.length)}`, taken)
    plan.entries.push({ name, fields, text: formatEntry(fields), notes, origin })
  }
  return plan
}
