import { lstatSync, promises as fs, type Stats } from 'node:fs'
import { dirname, join } from 'node:path'
import { asHostFolderWork, callWindowOpen } from '../durable/host-writes.ts'
import type { HeldLock } from '../durable/lock.ts'
import { audit } from './audit.ts'
import { ensureDir, fsyncDir, inspectBelow, readNoFollow, writeAtomic } from './fsio.ts'
import { conflictRecord, mergeBytes, mergeWith, sameBytes, utf8Text, type DriverName, type MergeConflict, type MergeResult } from './git-merge.ts'
import { BRANCH, gitOpts, isMachineLocal, repoPaths, type RepoPaths } from './git-repo.ts'
import { catBlobs, git, gitText, NO_BLOB } from './git-run.ts'
import { driversOf } from './git-stage.ts'
import { LAYOUT } from './paths.ts'
import type { StoreCore } from './store-core.ts'
import { RefusedError } from './validate.ts'

/**
 * Moving the store's files from one commit to another, the way restore does
 * (CONTRACT#git-switch): the target commit is complete in git first (staged), a
 * journal naming both commits is made durable, then each changed file is
 * replaced atomically, then the branch moves and the journal goes. A process
 * killed at any point leaves the journal: the next holder of the write lock
 * applies the same change again (it is idempotent) — the store is the old one
 * until the journal exists, the merged one once it has been applied. A file
 * the person saved after the commit the switch leaves is merged, never written
 * over (`nextVersion`, decision 288).
 */
const JOURNAL = 'cyrene-switch.json'

interface Journal {
  from: string
  to: string
  at: string
}

function journalPath(store: StoreCore): string {
  return join(store.root, '.git', JOURNAL)
}

/** Git's own lock files a killed git leaves behind; only removed while the store's write lock is held (no git of ours runs). */
const GIT_LOCKS = ['index.lock', 'HEAD.lock', 'config.lock', `refs/heads/${BRANCH}.lock`, 'packed-refs.lock', 'shallow.lock', 'gc.pid']

export async function clearStaleGitLocks(paths: RepoPaths): Promise<void> {
  for (const name of GIT_LOCKS) await fs.rm(join(paths.gitDir, name), { force: true })
  await fs.rm(join(paths.gitDir, `refs/remotes/origin/${BRANCH}.lock`), { force: true })
}

export async function switchTo(
  store: StoreCore,
  lock: HeldLock,
  env: NodeJS.ProcessEnv,
  from: string,
  to: string,
  onFile?: (path: string) => void,
): Promise<SwitchResult> {
  const j: Journal = { from, to, at: store.now().toISOString() }
  await asHostFolderWork([donePath(store)], async () => await fs.rm(donePath(store), { force: true }))
  await writeAtomic(journalPath(store), `${JSON.stringify(j)}\n`, { beforeRename: () => lock.assertOwned() })
  onFile?.('')
  return await applyJournal(store, lock, env, j, onFile)
}

/**
 * Finishes what a killed (or deferred) switch left, under the write lock; cheap when there is nothing (one
 * stat). Undefined when there was nothing; 'deferred' when a file changed while a tool call's window is open
 * stops it again (the journal stays; the caller goes on).
 */
export async function recoverGitSwitch(store: StoreCore, lock: HeldLock, env: NodeJS.ProcessEnv = process.env): Promise<SwitchResult | 'deferred' | undefined> {
  let text: string
  try {
    text = (await readNoFollow(journalPath(store))).toString('utf8')
  } catch {
    return undefined
  }
  const paths = repoPaths(store)
  await clearStaleGitLocks(paths)
  let j: Journal | undefined
  try {
    const v = JSON.parse(text) as Journal
    if (/^[0-9a-f]{40}$/.test(v.from) && /^[0-9a-f]{40}$/.test(v.to)) j = v
  } catch {
    /* torn: written atomically, so not ours */
  }
  if (j === undefined) {
    await fs.rm(journalPath(store), { force: true })
    return undefined
  }
  try {
    return await applyJournal(store, lock, env, j)
  } catch (error) {
    if (error instanceof SwitchDeferred) return 'deferred'
    throw error
  }
}

