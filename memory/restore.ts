import { promises as fs } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { dirname, join } from 'node:path'
import { audit, auditLog } from './audit.ts'
import { claimEngine, engineStatus, releaseEngine } from './engine-lock.ts'
import { ensureDir, fsyncDir, FILE_MODE, readNoFollow } from './fsio.ts'
import { LockBusyError, pidAlive, type HeldLock } from '../durable/lock.ts'
import { recallCacheDir, safeJoin } from './paths.ts'
import { markUntouched } from './untouched.ts'
import { listSnapshots, pruneSnapshots, sha256, snapshotUnderLock, writeNewFile } from './snapshots.ts'
import type { StoreCore } from './store-core.ts'
import { checkSnapshot, lstatTree, type TreeEntry } from './restore-check.ts'
import type { Said } from './said.ts'
import { RefusedError, type Writer } from './validate.ts'
import { marksExist, migrateMarks } from './person-marks.ts'

/**
 * Restore the store from a snapshot so that a crash at any moment leaves
 * either the old store or the restored one — never a mix, never an empty one.
 *
 *  1. Under the engine lock (no DSH may start meanwhile) and the write lock
 *     (held to the end), check the whole snapshot: no links, no odd file
 *     types, and either its manifest (every file present with the size and
 *     SHA-256 it had when taken, nothing added) or — for snapshots older than
 *     manifests — the format of its day/pending files and 元/*.json. Check the
 *     live store too for anything the switch could not do without following a
 *     link. A refusal here has changed nothing.
 *  2. Take the `pre-restore` snapshot (the undo) and prune, sparing the
 *     snapshot being restored.
 *  3. Stage: copy the snapshot into a staging folder on the same file system
 *     as the real root (beside it), fsync, and write a journal with
 *     `state: "committed"` (atomic + fsync). That write is the commit point.
 *  4. Switch (roll forward): drop the recall cache, remove live files the
 *     snapshot lacks, rename each staged file over its live path (rename
 *     replaces a link itself, never its target), fsync the folders, audit,
 *     remove the journal and the staging folder.
 *
 * Recovery (`recoverUnderLock`, run by MemoryStore.open and every write-lock
 * holder before anything else): a staging folder whose journal is not
 * committed is thrown away (the old store was never touched); a committed one
 * is rolled forward again — every step is idempotent.
 *
 * The staging folder lies outside the guarded store, so a tool call's process
 * could write one, journal and all, and have the next writer "finish" it: remove
 * the live files it lists and move its own in. A committed journal is therefore
 * rolled forward only when the audit log (inside the guarded store, append only)
 * holds the `restore-staged` line with its random token and no line that closed
 * that restore since; any other staging folder is thrown away (decision 309).
 */

type RestorePhase = 'validated' | 'safety' | 'staged' | 'committed' | 'switched'

export interface RestoreResult {
  /** Files of the snapshot, all now in the store. */
  restored: number
  /** Live files the snapshot did not have, removed. */
  removed: number
  /** The pre-restore snapshot: restore it to undo this restore. */
  safety: string
  /** false: an older snapshot without a manifest, checked by format only. */
  verified: boolean
  /** Format problems of a checksummed snapshot, kept as they were (they are the store's bytes of that day). */
  warnings: string[]
  /** `warnings` as codes, for the person's language; same order. */
  warningsSaid: Said[]
  /** Live paths that were links: the link was replaced by the snapshot's file; what it pointed to was left alone. */
  linksReplaced: string[]
}

export interface RestoreOptions {
  /** Told when each step is done (progress output, and the crash tests' kill points). */
  onPhase?: (phase: RestorePhase) => void
}

/** The audit log is append-only and the volume persona snapshots are immutable: live copies are kept, missing ones come back. */
const KEPT_LIVE = ['元/审计/', '元/卷/']
const JOURNAL = 'journal.json'
const STAGED_FILES = 'files'
const JOURNAL_VERSION = 2

interface Journal {
  version: number
  state: 'staging' | 'committed'
  /** Random; the audit log's `restore-staged` line carries it (what a forged journal cannot show). */
  token: string
  /** The month of the audit file that line went to (set when committed). */
  staged_month?: string
  snapshot: string
  safety: string
  verified: boolean
  pid: number
  host: string
  started_at: string
  /** Files of the snapshot (for the audit). */
  files: number
  /** Live files to remove at the switch, relative to the root. */
  remove: string[]
}

