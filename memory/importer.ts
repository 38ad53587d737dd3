import { createHash } from 'node:crypto'
import { entriesOf, parseEntryFile, type Entry, type EntryMeta } from './entry.ts'
import { isUsableId, newId } from './id.ts'
import { dayFileRel, isDateString, localDate } from './paths.ts'
import { NearDuplicateIndex } from './near-duplicate.ts'
import type { MemoryStore } from './store.ts'
import type { Said } from './said.ts'
import { assertWellFormed, checkText, importedMetaSaid, KIND_RE, parseWhen, refuseBadKind, RefusedError, YEAR_MAX, YEAR_MIN } from './validate.ts'

/**
 * Bringing memories in from outside (JSONL, the retired plugins, a
 * whale-persona inbox). Imported entries bypass the gate (`gate: imported`)
 * but not the refusals: an item that is too long, holds control characters,
 * an axis outside 德智体美劳 or an impossible time is skipped and reported —
 * its source is never modified, so nothing is lost, and a re-run after fixing
 * the source brings in exactly what was skipped.
 *
 * Importing twice brings nothing in twice. Every imported entry records
 * `import_key` (see `importKey`); an item whose key is already in the store is
 * reported as already imported. Entries imported before keys existed are
 * still recognised by the older rules: same id, same source_ref, or —
 * without a source_ref — same text and time.
 */
export interface ImportItem {
  text: string
  at?: string
  /** Original metadata to keep as it is (0.5.x day entries). */
  meta?: Partial<EntryMeta>
  kind?: string
  axis?: string
  reason?: string
  source_ref?: string
  extra?: Record<string, unknown>
  /** The day file to put it in (YYYY-MM-DD); default: the local day of its time. */
  date?: string
  /** Where it was read, for the report. */
  origin: string
}

export interface Skipped {
  origin: string
  /** In English (`--json`, logs); `said` is the same reason for the person's language (decision 082). */
  why: string
  said?: Said
}
/** An imported line that says what an entry already says (memory/near-duplicate.ts): imported all the same, and listed. */
interface LikelyDuplicate {
  origin: string
  /** The new entry's id. */
  id: string
  /** The entry (already in the store, or imported earlier in the same run) it resembles. */
  resembles: string
  similarity: number
}

/**
 * `skipped`: refused items (fix the source and import again); `already`: items the store has from an earlier import;
 * `duplicates`: imported lines that resemble an entry (never dropped for it: the person decides).
 */
export interface ImportReport {
  imported: number
  skipped: Skipped[]
  already: Skipped[]
  duplicates: LikelyDuplicate[]
  files: string[]
  dryRun: boolean
}

/**
 * The identity of an imported line: `sha256:` + hex over the canonical JSON
 * `[text, kind, at]` — the text after the import's own normalisation (CRLF →
 * LF, trimmed), the line's kind as given or null, and the line's own `at`
 * string as given or null. A line without `at` is filed at the import time,
 * but its key uses the absence, so the next run recognises it.
 */
function importKey(text: string, kind: string | null, at: string | null): string {
  return `sha256:${createHash('sha256')
    .update(JSON.stringify([text, kind, at]))
    .digest('hex')}`
}

/** The kind and `at` an item came with, as its source wrote them (the key's inputs). */
function ownFields(item: ImportItem): { kind: string | null; at: string | null } {
  const kind = typeof item.meta?.kind === 'string' ? item.meta.kind : (item.kind ?? null)
  const at = typeof item.meta?.at === 'string' ? item.meta.at : (item.at ?? null)
  return { kind, at }
}

function why(e: unknown): { why: string; said?: Said } {
  if (e instanceof RefusedError) return { why: e.message, said: e.said }
  if (e instanceof RangeError) return { why: e.message }
  throw e
}

/** A reason of the import's own: its English words and its code (`why.<code>`). */
function because(why: string, code: string, params: Record<string, string | number> = {}): { why: string; said: Said } {
  return { why, said: { code: `why.${code}`, params } }
}