export async function journalPending(store: StoreCore): Promise<boolean> {
  return await fs
    .access(journalPath(store))
    .then(() => true)
    .catch(() => false)
}

/** The files that differ between two commits, with their new mode (`git diff --raw`). */
async function changes(paths: RepoPaths, env: NodeJS.ProcessEnv, from: string, to: string): Promise<Array<{ path: string; mode: string; status: string }>> {
  const raw = (await git(['diff', '--raw', '-z', '--no-renames', '--no-ext-diff', from, to], gitOpts(paths, env))).stdout.toString('utf8')
  const parts = raw.split('\0')
  const out: Array<{ path: string; mode: string; status: string }> = []
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const head = parts[i]!.split(' ')
    out.push({ mode: head[1]!, status: head[4]!.charAt(0), path: parts[i + 1]! })
  }
  return out
}

/** What a switch did: the files it wrote, and the files the person changed after the commit it left (merged or kept as they are). */
export interface SwitchResult {
  changed: string[]
  edited: Array<{ path: string; how: 'merged' | 'kept' }>
  /** Conflicts the switch found between a file saved meanwhile and the new version (元/冲突/). */
  conflicts: number
}

/** A file as it is on disk now, with what identifies this version of it (its stat), or missing. */
interface OnDisk {
  bytes: Buffer | undefined
  stamp: string
}

function stampOf(st: { ino: number; size: number; mtimeMs: number; ctimeMs: number } | undefined): string {
  return st === undefined ? 'missing' : `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}`
}

async function onDisk(store: StoreCore, rel: string, tries = 1): Promise<OnDisk | 'not-a-file'> {
  const at = await inspectBelow(store.root, store.path(rel))
  if (at.kind === 'missing') return { bytes: undefined, stamp: 'missing' }
  if (at.kind !== 'file') return 'not-a-file'
  const bytes = await readNoFollow(store.path(rel))
  const st = await fs.lstat(store.path(rel))
  // Read between two looks: a save landing while it is read shows as a changed stamp, and the file is read again.
  // A file that never holds still keeps the stamp of the first look: the check before the rename then refuses it.
  if (stampOf(st) !== stampOf(at.stat)) return tries < 10 ? await onDisk(store, rel, tries + 1) : { bytes, stamp: stampOf(at.stat) }
  return { bytes, stamp: stampOf(st) }
}

/** Throws when the file is no longer the version that was read: the rename would put a save made meanwhile under. */
function stillAsRead(full: string, seen: OnDisk): () => void {
  return () => {
    let st: Stats | undefined
    try {
      st = lstatSync(full)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
    }
    if (stampOf(st) !== seen.stamp) throw new ChangedMeanwhile(full)
  }
}

/** A save landed between the switch's read of a file and its write: read and decide that file again. */
class ChangedMeanwhile extends Error {
  constructor(file: string) {
    super(`${file} changed while the sync was writing it`)
    this.name = 'ChangedMeanwhile'
  }
}

function keptChanging(rel: string): RefusedError {
  return new RefusedError(
    'sync-file-busy',
    `${rel} kept changing while the sync was writing it (a program saving it again and again?). The sync stopped before that file; the next cyrene command finishes it once the file holds still, and nothing of it was written over.`,
    { file: rel },
  )
}

/**
 * A file the person or a model changed while a tool call's window is open: the switch stops before it and
 * leaves the journal (the store guard judges the change after the call; the next lock holder with no window
 * open finishes the switch).
 */
export class SwitchDeferred extends Error {
  readonly file: string
  constructor(file: string) {
    super(`the sync's switch waits for a tool call to end before it merges ${file}`)
    this.name = 'SwitchDeferred'
    this.file = file
  }
}

