import { audit } from './audit.ts'
import { gateReasons } from './gate.ts'
import { newId } from './id.ts'
import { dayFileRel, localDate } from './paths.ts'
import type { MemoryStore, StoredEntry } from './store.ts'
import { buildMeta, RefusedError, type NewEntry, type Writer } from './validate.ts'
import type { EntryMeta } from './entry.ts'
import { claimsPerson, isMarked } from './person-marks.ts'
import type { Said } from './said.ts'

/**
 * Month and year re-checks of 余页/待定 (CONTRACT#recheck). Pending files are never
 * changed: a re-check reads an entry, evaluates it (optionally with fields a
 * person or the dream proposes), and on a pass writes a *new* day entry that
 * records where it came from (`gate: promoted`, `promoted_at`, `source_ref`).
 * Failure counts and tombstones live in 元/待定复检.json, so a tombstone is a
 * record, not a deletion: restoring it is clearing that record.
 */
const PENDING_STATE = '待定复检.json'

export interface PendingRecord {
  fails: number
  last_checked?: string
  last_scope?: 'month' | 'year'
  /** The check periods already counted (`month:YYYY-MM`, `year:YYYY`): a second run in one period counts once. */
  last_period?: string
  last_reasons?: string[]
  promoted_id?: string
  promoted_at?: string
  tombstoned_at?: string
  tombstone_reason?: string
}

interface PendingState {
  version: 1
  entries: Record<string, PendingRecord>
}

export interface RecheckOptions {
  scope: 'month' | 'year'
  by: Writer
  /** Fields proposed for an entry (read-only input; validated like a write). */
  amend?: (entry: StoredEntry) => Partial<NewEntry> | undefined | Promise<Partial<NewEntry> | undefined>
  /** Consecutive failed month checks (one per month) before an entry is tombstoned (default 3). */
  maxFails?: number
  /** Only these pending entries are checked (the dream re-checks the ones it showed the model). */
  only?: (entry: StoredEntry) => boolean
  /** Pending entries older than this are out of date at a year check (default 365 days). */
  maxAgeDays?: number
}

export interface RecheckReport {
  promoted: Array<{ pendingId: string; id: string; file: string }>
  stillPending: Array<{ id: string; fails: number; reasons: string[] }>
  tombstoned: Array<{ id: string; why: string }>
  skipped: Array<{ id: string; why: string }>
}

function sourceRefOf(e: StoredEntry): string {
  return `${e.file}#${e.id}`
}

async function readPendingState(store: MemoryStore): Promise<PendingState> {
  const { state, problem } = await pendingStateOrProblem(store)
  if (problem !== undefined)
    throw new RefusedError('meta-json', `${problem.en}. Fix or restore it before re-checking; nothing was changed.`, {
      variant: 'pending',
      problem: problem.said,
    })
  return state
}

/** The record as read, or none and why (a reader may go on without it; a re-check may not). */
async function pendingStateOrProblem(store: MemoryStore): Promise<{ state: PendingState; problem?: { en: string; said: Said } }> {
  const empty: PendingState = { version: 1, entries: {} }
  const { value, problem, problemSaid } = await store.readMetaJson<PendingState>(PENDING_STATE, empty)
  if (problem !== undefined) return { state: empty, problem: { en: problem, said: problemSaid! } }
  if (value === null || typeof value !== 'object' || typeof value.entries !== 'object' || value.entries === null) return { state: empty }
  return { state: value }
}

/** The re-check records for `memory list --pending`, which shows the entries without them when the record cannot be read. */
export async function pendingRecordsOrProblem(store: MemoryStore): Promise<{ records: Record<string, PendingRecord>; problem?: { en: string; said: Said } }> {
  const { state, problem } = await pendingStateOrProblem(store)
  return problem === undefined ? { records: state.entries } : { records: {}, problem }
}

/** Pending entries with their re-check record. */
export async function listPending(store: MemoryStore): Promise<Array<StoredEntry & { record: PendingRecord }>> {
  const state = await readPendingState(store)
  const { entries } = await store.scan()
  return entries.filter((e) => e.area === 'pending').map((e) => ({ ...e, record: state.entries[e.id] ?? { fails: 0 } }))
}

/** The promoted entry's comment: original fields, the amendment, and where it came from. Pure. */
function promotedMeta(src: StoredEntry, amended: Omit<EntryMeta, 'id'>, id: string, at: Date, scope: 'month' | 'year'): EntryMeta {
  const { id: _old, gate: _g, pending_reasons: _r, ...rest } = src.meta
  const meta: EntryMeta = { id, ...rest, ...amended, gate: 'promoted', promoted_at: at.toISOString(), source_ref: sourceRefOf(src) }
  if (scope === 'month') meta.src = 'margin'
  return meta
}

/**
 * The fields an amendment sets, validated like a write (a model cannot set
 * `base`); the entry's own text is never re-limited. Throws a RefusedError.
 */
export function amendedMeta(store: MemoryStore, e: StoredEntry, amendment: Partial<NewEntry>, by: Writer): Omit<EntryMeta, 'id'> {
  return buildMeta({ text: e.text, ...amendment, at: undefined }, by, { ...store.limits, entryChars: Math.max(store.limits.entryChars, e.text.length) }).meta
}

/** The check period an instant falls in, by local date: `month:YYYY-MM` or `year:YYYY`. */
function checkPeriod(scope: 'month' | 'year', at: Date): string {
  const d = localDate(at)
  return scope === 'month' ? `month:${d.slice(0, 7)}` : `year:${d.slice(0, 4)}`
}