/** Pure: one item → the entry to write (with its import key), or why not. */
function toImportedEntry(
  item: ImportItem,
  store: Pick<MemoryStore, 'limits'>,
  now: Date,
): { entry: Entry; date: string; key: string } | { why: string; said?: Said } {
  let text: string
  let at = now
  try {
    text = checkText(item.text, store.limits).text
    if (item.at !== undefined) at = parseWhen(item.at)
  } catch (e) {
    return why(e)
  }
  const meta: EntryMeta = { ...item.meta, id: '' }
  const origId = item.meta?.id
  meta.id = isUsableId(origId) ? origId : newId(now)
  if (item.kind !== undefined && meta.kind === undefined) meta.kind = KIND_RE.test(item.kind) ? item.kind : 'note'
  if (item.axis !== undefined && meta.axis === undefined) meta.axis = item.axis
  if (item.reason !== undefined && meta.reason === undefined) meta.reason = item.reason.trim() === '' ? undefined : item.reason.trim()
  if (meta.reason === undefined) delete meta.reason
  if (meta.at === undefined) meta.at = at.toISOString()
  if (meta.gate !== undefined && meta.gate !== 'imported') meta.imported_gate = meta.gate
  meta.gate = 'imported'
  if (item.source_ref !== undefined) meta.source_ref = item.source_ref
  for (const [k, v] of Object.entries(item.extra ?? {})) if (meta[k] === undefined) meta[k] = v
  const own = ownFields(item)
  const key = importKey(text, own.kind, own.at)
  meta.import_key = key
  const problem = importedMetaSaid(meta)
  if (problem !== undefined) return problem
  // The day file follows the entry's own time when it has a readable one.
  let date: string
  if (item.date !== undefined && isDateString(item.date)) date = item.date
  else {
    let ownAt = at
    if (typeof item.meta?.at === 'string') {
      try {
        ownAt = parseWhen(item.meta.at)
      } catch {
        /* unreadable: the item's time */
      }
    }
    date = localDate(ownAt)
  }
  const year = Number(date.slice(0, 4))
  if (!isDateString(date) || year < YEAR_MIN || year > YEAR_MAX)
    return because(`its day ${date} is outside the years ${YEAR_MIN}–${YEAR_MAX}`, 'day-years', { date, min: YEAR_MIN, max: YEAR_MAX })
  return { entry: { text, meta }, date, key }
}