interface NextVersion {
  write: Buffer | undefined
  remove: boolean
  edited?: 'merged' | 'kept'
  conflicts: MergeConflict[]
  notes: MergeResult['notes']
}

/**
 * The new version of one file, as the switch writes it. The store is not locked against an editor:
 * a file the person saved after the sync's commit is neither the old commit's version nor the new
 * one's. Then the person's file is merged with the new version, with the old commit as base and the
 * driver its path has (by its bytes when a version is not UTF-8), so neither the edit nor the other
 * machine's change is lost; a file the other machine removed stays as the person left it. While a tool
 * call's window is open such a change may be the model's: the switch defers (decision 288).
 */
function nextVersion(
  path: string,
  driver: DriverName,
  before: Buffer | undefined,
  after: Buffer | undefined,
  disk: Buffer | undefined,
  windowOpen: boolean,
): NextVersion | 'as-is' | 'defer' {
  const none = { conflicts: [], notes: [] }
  if (sameBytes(disk, after)) return 'as-is'
  // As committed, or removed by the person since: the other machine's version is the one to have.
  if (sameBytes(disk, before) || disk === undefined)
    return after === undefined ? { write: undefined, remove: true, ...none } : { write: after, remove: false, ...none }
  if (windowOpen) return 'defer'
  if (after === undefined) return { write: undefined, remove: false, edited: 'kept', ...none }
  const [b, o, t] = [utf8Text(before), utf8Text(disk), utf8Text(after)]
  if (b === undefined || o === undefined || t === undefined) {
    const r = mergeBytes(before, disk, after)
    return { write: r.bytes === disk ? undefined : r.bytes, remove: false, edited: r.bytes === disk ? 'kept' : 'merged', conflicts: r.conflicts, notes: [] }
  }
  const r = mergeWith(driver, b, o, t, { newer: 'ours', file: path })
  return { write: r.text === o ? undefined : Buffer.from(r.text, 'utf8'), remove: false, edited: 'merged', conflicts: r.conflicts, notes: r.notes }
}

/** One file of the switch: read, decide, write with the check before the rename (a save meanwhile: again). */
async function applyOne(
  store: StoreCore,
  lock: HeldLock,
  rel: string,
  driver: DriverName,
  before: Buffer | undefined,
  after: Buffer | undefined,
): Promise<NextVersion | 'as-is'> {
  const full = store.path(rel)
  for (let attempt = 1; ; attempt++) {
    lock.assertOwned()
    const disk = await onDisk(store, rel)
    // A link or a folder where the file was: replaceFile refuses it with the store's own message.
    const next =
      disk === 'not-a-file' ? { write: after, remove: false, conflicts: [], notes: [] } : nextVersion(rel, driver, before, after, disk.bytes, callWindowOpen())
    if (next === 'defer') throw new SwitchDeferred(rel)
    if (next === 'as-is') return next
    const unchanged = disk === 'not-a-file' ? undefined : stillAsRead(full, disk)
    try {
      if (next.remove) {
        unchanged?.()
        await fs.rm(full, { force: true })
      } else if (next.write !== undefined) {
        await ensureDir(dirname(full))
        await store.replaceFile(rel, next.write, lock, unchanged)
      }
      return next
    } catch (error) {
      if (!(error instanceof ChangedMeanwhile)) throw error
      if (attempt >= 5) throw keptChanging(rel)
    }
  }
}

/** The files a journal has written, one line each (`<to> <path as JSON>`); not synced: it outlives a killed process, and a machine crash only costs the older base. */
function donePath(store: StoreCore): string {
  return join(store.root, '.git', 'cyrene-switch.done')
}

