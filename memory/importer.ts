import type { Entry, EntryMeta } from './entry.ts'
import { isUsableId, newId } from './id.ts'
import { dayFileRel, isDateString, localDate } from './paths.ts'
import type { MemoryStore } from './store.ts'
import { checkText, KIND_RE, parseWhen, RefusedError } from './validate.ts'

/**
 * Bringing memories in from outside (JSONL, the retired plugins, a
 * whale-persona inbox). Imported entries bypass the gate (`gate: imported`)
 * but not the refusals: an item that is too long or holds control characters
 * is skipped and reported — its source is never modified, so nothing is lost.
 * Importing twice brings nothing in twice (same id, same source_ref, or —
 * without a source_ref — same text and time).
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

export interface Skipped { origin: string; why: string }
export interface ImportReport { imported: number; skipped: Skipped[]; files: string[]; dryRun: boolean }


/** Pure: one item → the entry to write, or why not. */
export function toImportedEntry(item: ImportItem, store: Pick<MemoryStore, 'limits'>, now: Date): { entry: Entry; date: string } | { why: string } {
  let text: string
  try { text = checkText(item.text, store.limits).text } catch (e) {
    return { why: e instanceof RefusedError ? e.message : String(e) }
  }
  const atMs = item.at !== undefined ? parseWhen(item.at).getTime() : Number.NaN
  const at = Number.isNaN(atMs) ? now : new Date(atMs)
  const meta: EntryMeta = { ...(item.meta ?? {}), id: '' }
  const origId = item.meta?.id
  meta.id = isUsableId(origId) ? origId : newId(now)
  if (item.kind !== undefined && meta.kind === undefined) meta.kind = KIND_RE.test(item.kind) ? item.kind : 'note'
  if (item.axis !== undefined && meta.axis === undefined) meta.axis = item.axis
  if (item.reason !== undefined && meta.reason === undefined) meta.reason = item.reason
  if (meta.at === undefined) meta.at = at.toISOString()
  if (meta.gate !== undefined && meta.gate !== 'imported') meta.imported_gate = meta.gate
  meta.gate = 'imported'
  if (item.source_ref !== undefined) meta.source_ref = item.source_ref
  for (const [k, v] of Object.entries(item.extra ?? {})) if (meta[k] === undefined) meta[k] = v
  // The day file follows the entry's own time when it has a readable one.
  const own = typeof meta.at === 'string' ? Date.parse(meta.at) : Number.NaN
  const date = item.date !== undefined && isDateString(item.date) ? item.date : localDate(Number.isNaN(own) ? at : new Date(own))
  return { entry: { text, meta }, date }
}

export async function importItems(store: MemoryStore, items: readonly ImportItem[], opts: { dryRun?: boolean; onProgress?: (done: number, total: number) => void } = {}): Promise<ImportReport> {
  const now = store.now()
  const { entries } = await store.scan()
  const ids = new Set(entries.map((e) => e.id))
  const refs = new Set(entries.map((e) => e.meta.source_ref).filter((r): r is string => typeof r === 'string'))
  // Items without a source_ref are recognised by text + time, so a re-run adds nothing.
  const seen = new Set(entries.filter((e) => e.meta.gate === 'imported').map((e) => `${e.text}\0${String(e.meta.at)}`))
  const skipped: Skipped[] = []
  const byFile = new Map<string, Entry[]>()
  for (const item of items) {
    const r = toImportedEntry(item, store, now)
    if ('why' in r) { skipped.push({ origin: item.origin, why: r.why }); continue }
    const { entry, date } = r
    if (ids.has(entry.meta.id)) { skipped.push({ origin: item.origin, why: `already in the store (id ${entry.meta.id})` }); continue }
    if (typeof entry.meta.source_ref === 'string' && refs.has(entry.meta.source_ref)) { skipped.push({ origin: item.origin, why: `already imported from ${entry.meta.source_ref}` }); continue }
    const key = `${entry.text}\0${String(entry.meta.at)}`
    if (entry.meta.source_ref === undefined && seen.has(key)) { skipped.push({ origin: item.origin, why: 'already imported (same text and time)' }); continue }
    seen.add(key)
    ids.add(entry.meta.id)
    if (typeof entry.meta.source_ref === 'string') refs.add(entry.meta.source_ref)
    const file = dayFileRel(date)
    const list = byFile.get(file)
    if (list === undefined) byFile.set(file, [entry])
    else list.push(entry)
  }
  let imported = 0
  const total = [...byFile.values()].reduce((n, l) => n + l.length, 0)
  for (const [file, list] of [...byFile].sort((a, b) => (a[0] < b[0] ? -1 : 1))) {
    if (opts.dryRun !== true) await store.appendEntries(file, list)
    imported += list.length
    opts.onProgress?.(imported, total)
  }
  return { imported, skipped, files: [...byFile.keys()].sort(), dryRun: opts.dryRun === true }
}

/**
 * `cyrene memory import --jsonl`: lines `{"text","at","kind"?,"axis"?,"reason"?,"ref"?}`.
 * Pure parse; bad lines are reported with their number.
 */
export function parseImportJsonl(text: string, origin: string): { items: ImportItem[]; skipped: Skipped[] } {
  const items: ImportItem[] = []
  const skipped: Skipped[] = []
  text.split('\n').forEach((line, i) => {
    const where = `${origin}:${i + 1}`
    if (line.trim() === '') return
    let v: unknown
    try { v = JSON.parse(line) } catch { skipped.push({ origin: where, why: 'not valid JSON' }); return }
    if (v === null || typeof v !== 'object' || Array.isArray(v)) { skipped.push({ origin: where, why: 'a line must be a JSON object' }); return }
    const o = v as Record<string, unknown>
    if (typeof o.text !== 'string') { skipped.push({ origin: where, why: 'missing "text"' }); return }
    if (o.at !== undefined && (typeof o.at !== 'string' || Number.isNaN(Date.parse(o.at)))) { skipped.push({ origin: where, why: '"at" is not an ISO date-time' }); return }
    const item: ImportItem = { text: o.text, origin: where }
    if (typeof o.at === 'string') item.at = o.at
    if (typeof o.kind === 'string') item.kind = o.kind
    if (typeof o.axis === 'string') item.axis = o.axis
    if (typeof o.reason === 'string') item.reason = o.reason
    if (typeof o.ref === 'string' && o.ref !== '') item.source_ref = o.ref
    items.push(item)
  })
  return { items, skipped }
}