export async function importItems(
  store: MemoryStore,
  items: readonly ImportItem[],
  opts: { dryRun?: boolean; onProgress?: (done: number, total: number) => void } = {},
): Promise<ImportReport> {
  const now = store.now()
  const { entries } = await store.scan()
  const ids = new Set(entries.map((e) => e.id))
  const refs = new Set(entries.map((e) => e.meta.source_ref).filter((r): r is string => typeof r === 'string'))
  const keys = new Map<string, string | undefined>(
    entries
      .map((e) => e.meta.import_key)
      .filter((k): k is string => typeof k === 'string')
      .map((k) => [k, undefined]),
  )
  // Entries imported before import keys existed: recognised by text + time, so a re-run adds nothing.
  // (Only those: a keyed entry is told apart by its key, which also holds the kind.)
  const seen = new Set(entries.filter((e) => e.meta.gate === 'imported' && e.meta.import_key === undefined).map((e) => `${e.text}\0${String(e.meta.at)}`))
  const skipped: Skipped[] = []
  const already: Skipped[] = []
  const duplicates: LikelyDuplicate[] = []
  const twins = new NearDuplicateIndex()
  for (const e of entries) twins.add(e.id, e.text)
  const byFile = new Map<string, Entry[]>()
  const origins = new Map<Entry, string>()
  for (const item of items) {
    let r: ReturnType<typeof toImportedEntry>
    try {
      r = toImportedEntry(item, store, now)
    } catch (e) {
      r = because(`could not be read (${(e as Error).message})`, 'unreadable', { error: (e as Error).message })
    }
    if ('why' in r) {
      skipped.push({ origin: item.origin, ...r })
      continue
    }
    const { entry, date, key } = r
    if (keys.has(key)) {
      const first = keys.get(key)
      already.push({
        origin: item.origin,
        ...(first === undefined
          ? because('already imported (same text, kind and at)', 'already-key')
          : because(`the same line as ${first} (same text, kind and at); imported once`, 'same-line', { first })),
      })
      continue
    }
    if (ids.has(entry.meta.id)) {
      already.push({ origin: item.origin, ...because(`already in the store (id ${entry.meta.id})`, 'already-id', { id: entry.meta.id }) })
      continue
    }
    if (typeof entry.meta.source_ref === 'string' && refs.has(entry.meta.source_ref)) {
      already.push({ origin: item.origin, ...because(`already imported from ${entry.meta.source_ref}`, 'already-ref', { ref: entry.meta.source_ref }) })
      continue
    }
    const legacyKey = `${entry.text}\0${String(entry.meta.at)}`
    if (entry.meta.source_ref === undefined && seen.has(legacyKey)) {
      already.push({ origin: item.origin, ...because('already imported (same text and time)', 'already-text') })
      continue
    }
    let file: string
    try {
      file = dayFileRel(date)
    } catch (e) {
      skipped.push({ origin: item.origin, ...why(e) })
      continue
    }
    const twin = twins.find(entry.text)
    if (twin !== undefined) duplicates.push({ origin: item.origin, id: entry.meta.id, resembles: twin.id, similarity: Math.round(twin.similarity * 100) / 100 })
    twins.add(entry.meta.id, entry.text)
    keys.set(key, item.origin)
    ids.add(entry.meta.id)
    if (typeof entry.meta.source_ref === 'string') refs.add(entry.meta.source_ref)
    origins.set(entry, item.origin)
    const list = byFile.get(file)
    if (list === undefined) byFile.set(file, [entry])
    else list.push(entry)
  }
  let imported = 0
  let done = 0
  const total = [...byFile.values()].reduce((n, l) => n + l.length, 0)
  const files: string[] = []
  for (const [file, list] of [...byFile].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    // The scan above took no lock: an import running beside this one may have appended the same lines since (same key, same day file).
    const appended = opts.dryRun === true ? list : await store.appendEntries(file, list, [], (current) => notYetIn(current, file, list))
    for (const entry of list)
      if (!appended.includes(entry)) already.push({ origin: origins.get(entry)!, ...because('already imported (same text, kind and at)', 'already-key') })
    imported += appended.length
    if (appended.length > 0) files.push(file)
    done += list.length
    opts.onProgress?.(done, total)
  }
  return { imported, skipped, already, duplicates, files, dryRun: opts.dryRun === true }
}

/** The entries of `list` whose import key, id or source the day file does not hold yet. */
function notYetIn(current: string, file: string, list: readonly Entry[]): Entry[] {
  const held = entriesOf(parseEntryFile(current, file))
  const heldAs = (value: unknown, where: Set<unknown>): boolean => value !== undefined && where.has(value)
  const keys = new Set<unknown>(held.map((e) => e.meta.import_key))
  const ids = new Set<unknown>(held.map((e) => e.meta.id))
  const refs = new Set<unknown>(held.map((e) => e.meta.source_ref))
  return list.filter((e) => !heldAs(e.meta.import_key, keys) && !heldAs(e.meta.id, ids) && !heldAs(e.meta.source_ref, refs))
}

/** Is this a valid UTF-8 prefix (a sequence cut at the end still counts)? */
function validPrefix(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true })
    return true
  } catch {
    return false
  }
}

