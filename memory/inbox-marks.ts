import { lstatSync } from 'node:fs'
import { join } from 'node:path'
import { audit } from './audit.ts'
import { LAYOUT } from './paths.ts'
import { insideReader } from './recent.ts'
import type { MemoryStore } from './store.ts'
import { RefusedError } from './validate.ts'

/**
 * The person's record of whale-persona inbox confirmations (CONTRACT#whale-confirms,
 * CONTRACT#person-marks). The inbox is a file the model can append to, so a
 * `{"op":"confirm",…}` line in it is only a claim; the host injects an entry
 * as confirmed only when the person's `cyrene whale inbox confirm` recorded
 * that exact line here. The record keeps, per line key (the caller's hash of
 * the trimmed line), how many times the person wrote that line: a copy of a
 * recorded line is one occurrence too many and vouches for nothing.
 */
const INBOX_MARKS_FILE = 'whale-confirms.json'
const INBOX_MARKS_REL = `${LAYOUT.meta}/${INBOX_MARKS_FILE}`

interface InboxMarks {
  version: 1
  /** line key → how many such lines the person wrote. */
  lines: Record<string, number>
  migrated_at?: string
  migrated?: number
}

export interface InboxMarksRead {
  marks: InboxMarks
  /** The file is missing (a store older than the record): the host takes the inbox's confirmations over once. */
  missing: boolean
  problem?: string
}

function parseInboxMarks(text: string): Omit<InboxMarksRead, 'missing'> {
  const empty: InboxMarks = { version: 1, lines: Object.create(null) as Record<string, number> }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (e) {
    return { marks: empty, problem: `${INBOX_MARKS_REL} is not valid JSON (${(e as Error).message})` }
  }
  const v = value as Partial<InboxMarks> | null
  if (v === null || typeof v !== 'object' || v.version !== 1 || v.lines === null || typeof v.lines !== 'object' || Array.isArray(v.lines))
    return { marks: empty, problem: `${INBOX_MARKS_REL} is not a version-1 record of inbox confirmations` }
  for (const [key, n] of Object.entries(v.lines)) if (/^[0-9a-f]{64}$/.test(key) && Number.isSafeInteger(n) && n > 0) empty.lines[key] = n
  if (typeof v.migrated_at === 'string') empty.migrated_at = v.migrated_at
  if (typeof v.migrated === 'number') empty.migrated = v.migrated
  return { marks: empty }
}

const cache = new Map<string, { stamp: string; read: InboxMarksRead }>()

/** The record, read synchronously at each assembly; cached by inode, size and time (every write is a rename). */
export function readInboxMarksSync(root: string): InboxMarksRead {
  const file = join(root, INBOX_MARKS_REL)
  let stamp = 'none'
  try {
    const st = lstatSync(file)
    stamp = `${st.ino}:${st.size}:${st.mtimeMs}`
  } catch {
    stamp = 'none'
  }
  const hit = cache.get(root)
  if (hit?.stamp === stamp) return hit.read
  const read: InboxMarksRead =
    stamp === 'none'
      ? { marks: { version: 1, lines: Object.create(null) as Record<string, number> }, missing: true }
      : { ...parseInboxMarks(insideReader(root)(file)), missing: false }
  cache.set(root, { stamp, read })
  return read
}

/**
 * Adds the person's lines (their keys) to the record, under the store's write
 * lock. A broken record is never overwritten. `migrate` writes the record of a
 * store that had none, once (the audit log remembers it was made).
 */
export async function recordInboxLines(store: MemoryStore, keys: readonly string[], opts: { migrate?: boolean } = {}): Promise<boolean> {
  if (opts.migrate === true) {
    const log = await store.auditLog().catch(() => [])
    if (log.some((r) => r.op === 'inbox-marks-migrated')) return false
  }
  const wrote = await store.withWriteLock(async (lock) => {
    const text = await store.readForRewrite(INBOX_MARKS_REL)
    if (opts.migrate === true && text !== '') return false
    const { marks, problem } = text === '' ? { marks: { version: 1 as const, lines: {} } } : parseInboxMarks(text)
    if (problem !== undefined)
      throw new RefusedError('meta-json', `${problem}; nothing was recorded. Restore it from a snapshot (cyrene restore) or move it aside and confirm again.`)
    const next: InboxMarks = { ...marks, lines: { ...marks.lines } }
    for (const k of keys) next.lines[k] = (next.lines[k] ?? 0) + 1
    if (opts.migrate === true) {
      next.migrated_at = store.now().toISOString()
      next.migrated = keys.length
    }
    await store.writeMetaJson(INBOX_MARKS_FILE, next, lock)
    return true
  })
  if (wrote && opts.migrate === true) await audit(store, { op: 'inbox-marks-migrated', count: keys.length, by: 'person' })
  return wrote
}