/**
 * Re-check pending entries (CONTRACT#recheck). A failure counts once per
 * check period: a month check run three times in one month counts one failed
 * month. Only month checks count toward `maxFails` (consecutive failed months);
 * a failed year check tombstones an entry older than `maxAgeDays` (已过时).
 */
export async function recheckPending(store: MemoryStore, opts: RecheckOptions): Promise<RecheckReport> {
  const maxFails = opts.maxFails ?? 3
  const maxAgeMs = (opts.maxAgeDays ?? 365) * 86_400_000
  const report: RecheckReport = { promoted: [], stillPending: [], tombstoned: [], skipped: [] }
  const now = store.now()
  const { entries } = await store.scan()
  const alreadyPromoted = new Set(
    entries.filter((e) => e.meta.gate === 'promoted' && typeof e.meta.source_ref === 'string').map((e) => e.meta.source_ref as string),
  )
  const state = await readPendingState(store)
  const changes = new Map<string, PendingRecord>()

  const period = checkPeriod(opts.scope, now)
  for (const e of entries.filter((x) => x.area === 'pending' && (opts.only === undefined || opts.only(x)))) {
    const rec: PendingRecord = { ...(state.entries[e.id] ?? { fails: 0 }) }
    if (rec.tombstoned_at !== undefined) {
      report.skipped.push({ id: e.id, why: 'tombstoned' })
      continue
    }
    if (rec.promoted_id !== undefined || alreadyPromoted.has(sourceRefOf(e))) {
      report.skipped.push({ id: e.id, why: 'already promoted' })
      continue
    }
    let amendment: Partial<NewEntry> | undefined
    try {
      amendment = await opts.amend?.(e)
    } catch {
      amendment = undefined
    }
    let amended: Omit<EntryMeta, 'id'> = {}
    let reasons: string[]
    try {
      if (amendment !== undefined) amended = amendedMeta(store, e, amendment, opts.by)
      const { id: _i, ...base } = e.meta
      reasons = gateReasons({ id: e.id, ...base, ...amended })
    } catch (err) {
      reasons = [`amendment refused: ${(err as Error).message}`]
    }
    rec.last_checked = now.toISOString()
    rec.last_scope = opts.scope
    if (reasons.length === 0) {
      const id = newId(now)
      const meta = promotedMeta(e, amended, id, now, opts.scope)
      // The person's pending entry stays the person's under its new id; a claim the record does not back is dropped.
      const personal = isMarked(store.marks().marks, e)
      if (!personal && claimsPerson(meta)) {
        delete meta.base
        meta.by = 'model'
      }
      const at = typeof e.meta.at === 'string' && !Number.isNaN(Date.parse(e.meta.at)) ? new Date(e.meta.at) : now
      const file = dayFileRel(localDate(at))
      const promoted = { text: e.text, meta }
      await store.appendEntries(file, [promoted], personal ? [promoted] : [])
      rec.promoted_id = id
      rec.promoted_at = now.toISOString()
      delete rec.last_reasons
      report.promoted.push({ pendingId: e.id, id, file })
      await audit(store, { op: 'promote', id, from: sourceRefOf(e), scope: opts.scope, by: opts.by })
    } else {
      const counted = rec.last_period === period
      if (opts.scope === 'month' && !counted) rec.fails += 1
      rec.last_period = period
      rec.last_reasons = reasons
      const age = typeof e.meta.at === 'string' ? now.getTime() - Date.parse(e.meta.at) : 0
      const outOfDate = opts.scope === 'year' && age > maxAgeMs
      if ((opts.scope === 'month' && !counted && rec.fails >= maxFails) || outOfDate) {
        rec.tombstoned_at = now.toISOString()
        rec.tombstone_reason = outOfDate ? 'out of date at the year check' : `failed ${rec.fails} month checks in a row`
        report.tombstoned.push({ id: e.id, why: rec.tombstone_reason })
        await audit(store, { op: 'tombstone', id: e.id, why: rec.tombstone_reason, by: opts.by })
      } else report.stillPending.push({ id: e.id, fails: rec.fails, reasons })
    }
    changes.set(e.id, rec)
  }
  if (changes.size > 0) await savePendingRecords(store, changes)
  return report
}

/** Merge records into 元/待定复检.json under the write lock (re-read inside, so concurrent checks do not clobber). */
async function savePendingRecords(store: MemoryStore, changes: Map<string, PendingRecord>): Promise<void> {
  await store.withWriteLock(async (lock) => {
    const state = await readPendingState(store)
    for (const [id, rec] of changes) state.entries[id] = rec
    await store.writeMetaJson(PENDING_STATE, state, lock)
  })
}

/** Bring a tombstoned pending entry back into the re-check cycle. A person's decision. */
export async function restoreTombstone(store: MemoryStore, id: string, ctx: { by: Writer }): Promise<void> {
  if (ctx.by !== 'person') throw new RefusedError('person-only', 'only the person may restore a tombstoned memory', { variant: 'tombstone' })
  const state = await readPendingState(store)
  const rec = state.entries[id]
  if (rec?.tombstoned_at === undefined)
    throw new RefusedError('not-found', `no tombstone for ${id}; see \`cyrene memory list --pending\``, { variant: 'tombstone', id })
  await savePendingRecords(store, new Map([[id, { fails: 0 }]]))
  await audit(store, { op: 'restore-tombstone', id, by: ctx.by })
}