function keptLive(rel: string): boolean {
  return KEPT_LIVE.some((p) => rel.startsWith(p))
}

interface SwitchPlan {
  /** Snapshot files to stage and move into place. */
  place: string[]
  remove: string[]
  linksReplaced: string[]
}

/** Step 1, live side: what the switch will do, refusing what it could only do through a link or over a folder. */
async function planSwitch(real: string, name: string, files: ReadonlyMap<string, string>): Promise<SwitchPlan> {
  const live = await lstatTree(real)
  const problems = new Map<string, Said>()
  const plan: SwitchPlan = { place: [], remove: [], linksReplaced: [] }
  const removable = (rel: string, e: TreeEntry | undefined) => e?.kind === 'file' && !files.has(rel) && !keptLive(rel)
  for (const rel of [...files.keys()].sort()) {
    const cur = live.get(rel)
    if (keptLive(rel) && cur !== undefined) continue
    const parts = rel.split('/')
    for (let i = 1; i < parts.length; i++) {
      const up = parts.slice(0, i).join('/')
      const a = live.get(up)
      if (a === undefined || a.kind === 'dir' || removable(up, a)) continue
      problems.set(
        `${up} in the store is ${a.kind === 'link' ? 'a link' : 'not a folder'}, and the snapshot has ${rel} under it: restore never writes through links. Replace it with a plain folder (or move it out of the store)`,
        { code: a.kind === 'link' ? 'part.restore.link-on-way' : 'part.restore.file-on-way', params: { up, file: rel } },
      )
    }
    if (cur?.kind === 'dir')
      problems.set(`${rel} in the store is a folder where the snapshot has a file: move that folder out of the store`, {
        code: 'part.restore.folder',
        params: { file: rel },
      })
    else if (cur?.kind === 'other')
      problems.set(`${rel} in the store is not a plain file: move it out of the store`, { code: 'part.restore.other', params: { file: rel } })
    else if (cur?.kind === 'link') plan.linksReplaced.push(rel)
    plan.place.push(rel)
  }
  for (const [rel, e] of live) if (removable(rel, e)) plan.remove.push(rel)
  if (problems.size > 0) {
    const shown = [...problems].slice(0, 8)
    throw new RefusedError(
      'restore-blocked',
      `cannot restore ${name}; nothing was changed:\n${shown.map(([en]) => `  - ${en}`).join('\n')}\nthen restore again.`,
      { variant: 'plan', name, problems: shown.map(([, said]) => said) },
    )
  }
  return plan
}

/** Beside the real root (same file system, so every move is a rename); inside it when the root is a mount point of its own. */
async function stagingDirFor(real: string): Promise<string> {
  const [a, b] = await Promise.all([fs.stat(real), fs.stat(dirname(real))])
  return a.dev === b.dev ? `${real}-restore` : join(real, '.tmp-restore')
}

async function findStaging(real: string): Promise<string | undefined> {
  for (const dir of [`${real}-restore`, join(real, '.tmp-restore')]) {
    if (
      await fs.lstat(dir).then(
        (s) => s.isDirectory(),
        () => false,
      )
    )
      return dir
  }
  return undefined
}

async function writeJournal(staging: string, j: Journal): Promise<void> {
  const next = join(staging, `${JOURNAL}.next`)
  await fs.rm(next, { force: true })
  await writeNewFile(next, `${JSON.stringify(j)}\n`)
  await fs.rename(next, join(staging, JOURNAL))
  await fsyncDir(staging)
}

/**
 * The journal, or undefined when there is none or it is not one (then nothing was committed: the commit write is atomic).
 * Read without waiting: a FIFO under its name would otherwise hold every writer, the lock with it.
 */
async function readJournal(staging: string): Promise<Journal | undefined> {
  try {
    const j = JSON.parse((await readNoFollow(join(staging, JOURNAL))).toString('utf8')) as Journal
    return j.version === JOURNAL_VERSION &&
      Array.isArray(j.remove) &&
      j.remove.every((r) => typeof r === 'string') &&
      typeof j.snapshot === 'string' &&
      typeof j.token === 'string' &&
      /^[0-9a-f]{32}$/.test(j.token)
      ? j
      : undefined
  } catch {
    return undefined
  }
}

/**
 * Where the audit log leaves this journal's restore: `staged` while its `restore-staged` line (in the month the
 * journal names, with the token) stands and no line closed it since; `finished` when a `restore` line closed it
 * (cut off after that line, before the journal went); `unknown` otherwise.
 */
