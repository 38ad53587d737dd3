import { lstatSync, promises as fs, type Stats } from 'node:fs'
import { dirname, join } from 'node:path'
import { callWindowOpen } from '../durable/host-writes.ts'
import type { HeldLock } from '../durable/lock.ts'
import { audit } from './audit.ts'
import { ensureDir, fsyncDir, inspectBelow, writeAtomic } from './fsio.ts'
import { conflictRecord, mergeWith, utf8Text, type DriverName, type MergeConflict, type MergeResult } from './git-merge.ts'
import { BRANCH, gitOpts, isMachineLocal, repoPaths, type RepoPaths } from './git-repo.ts'
import { catBlobs, git, gitText } from './git-run.ts'
import { driversOf } from './git-stage.ts'
import { LAYOUT } from './paths.ts'
import type { StoreCore } from './store-core.ts'

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
/** How cat-file is asked for "no file on this side" (a path the commit does not hold). */
const NO_BLOB = '0000000000000000000000000000000000000000'

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
  await writeAtomic(journalPath(store), `${JSON.stringify(j)}\n`, { beforeRename: () => lock.assertOwned() })
  onFile?.('')
  return await applyJournal(store, lock, env, j, onFile)
}

/** What a killed sync left: finished now (under the write lock). Cheap when there is nothing: one stat. */
export async function recoverGitSwitch(store: StoreCore, lock: HeldLock, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  let text: string
  try {
    text = await fs.readFile(journalPath(store), 'utf8')
  } catch {
    return false
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
    return false
  }
  await applyJournal(store, lock, env, j)
  return true
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
  const bytes = await fs.readFile(store.path(rel))
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

class ChangedMeanwhile extends Error {
  constructor(file: string) {
    super(
      `${file} kept changing while the sync was writing it (a program saving it again and again?): the sync stopped and finishes at the next cyrene command once the file holds still; nothing of it was written over`,
    )
    this.name = 'ChangedMeanwhile'
  }
}

const same = (a: Buffer | undefined, b: Buffer | undefined): boolean => (a === undefined ? b === undefined : b !== undefined && a.equals(b))

/**
 * The new version of one file, as the switch writes it. The store is not locked against an editor:
 * a file the person saved after the sync's commit is neither the old commit's version nor the new
 * one's. Then the person's file is merged with the new version, with the old commit as base and the
 * driver its path has, so neither the edit nor the other machine's change is lost; a file the other
 * machine removed, or one that is not UTF-8, stays as the person left it (the other version stays in
 * git's history). While a tool call's window is open the disk is not taken as the person's: the store
 * guard judges that change after the call (decision 288).
 */
function nextVersion(
  path: string,
  driver: DriverName,
  before: Buffer | undefined,
  after: Buffer | undefined,
  disk: Buffer | undefined,
  /** False while a tool call's window is open (durable/host-writes.ts): a change on disk may then be the model's. */
  personsDisk: boolean,
): { write: Buffer | undefined; remove: boolean; edited?: 'merged' | 'kept'; conflicts: MergeConflict[]; notes: MergeResult['notes'] } | 'as-is' {
  const none = { conflicts: [], notes: [] }
  if (same(disk, after)) return 'as-is'
  // As committed (or removed by the person since: the other machine's version is the one to have), or
  // changed while a tool call may have done it: the guard judges that change, the switch does not keep it.
  if (same(disk, before) || disk === undefined || !personsDisk)
    return after === undefined ? { write: undefined, remove: true, ...none } : { write: after, remove: false, ...none }
  if (after === undefined) return { write: undefined, remove: false, edited: 'kept', ...none }
  const [b, o, t] = [utf8Text(before), utf8Text(disk), utf8Text(after)]
  if (b === undefined || o === undefined || t === undefined) return { write: undefined, remove: false, edited: 'kept', ...none }
  const r = mergeWith(driver, b, o, t, { newer: 'ours', file: path })
  return { write: r.text === o ? undefined : Buffer.from(r.text, 'utf8'), remove: false, edited: 'merged', conflicts: r.conflicts, notes: r.notes }
}

async function applyJournal(store: StoreCore, lock: HeldLock, env: NodeJS.ProcessEnv, j: Journal, onFile?: (path: string) => void): Promise<SwitchResult> {
  const paths = repoPaths(store)
  const o = gitOpts(paths, env)
  const changed: string[] = []
  const edited: SwitchResult['edited'] = []
  const conflicts: Array<{ file: string; c: MergeConflict }> = []
  const notes: MergeResult['notes'] = []
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
  for (const [i, c] of list.entries()) {
    const after = afterBlobs[i]
    if (c.status !== 'D' && after === undefined) throw new Error(`git has no ${c.path} in ${j.to}`)
    for (let attempt = 1; ; attempt++) {
      lock.assertOwned()
      const disk = await onDisk(store, c.path)
      // A link or a folder where the file was: replaceFile refuses it with the store's own message.
      const next =
        disk === 'not-a-file'
          ? { write: after, remove: false, conflicts: [], notes: [] }
          : nextVersion(c.path, drivers.get(c.path) ?? 'whole', beforeBlobs[i], after, disk.bytes, !callWindowOpen())
      if (next === 'as-is') break
      try {
        if (next.remove) await fs.rm(store.path(c.path), { force: true })
        else if (next.write !== undefined) {
          await ensureDir(dirname(store.path(c.path)))
          await store.replaceFile(c.path, next.write, lock, disk === 'not-a-file' ? undefined : stillAsRead(store.path(c.path), disk))
        }
      } catch (error) {
        if (error instanceof ChangedMeanwhile && attempt < 5) continue
        throw error
      }
      if (next.edited !== undefined) edited.push({ path: c.path, how: next.edited })
      for (const x of next.conflicts) conflicts.push({ file: c.path, c: x })
      notes.push(...next.notes)
      break
    }
    changed.push(c.path)
    if (c.status !== 'D') onFile?.(c.path)
  }
  for (const { file, c } of conflicts) {
    const { id, text } = conflictRecord(file, c, j.at)
    await store.replaceFile(`${LAYOUT.meta}/冲突/${id}.json`, text, lock)
  }
  for (const n of notes) await audit(store, { by: 'sync', ...n })
  for (const e of edited) await audit(store, { op: 'git-edit-kept', file: e.path, how: e.how, by: 'sync', from: j.from, to: j.to })
  await git(['update-ref', `refs/heads/${BRANCH}`, j.to], o)
  await git(['read-tree', '--reset', j.to], o)
  await git(['update-index', '-q', '--refresh'], { ...o, ok: [1] })
  await fs.rm(journalPath(store), { force: true })
  await fsyncDir(paths.gitDir)
  return { changed, edited }
}

/** The commit the branch points at, or undefined before the first. */
export async function headCommit(paths: RepoPaths, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const h = await gitText(['rev-parse', '--verify', '-q', `refs/heads/${BRANCH}`], { ...gitOpts(paths, env), ok: [1] })
  return h === '' ? undefined : h
}
