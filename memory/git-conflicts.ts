import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { audit } from './audit.ts'
import { joinSegments, parseEntryFile, serializeEntry } from './entry.ts'
import { readTextOr } from './fsio.ts'
import { newId } from './id.ts'
import { LAYOUT } from './paths.ts'
import type { MemoryStore } from './store.ts'
import { RefusedError, type Writer } from './validate.ts'

/**
 * What a git merge could not decide (CONTRACT#git-merge): one record per conflict
 * in `元/冲突/<id>.json` (replicated like the rest, so every machine shows the
 * same ones). The file keeps side "a" (the text in place); "b" waits in the
 * record until the person picks.
 */
export const CONFLICTS_DIR = `${LAYOUT.meta}/冲突`

export interface ConflictRecord {
  id: string
  kind: 'entry' | 'section' | 'file'
  file: string
  /** Entry id, section heading ('core'), or '' for a whole file. */
  key: string
  ours: string
  theirs: string
  /** 'base64': a file that is not UTF-8; ours and theirs are its bytes (decision 288). */
  encoding?: 'base64'
  at: string
}

export async function listConflicts(store: MemoryStore): Promise<{ conflicts: ConflictRecord[]; problems: string[] }> {
  const dir = join(store.root, CONFLICTS_DIR)
  let names: string[] = []
  try {
    names = (await fs.readdir(dir)).filter((n) => n.endsWith('.json')).sort()
  } catch {
    return { conflicts: [], problems: [] }
  }
  const conflicts: ConflictRecord[] = []
  const problems: string[] = []
  for (const n of names) {
    try {
      const v = JSON.parse(await readTextOr(store.root, join(dir, n), '')) as ConflictRecord
      if (typeof v.file !== 'string' || typeof v.ours !== 'string' || typeof v.theirs !== 'string') throw new Error('not a conflict record')
      conflicts.push({ ...v, id: n.slice(0, -5) })
    } catch (error) {
      problems.push(`${CONFLICTS_DIR}/${n}: ${(error as Error).message}`)
    }
  }
  return { conflicts, problems }
}

export type Keep = 'a' | 'b' | 'both'

/** The records `what` names: a conflict id, or an entry id (every conflict on that entry). */
function matching(all: ConflictRecord[], what: string): ConflictRecord[] {
  const byId = all.filter((c) => c.id === what)
  return byId.length > 0 ? byId : all.filter((c) => c.kind === 'entry' && c.key === what)
}

/**
 * The person's pick: a keeps the text in place, b puts the record's other
 * text in its place, both keeps the other text too (an entry as a new entry
 * with a new id; a section or a file appended after the one in place).
 */
export async function resolveConflict(store: MemoryStore, what: string, keep: Keep, ctx: { by: Writer }): Promise<ConflictRecord[]> {
  if (ctx.by !== 'person')
    throw new RefusedError('person-only', 'only the person resolves a sync conflict (cyrene memory resolve). Nothing was changed.', {
      variant: 'conflict',
    })
  const found = matching((await listConflicts(store)).conflicts, what)
  if (found.length === 0) {
    throw new RefusedError(
      'no-such-conflict',
      `no sync conflict "${what}". \`cyrene memory check\` lists them (an entry id or a conflict id). Nothing was changed.`,
      { what },
    )
  }
  if (keep === 'both' && found.some((c) => c.kind === 'file')) {
    throw new RefusedError('bad-keep', `conflict ${found[0]!.id} is a whole file (${found[0]!.file}): it can only keep a or b. Nothing was changed.`, {
      id: found[0]!.id,
      file: found[0]!.file,
    })
  }
  await store.withWriteLock(async (lock) => {
    for (const c of found) {
      if (keep !== 'a') {
        const now = await store.readForRewrite(c.file).catch(() => '')
        const next = keep === 'b' ? replaced(now, c) : alsoKept(now, c, store.now())
        if (next !== now) await store.replaceFile(c.file, next, lock)
      }
      await fs.rm(join(store.root, CONFLICTS_DIR, `${c.id}.json`), { force: true })
    }
  })
  for (const c of found) await audit(store, { op: 'git-conflict-resolved', id: c.id, file: c.file, key: c.key, keep, by: 'person' })
  return found
}

const withNewline = (t: string): string => (t === '' || t.endsWith('\n') ? t : `${t}\n`)

/** The file with side b where side a is (the whole file when that piece is no longer there). */
function replaced(now: string, c: ConflictRecord): string | Buffer {
  if (c.kind === 'file') return c.encoding === 'base64' ? Buffer.from(c.theirs, 'base64') : c.theirs
  if (c.kind === 'entry') {
    const parsed = parseEntryFile(now, c.file)
    const seg = parsed.segments.find((s) => s.type === 'entry' && s.entry.meta.id === c.key)
    if (seg === undefined) return `${withNewline(now)}${withNewline(c.theirs)}`
    seg.raw = withNewline(c.theirs)
    return joinSegments(parsed.segments)
  }
  const at = now.indexOf(c.ours)
  return at < 0 ? `${withNewline(now)}${withNewline(c.theirs)}` : `${now.slice(0, at)}${withNewline(c.theirs)}${now.slice(at + c.ours.length)}`
}

/** The file with side b kept as well: an entry under a new id (its links and other keys kept). */
function alsoKept(now: string, c: ConflictRecord, at: Date): string {
  if (c.kind === 'entry') {
    const parsed = parseEntryFile(c.theirs, c.file)
    const seg = parsed.segments.find((s) => s.type === 'entry')
    if (seg !== undefined && seg.type === 'entry') {
      const meta = { ...seg.entry.meta, id: newId(at), split_from: c.key }
      return `${withNewline(now)}${serializeEntry({ text: seg.entry.text, meta })}`
    }
  }
  return `${withNewline(now)}${withNewline(c.theirs)}`
}
