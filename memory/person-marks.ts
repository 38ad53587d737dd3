import { createHash } from 'node:crypto'
import { lstatSync } from 'node:fs'
import { join } from 'node:path'
import type { HeldLock } from '../durable/lock.ts'
import { audit } from './audit.ts'
import type { Entry, EntryMeta } from './entry.ts'
import { fileStampSync } from './file-stamp.ts'
import { LAYOUT } from './paths.ts'
import { insideReader } from './recent.ts'
import type { StoreCore } from './store-core.ts'
import type { Said } from './said.ts'
import { RefusedError } from './validate.ts'

/**
 * Whether an entry is the person's is decided here, never by a flag inside an
 * entry file: the model reads and (through any tool the host cannot fence) may
 * write the same files the person does, so `"base": true` or `"by": "person"`
 * in a comment line is only a claim. The record `元/person-marks.json` holds,
 * per entry id, a hash of what the person owns in that entry (id, text, the
 * claim, the time); only the person's own paths write it (the `cyrene` command
 * line, the store's person writes) and it lives in `元/`, which the host's
 * store guard keeps from the model. A record copied onto another entry does
 * not match that entry's hash. CONTRACT#person-marks.
 */
const MARKS_FILE = 'person-marks.json'
export const MARKS_REL = `${LAYOUT.meta}/${MARKS_FILE}`

export interface PersonMarks {
  version: 1
  /** entry id → sha256 of its person-owned content (`markHash`). */
  entries: Record<string, string>
  /** When the existing claims of a store older than the record were taken over once (CONTRACT#person-marks). */
  migrated_at?: string
  migrated?: number
}

export interface MarksRead {
  marks: PersonMarks
  /** Set when the file is there but unreadable: then nothing reads as the person's. */
  problem?: string
  /** `problem` as a said, for the person's language. */
  problemSaid?: Said
}

/** The store as the marks' changes see it: its core and the marks it has read. */
export interface MarkedStore extends StoreCore {
  marks(): MarksRead
}

const EMPTY: PersonMarks = Object.freeze({ version: 1, entries: Object.freeze({}) }) as PersonMarks

/** True when the entry's comment says the person wrote it or that it is a base entry. */
export function claimsPerson(meta: EntryMeta): boolean {
  return meta.base === true || meta.by === 'person'
}

/** The hash of what the person owns in an entry: its id, text, the claim and the time it states. */
export function markHash(entry: Entry): string {
  const m = entry.meta
  const owned = ['cyrene-person-mark/1', m.id, entry.text, m.base === true, typeof m.by === 'string' ? m.by : '', typeof m.at === 'string' ? m.at : '']
  return createHash('sha256').update(JSON.stringify(owned)).digest('hex')
}

/** The record vouches for this entry exactly as it is now. */
export function isMarked(marks: PersonMarks, entry: Entry): boolean {
  const want = Object.hasOwn(marks.entries, entry.meta.id) ? marks.entries[entry.meta.id] : undefined
  return typeof want === 'string' && want === markHash(entry)
}

/** Who the store treats as the writer: a claim of the person without the record is the model's. */
export function ownerOf(marks: PersonMarks, entry: Entry): 'person' | 'model' | 'import' {
  if (claimsPerson(entry.meta)) return isMarked(marks, entry) ? 'person' : 'model'
  return entry.meta.by === 'import' ? 'import' : 'model'
}

/** A base entry the person really wrote (the only kind the gate, the tools and the views treat as base). */
export function isPersonBase(marks: PersonMarks, entry: Entry): boolean {
  return entry.meta.base === true && isMarked(marks, entry)
}

/** A claim the record does not back: what `cyrene memory check` names. */
export function isForgedClaim(marks: PersonMarks, entry: Entry): boolean {
  return claimsPerson(entry.meta) && !isMarked(marks, entry)
}

function parseMarks(text: string): MarksRead {
  if (text.trim() === '') return { marks: EMPTY }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    const error = (e as Error).message
    return { marks: EMPTY, problem: `${MARKS_REL} is not valid JSON (${error})`, problemSaid: { code: 'part.meta-json', params: { file: MARKS_REL, error } } }
  }
  const v = value as Partial<PersonMarks> | null
  if (v === null || typeof v !== 'object' || v.version !== 1 || v.entries === null || typeof v.entries !== 'object' || Array.isArray(v.entries))
    return {
      marks: EMPTY,
      problem: `${MARKS_REL} is not a version-1 record of person marks`,
      problemSaid: { code: 'part.marks.version', params: { file: MARKS_REL } },
    }
  const entries: Record<string, string> = Object.create(null) as Record<string, string>
  for (const [id, hash] of Object.entries(v.entries)) if (typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash)) entries[id] = hash
  const marks: PersonMarks = { version: 1, entries }
  if (typeof v.migrated_at === 'string') marks.migrated_at = v.migrated_at
  if (typeof v.migrated === 'number') marks.migrated = v.migrated
  return { marks }
}

const syncCache = new Map<string, { stamp: string; read: MarksRead }>()