async function standingInAudit(store: StoreCore, j: Journal): Promise<'staged' | 'finished' | 'unknown'> {
  if (typeof j.staged_month !== 'string' || !/^\d{4}-\d{2}$/.test(j.staged_month)) return 'unknown'
  let standing: 'staged' | 'finished' | 'unknown' = 'unknown'
  for (const line of await auditLog(store, j.staged_month)) {
    if (line.token !== j.token) continue
    if (line.op === 'restore-staged') standing = 'staged'
    else if (line.op === 'restore') standing = standing === 'staged' ? 'finished' : 'unknown'
    else if (line.op === 'restore-abandoned') standing = 'unknown'
  }
  return standing
}

/** Step 3: copy the planned files into staging, re-checking every byte against what step 1 checked; fsync all. */
async function stage(
  snapDir: string,
  filesDir: string,
  name: string,
  plan: SwitchPlan,
  sums: ReadonlyMap<string, string>,
  onProgress?: (done: number, total: number) => void,
): Promise<void> {
  await ensureDir(filesDir)
  const dirs = new Set<string>([filesDir])
  let done = 0
  for (const rel of plan.place) {
    // Opened without waiting: a FIFO put where the checked file was would otherwise hold the restore (and the lock).
    const buf = await readNoFollow(join(snapDir, rel)).catch(() => undefined)
    if (buf === undefined || sha256(buf) !== sums.get(rel))
      throw new RefusedError('bad-snapshot', `${rel} in snapshot ${name} changed while it was being restored; nothing was changed — try again`, {
        variant: 'changed',
        file: rel,
        name,
      })
    const target = join(filesDir, rel)
    await ensureDir(dirname(target))
    dirs.add(dirname(target))
    await writeNewFile(target, buf, rel.startsWith('元/卷/') ? 0o400 : FILE_MODE)
    onProgress?.(++done, plan.place.length)
  }
  for (const d of dirs) await fsyncDir(d)
}

/** Throws unless every folder on the way from the root to `rel` is a plain folder (or not there yet). */
async function assertNoLinkOnTheWay(real: string, rel: string, known: Set<string>): Promise<void> {
  const parts = rel.split('/')
  for (let i = 1; i < parts.length; i++) {
    const up = parts.slice(0, i).join('/')
    if (known.has(up)) continue
    const st = await fs.lstat(join(real, up)).catch(() => undefined)
    if (st === undefined) return
    if (!st.isDirectory())
      throw new RefusedError(
        'restore-blocked',
        `${up} in the store became ${st.isSymbolicLink() ? 'a link' : 'a file'} during a restore; restore never writes through links. Replace it with a plain folder; the restore finishes the next time the store is opened`,
        { variant: st.isSymbolicLink() ? 'became-link' : 'became-file', up },
      )
    known.add(up)
  }
}

/** 元/卷/NNN/persona — the read-only (0500) folder a volume file sits in. */
function volumeFolder(rel: string): string | undefined {
  const p = rel.split('/')
  return rel.startsWith('元/卷/') && p.length > 4 ? p.slice(0, 4).join('/') : undefined
}

/** Anything but folders under `dir`; a folder that cannot be read counts as holding one (the discard is then audited). */
async function holdsAFile(dir: string): Promise<boolean> {
  try {
    return (await fs.readdir(dir, { recursive: true, withFileTypes: true })).some((d) => !d.isDirectory())
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT'
  }
}

