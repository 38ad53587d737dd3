import { readdirSync } from 'node:fs'
import { readRegularFileSync } from '../durable/read-regular.ts'
import { join } from 'node:path'
import { LAYOUT, resolveRoot } from '../memory/paths.ts'
import { MemoryStore } from '../memory/index.ts'
import { readInboxMarksSync, recordInboxLines } from '../memory/marks.ts'
import { confirmsSomething, inboxLineKey, splitLines, vouchFromRecord, type ConfirmVouch } from '../whale/inbox.ts'

/**
 * The host's side of the inbox record (CONTRACT#whale-confirms): which confirmations of
 * the whale-persona inbox the person wrote, read from `元/whale-confirms.json`
 * under the store root at each assembly. A store older than the record (none
 * there, and the audit log never saw one made) takes the inbox's
 * confirmations as they are at the first assembly over once: they count in
 * that assembly and are recorded in the background. A record that goes
 * missing after that vouches for nothing.
 */
let migration: { root: string; counts: Record<string, number>; done: Promise<unknown> } | undefined
const migratedBefore = new Map<string, boolean>()

/** Whether the audit log says the record was made once (read once per process and root). */
function auditSaysMigrated(root: string): boolean {
  const known = migratedBefore.get(root)
  if (known !== undefined) return known
  let seen = false
  try {
    const dir = join(root, LAYOUT.meta, '审计')
    for (const name of readdirSync(dir))
      if (name.endsWith('.jsonl') && readRegularFileSync(join(dir, name)).toString('utf8').includes('"inbox-marks-migrated"')) seen = true
  } catch {
    seen = false
  }
  migratedBefore.set(root, seen)
  return seen
}

export function personVouch(inboxText: string | null, env: NodeJS.ProcessEnv = process.env): ConfirmVouch {
  let root: string
  try {
    root = resolveRoot({ env })
  } catch {
    return () => false
  }
  const read = readInboxMarksSync(root)
  if (!read.missing) return vouchFromRecord(read.marks.lines)
  if (inboxText === null || (migration?.root !== root && auditSaysMigrated(root))) return () => false
  if (migration?.root !== root) {
    // The lines as they are at this first look, and only those, until the record is on disk.
    const keys = splitLines(inboxText).filter(confirmsSomething).map(inboxLineKey)
    const counts: Record<string, number> = {}
    for (const k of keys) counts[k] = (counts[k] ?? 0) + 1
    const done = MemoryStore.open({ env })
      .then(async (store) => await recordInboxLines(store, keys, { migrate: true }))
      .catch(() => undefined)
    migration = { root, counts, done }
  }
  return vouchFromRecord(migration.counts)
}

/** For tests: the background take-over of an old inbox, when one was started. */
export async function inboxMigration(): Promise<void> {
  await migration?.done
}