/** The record, read synchronously (the prompt variable and the views); cached by the file's stamp. */
export function readMarksSync(root: string): MarksRead {
  const file = join(root, MARKS_REL)
  let st: { ino: number; size: number; mtimeMs: number } | undefined
  try {
    st = lstatSync(file)
  } catch {
    st = undefined
  }
  // The inode too: every write of the record is a rename, so a new file is always seen.
  const stamp = st === undefined ? 'none' : `${st.ino}:${st.size}:${st.mtimeMs}`
  const hit = syncCache.get(root)
  if (hit?.stamp === stamp) return hit.read
  const read = st === undefined ? { marks: EMPTY } : parseMarks(insideReader(root)(file))
  syncCache.set(root, { stamp, read })
  return read
}

/** True when the record file exists (a store made before it is migrated once). */
export function marksExist(root: string): boolean {
  return fileStampSync(join(root, MARKS_REL)) !== undefined
}

/**
 * Records the entries as the person's (caller holds the write lock and is a
 * person's path). A broken record is never overwritten: the write is refused.
 */
export async function recordMarks(store: StoreCore, lock: HeldLock, entries: readonly Entry[], drop: readonly string[] = []): Promise<void> {
  const { marks, problem, problemSaid } = parseMarks(await store.readForRewrite(MARKS_REL))
  if (problem !== undefined)
    throw new RefusedError(
      'meta-json',
      `${problem}; nothing was written. Restore it from a snapshot (cyrene restore) or move it aside, then run \`cyrene memory marks --confirm <id>\` for your entries.`,
      { variant: 'marks', problem: problemSaid! },
    )
  const next: PersonMarks = { ...marks, entries: { ...marks.entries } }
  for (const id of drop) delete next.entries[id]
  for (const e of entries) next.entries[e.meta.id] = markHash(e)
  await store.writeMetaJson(MARKS_FILE, next, lock)
}

/**
 * A store older than the record: the first run of this version by the
 * person's command line or the host takes over every entry that claims the
 * person then, once, and says how many (`migrated`). Later the record is never
 * rebuilt from claims: a missing record after that (the audit log says it was
 * made) leaves the claims unbacked until the person confirms them. A restore
 * (the person's) of a snapshot older than the record takes that day's claims
 * over again (`afterRestore`).
 */
export async function migrateMarks(store: StoreCore, opts: { afterRestore?: boolean } = {}): Promise<number | undefined> {
  if (marksExist(store.root)) return undefined
  if (opts.afterRestore !== true) {
    const log = await store.auditLog().catch(() => [])
    if (log.some((r) => r.op === 'marks-migrated')) return undefined
  }
  const { entries } = await store.scan()
  const claimed = entries.filter((e) => claimsPerson(e.meta))
  const done = await store.withWriteLock(async (lock) => {
    if (marksExist(store.root)) return undefined
    const marks: PersonMarks = { version: 1, entries: {}, migrated_at: store.now().toISOString(), migrated: claimed.length }
    for (const e of claimed) marks.entries[e.meta.id] = markHash(e)
    await store.writeMetaJson(MARKS_FILE, marks, lock)
    return claimed.length
  })
  if (done !== undefined) await audit(store, { op: 'marks-migrated', count: done, by: 'person' })
  return done
}

/**
 * The person's `cyrene memory marks --confirm/--drop`: records entries as the
 * person's as they are now (after a hand edit, or a claim listed for review),
 * or removes records. Every id must be an entry that claims the person; an
 * unknown id or one without the claim refuses the whole call.
 */
export async function changeMarks(
  store: MarkedStore,
  change: { confirm: readonly string[]; drop: readonly string[] },
): Promise<{ confirmed: string[]; dropped: string[] }> {
  const { entries } = await store.scan()
  const byId = new Map(entries.map((e) => [e.id, e]))
  const chosen: Entry[] = []
  for (const id of change.confirm) {
    const e = byId.get(id)
    if (e === undefined)
      throw new RefusedError('not-found', `no entry with id ${JSON.stringify(id)}; nothing was recorded. List your entries with \`cyrene memory marks\``, {
        variant: 'mark',
        id: JSON.stringify(id),
      })
    if (!claimsPerson(e.meta))
      throw new RefusedError(
        'bad-input',
        `entry ${id} does not say it is yours (no "base": true or "by": "person" in its comment); nothing was recorded. Write your own entry with \`cyrene memory write\``,
        { variant: 'not-yours', id },
      )
    chosen.push(e)
  }
  for (const id of change.drop)
    if (!byId.has(id) && !Object.hasOwn(store.marks().marks.entries, id))
      throw new RefusedError('not-found', `no entry or record with id ${JSON.stringify(id)}; nothing was changed`, {
        variant: 'mark-record',
        id: JSON.stringify(id),
      })
  await store.withWriteLock(async (lock) => await recordMarks(store, lock, chosen, change.drop))
  if (chosen.length + change.drop.length > 0) await audit(store, { op: 'marks', confirmed: change.confirm, dropped: change.drop, by: 'person' })
  return { confirmed: chosen.map((e) => e.meta.id), dropped: [...change.drop] }
}