/** Step 4. Idempotent: a second run after a crash finds some files already moved and moves the rest. */
async function rollForward(store: StoreCore, real: string, staging: string, j: Journal, lock: HeldLock): Promise<void> {
  // The recall cache is derived from the files: gone now, rebuilt from the restored files on the next search.
  // The whole folder goes (a link there is removed, not followed): the store knows where it is, not what is inside.
  await fs.rm(recallCacheDir(store.root), { recursive: true, force: true })
  const known = new Set<string>()
  const touched = new Set<string>()
  for (const rel of j.remove) {
    const full = safeJoin(real, rel)
    const st = await fs.lstat(full).catch(() => undefined)
    if (st === undefined || !(st.isFile() || st.isSymbolicLink())) continue
    await assertNoLinkOnTheWay(real, rel, known)
    lock.assertOwned()
    await fs.unlink(full)
    touched.add(dirname(full))
  }
  const filesDir = join(staging, STAGED_FILES)
  const staged = [...(await lstatTree(filesDir))]
    .filter(([, e]) => e.kind === 'file')
    .map(([rel]) => rel)
    .sort()
  for (const rel of staged) {
    const target = safeJoin(real, rel)
    await assertNoLinkOnTheWay(real, rel, known)
    const vol = volumeFolder(rel)
    if (vol !== undefined) await fs.chmod(join(real, vol), 0o700).catch(() => undefined)
    await ensureDir(dirname(target))
    lock.assertOwned()
    // rename replaces whatever is at `target` — a link included — and never writes into what a link points to.
    await fs.rename(join(filesDir, rel), target)
    if (vol !== undefined) await fs.chmod(join(real, vol), 0o500)
    touched.add(dirname(target))
  }
  for (const d of touched) await fsyncDir(d)
}

async function finishSwitch(store: StoreCore, real: string, staging: string, j: Journal, lock: HeldLock, recovered: boolean): Promise<void> {
  await rollForward(store, real, staging, j, lock)
  // Audit before the journal goes: a crash in between repeats the line rather than losing it.
  await audit(store, {
    op: 'restore',
    snapshot: j.snapshot,
    safety: j.safety,
    verified: j.verified,
    files: j.files,
    removed: j.remove.length,
    by: 'person',
    token: j.token,
    ...(recovered ? { recovered: true } : {}),
  })
  await fs.unlink(join(staging, JOURNAL))
  await fsyncDir(staging)
  await fs.rm(staging, { recursive: true, force: true })
  await fsyncDir(dirname(staging))
}

/**
 * Finish or undo a restore that was cut off. The caller holds the write lock,
 * and a restore holds it from start to end — so any staging folder found here
 * belongs to a restore that is gone.
 */
export async function recoverUnderLock(store: StoreCore, lock: HeldLock): Promise<'none' | 'rolled-forward' | 'discarded'> {
  const real = await fs.realpath(store.root)
  const staging = await findStaging(real)
  if (staging === undefined) return 'none'
  const j = await readJournal(staging)
  const standing = j?.state === 'committed' ? await standingInAudit(store, j) : 'unknown'
  // A cut after the `restore` line leaves no file to move: one left there was put there by something else.
  const leftover = standing === 'finished' && !(await holdsAFile(join(staging, STAGED_FILES)))
  if (j !== undefined && standing === 'staged') {
    try {
      await finishSwitch(store, real, staging, j, lock, true)
    } catch (e) {
      const err = e as Error
      err.message = `an interrupted restore of snapshot ${j.snapshot} could not be finished (${err.message}). Its files wait in ${staging}; nothing is lost. Fix the cause, then run any cyrene command to finish it.`
      throw err
    }
    return 'rolled-forward'
  }
  await fs.rm(staging, { recursive: true, force: true })
  await fsyncDir(dirname(staging))
  // A committed journal the audit log does not vouch for was not written by a restore: its folder is gone, nothing of it done.
  // One whose restore the log shows finished is what a cut after that line leaves: the log says all there is already.
  if (j !== undefined && !leftover)
    await audit(store, {
      op: 'restore-abandoned',
      snapshot: String(j.snapshot).slice(0, 200),
      safety: String(j.safety).slice(0, 200),
      by: 'person',
      token: j.token,
      ...(j.state === 'committed' ? { unvouched: true } : {}),
    })
  return 'discarded'
}

/**
 * For MemoryStore.open: recover a cut-off restore before the store is used.
 * A restore still running in another process is left to finish by itself.
 */
export async function recoverInterruptedRestore(store: StoreCore): Promise<void> {
  const real = await fs.realpath(store.root)
  const staging = await findStaging(real)
  if (staging === undefined) return
  const j = await readJournal(staging)
  if (j !== undefined && j.host === hostname() && j.pid !== process.pid && pidAlive(j.pid)) return
  try {
    await store.withWriteLock(async () => undefined) // the lock holder recovers first (store.withWriteLock)
  } catch (e) {
    if (e instanceof LockBusyError) return // busy for long: the next writer finishes it
    throw e
  }
}