/** Index of the first byte that makes `bytes` invalid UTF-8 (prefix validity is monotone, so bisect). */
export function firstBadByte(bytes: Uint8Array): number {
  let lo = 0
  let hi = bytes.length
  while (lo < hi) {
    const mid = (lo + hi) >> 1
    if (validPrefix(bytes.subarray(0, mid + 1))) lo = mid + 1
    else hi = mid
  }
  return lo
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
const lossyUtf8 = new TextDecoder('utf-8')

export interface SourceLine {
  text: string
  badUtf8?: string
  /** `badUtf8` as a code, for the person's language. */
  badUtf8Said?: Said
}

/**
 * Lines of a source file (no terminators), decoded one by one so a line of
 * invalid UTF-8 is reported with its number and never hides the others. A bad
 * line carries `badUtf8` (why) and its lossy text, which callers must not import.
 */
export function decodeLines(input: string | Uint8Array): SourceLine[] {
  if (typeof input === 'string') return input.split('\n').map((text) => ({ text }))
  const out: SourceLine[] = []
  let start = 0
  for (let i = 0; i <= input.length; i++) {
    if (i < input.length && input[i] !== 0x0a) continue
    const bytes = input.subarray(start, i)
    try {
      out.push({ text: strictUtf8.decode(bytes) })
    } catch {
      const at = Math.min(firstBadByte(bytes), bytes.length - 1)
      const hex = (bytes[at] ?? 0).toString(16).padStart(2, '0')
      out.push({
        text: lossyUtf8.decode(bytes),
        badUtf8: `not valid UTF-8 (near byte ${at + 1} of the line, 0x${hex}); nothing from this line was imported. Re-save the file as UTF-8 (for example iconv -f GB18030 -t UTF-8) and import again`,
        badUtf8Said: { code: 'why.not-utf8', params: { byte: at + 1, hex } },
      })
    }
    start = i + 1
  }
  return out
}

/** An optional string field of an import line: absent or null → undefined; anything else but a string is refused. */
function optionalString(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw new RefusedError('bad-input', `"${key}" must be a string`, { variant: 'field-type', field: `"${key}"` })
  assertWellFormed(v, `"${key}"`)
  return v
}

/**
 * `cyrene memory import --jsonl`: lines `{"text","at"?,"kind"?,"axis"?,"reason"?,"ref"?}`.
 * Pure parse; bad lines are reported with their number. Give the file's bytes
 * (not a decoded string) so invalid UTF-8 is reported, never turned into U+FFFD.
 */
export function parseImportJsonl(input: string | Uint8Array, origin: string): { items: ImportItem[]; skipped: Skipped[] } {
  const items: ImportItem[] = []
  const skipped: Skipped[] = []
  decodeLines(input).forEach((line, i) => {
    const where = `${origin}:${i + 1}`
    if (line.badUtf8 !== undefined) {
      skipped.push({ origin: where, why: line.badUtf8, ...(line.badUtf8Said === undefined ? {} : { said: line.badUtf8Said }) })
      return
    }
    const raw = i === 0 ? line.text.replace(/^\ufeff/, '') : line.text
    if (raw.trim() === '') return
    let v: unknown
    try {
      v = JSON.parse(raw)
    } catch {
      skipped.push({ origin: where, ...because('not valid JSON', 'not-json') })
      return
    }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) {
      skipped.push({ origin: where, ...because('a line must be a JSON object', 'not-object') })
      return
    }
    const o = v as Record<string, unknown>
    if (typeof o.text !== 'string') {
      skipped.push({ origin: where, ...because('missing "text"', 'no-text') })
      return
    }
    try {
      const item: ImportItem = { text: o.text, origin: where }
      const at = optionalString(o, 'at')
      if (at !== undefined) {
        parseWhen(at)
        item.at = at
      }
      const kind = optionalString(o, 'kind')
      // Validated like a write (CONTRACT#import): a kind a write refuses refuses the line, never becomes `note`.
      if (kind !== undefined) {
        refuseBadKind(kind)
        item.kind = kind
      }
      const axis = optionalString(o, 'axis')
      if (axis !== undefined) item.axis = axis
      const reason = optionalString(o, 'reason')
      if (reason !== undefined) item.reason = reason
      const ref = optionalString(o, 'ref')
      if (ref !== undefined && ref !== '') item.source_ref = ref
      items.push(item)
    } catch (e) {
      skipped.push({ origin: where, ...why(e) })
    }
  })
  return { items, skipped }
}