async function doneFiles(store: StoreCore, j: Journal): Promise<Set<string>> {
  const text = await readNoFollow(donePath(store)).then(
    (b) => b.toString('utf8'),
    () => '',
  )
  const out = new Set<string>()
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${j.to} `)) continue
    try {
      out.add(JSON.parse(line.slice(j.to.length + 1)) as string)
    } catch {
      /* a torn last line: that file is decided again, against the old base */
    }
  }
  return out
}

async function markDone(store: StoreCore, j: Journal, rel: string): Promise<void> {
  // The host's own work in .git/, as its git runs are: the store guard never takes it for a tool call's.
  await asHostFolderWork([donePath(store)], async () => await fs.appendFile(donePath(store), `${j.to} ${JSON.stringify(rel)}\n`, { mode: 0o600 }))
}

async function applyJournal(store: StoreCore, lock: HeldLock, env: NodeJS.ProcessEnv, j: Journal, onFile?: (path: string) => void): Promise<SwitchResult> {
  const paths = repoPaths(store)
  const o = gitOpts(paths, env)
  const changed: string[] = []
  const edited: SwitchResult['edited'] = []
  let conflicts = 0
  // Only plain files are ever written into the store: a link or a submodule from another machine is not.
  const list = (await changes(paths, env, j.from, j.to)).filter(
    (c) => !isMachineLocal(c.path) && (c.status === 'D' || c.mode === '100644' || c.mode === '100755'),
  )
  // Both versions of every file in one cat-file, beside the drivers.
  const [blobs, drivers] = await Promise.all([
    catBlobs(
      list.flatMap((c) => [c.status === 'D' ? NO_BLOB : `${j.to}:${c.path}`, c.status === 'A' ? NO_BLOB : `${j.from}:${c.path}`]),
      o,
    ),
    driversOf(
      paths,
      env,
      list.map((c) => c.path),
    ),
  ])
  const afterBlobs = list.map((_, i) => blobs[2 * i])
  const beforeBlobs = list.map((_, i) => blobs[2 * i + 1])
  // Files this journal already wrote (a replay after a kill): what is on disk there is the new version or an edit of it.
  const done = await doneFiles(store, j)
  for (const [i, c] of list.entries()) {
    const after = afterBlobs[i]
    if (c.status !== 'D' && after === undefined) throw new Error(`git has no ${c.path} in ${j.to}`)
    if (!done.has(c.path)) {
      const next = await applyOne(store, lock, c.path, drivers.get(c.path) ?? 'whole', beforeBlobs[i], after)
      if (next !== 'as-is') {
        if (next.edited !== undefined) edited.push({ path: c.path, how: next.edited })
        // Kept at once, not at the end: a replay skips this file, and its conflict must not go with the process.
        for (const x of next.conflicts) {
          const { id, text } = conflictRecord(c.path, x, j.at)
          await store.replaceFile(`${LAYOUT.meta}/冲突/${id}.json`, text, lock)
          conflicts++
        }
        for (const n of next.notes) await audit(store, { by: 'sync', ...n })
        if (next.edited !== undefined) await audit(store, { op: 'git-edit-kept', file: c.path, how: next.edited, by: 'sync', from: j.from, to: j.to })
      }
      await markDone(store, j, c.path)
    }
    changed.push(c.path)
    if (c.status !== 'D') onFile?.(c.path)
  }
  await git(['update-ref', `refs/heads/${BRANCH}`, j.to], o)
  await git(['read-tree', '--reset', j.to], o)
  await git(['update-index', '-q', '--refresh'], { ...o, ok: [1] })
  await asHostFolderWork([journalPath(store), donePath(store)], async () => {
    await fs.rm(journalPath(store), { force: true })
    await fs.rm(donePath(store), { force: true })
  })
  await fsyncDir(paths.gitDir)
  return { changed, edited, conflicts }
}

/** The commit the branch points at, or undefined before the first. */
export async function headCommit(paths: RepoPaths, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const h = await gitText(['rev-parse', '--verify', '-q', `refs/heads/${BRANCH}`], { ...gitOpts(paths, env), ok: [1] })
  return h === '' ? undefined : h
}