/** Holds the engine lock for the restore so no DSH starts on a half-restored store. True if this call took it. */
async function holdEngine(store: StoreCore): Promise<boolean> {
  if ((await engineStatus(store)).mine) return false
  try {
    await claimEngine(store, 'restore')
  } catch (e) {
    if (!(e instanceof LockBusyError)) throw e
    const pid = String(e.owner?.pid ?? '?')
    // Another restore holds the engine lock, not DSH: "quit DSH" would send the person looking for a DSH that is not running.
    if (e.owner?.purpose === 'restore')
      throw new RefusedError(
        'engine-running',
        `another restore is running (process ${pid}); wait for it to finish (if it was stopped, resume it: kill -CONT ${pid}), then try again`,
        {
          variant: 'restore',
          pid,
        },
      )
    throw new RefusedError('engine-running', `the memory engine is running (process ${pid}); quit DSH first, then restore`, { pid })
  }
  return true
}

/**
 * Restore the root from a snapshot (see the module comment), after taking a
 * `pre-restore` snapshot — so a restore can itself be undone. Person only;
 * refused while DSH runs the engine.
 */
export async function restoreSnapshot(
  store: StoreCore,
  name: string,
  ctx: { by: Writer },
  onProgress?: (done: number, total: number) => void,
  opts: RestoreOptions = {},
): Promise<RestoreResult> {
  if (ctx.by !== 'person') throw new RefusedError('person-only', 'only the person may restore a snapshot', { variant: 'restore' })
  const names = await listSnapshots(store)
  if (typeof name !== 'string' || !names.includes(name)) {
    throw new RefusedError('not-found', `no snapshot named ${JSON.stringify(name)}. Available: ${names.join(', ') || '(none — run `cyrene backup`)'}`, {
      variant: names.length === 0 ? 'no-snapshots' : 'snapshot',
      name: JSON.stringify(name),
      available: names.join(', '),
    })
  }
  // Until the journal is written committed, the live store is as it was: a failure there changed nothing.
  let committing = false
  const tookEngine = await holdEngine(store).catch((e: unknown) => {
    throw markUntouched(e)
  })
  // Only a store already on the record takes a pre-record snapshot's claims over; an older store migrates at its next open.
  const hadRecord = marksExist(store.root)
  try {
    const result = await store.withWriteLock(async (lock) => {
      const snapDir = join(store.snapshotsDir, name)
      const checked = await checkSnapshot(snapDir, name)
      const real = await fs.realpath(store.root)
      const plan = await planSwitch(real, name, checked.files)
      opts.onPhase?.('validated')

      const safety = await snapshotUnderLock(store, 'pre-restore')
      await pruneSnapshots(store, { spare: [name] })
      opts.onPhase?.('safety')

      const staging = await stagingDirFor(real)
      const journal: Journal = {
        version: JOURNAL_VERSION,
        state: 'staging',
        snapshot: name,
        safety: safety.name,
        verified: checked.verified,
        pid: process.pid,
        host: hostname(),
        token: randomBytes(16).toString('hex'),
        started_at: store.now().toISOString(),
        files: checked.files.size,
        remove: plan.remove,
      }
      try {
        await fs.mkdir(staging, { mode: 0o700 })
        await fsyncDir(dirname(staging))
        await writeJournal(staging, journal)
        await stage(snapDir, join(staging, STAGED_FILES), name, plan, checked.files, onProgress)
      } catch (e) {
        await fs.rm(staging, { recursive: true, force: true }).catch(() => undefined)
        throw e
      }
      opts.onPhase?.('staged')
      lock.assertOwned()
      const stagedMonth = await audit(store, { op: 'restore-staged', snapshot: name, safety: safety.name, by: 'person', token: journal.token })
      committing = true
      const committed: Journal = { ...journal, state: 'committed', staged_month: stagedMonth }
      await writeJournal(staging, committed)
      opts.onPhase?.('committed')
      await finishSwitch(store, real, staging, committed, lock, false)
      opts.onPhase?.('switched')
      return {
        restored: checked.files.size,
        removed: plan.remove.length,
        safety: safety.name,
        verified: checked.verified,
        warnings: checked.warnings,
        warningsSaid: checked.warningsSaid,
        linksReplaced: plan.linksReplaced,
      }
    })
    // A snapshot taken before the person-marks record existed brings none back: the person chose that day, so its claims are taken over once more.
    if (hadRecord) await migrateMarks(store, { afterRestore: true }).catch(() => undefined)
    return result
  } catch (e) {
    throw committing ? e : markUntouched(e)
  } finally {
    if (tookEngine) await releaseEngine(store)
  }
}
