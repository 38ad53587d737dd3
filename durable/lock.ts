import {
  closeSync,
  constants as C,
  fchmodSync,
  lstatSync,
  rmSync,
  openSync,
  writeSync,
  mkdirSync,
  readdirSync,
  rmdirSync,
  statSync,
  unlinkSync,
  utimesSync,
  type Stats,
} from 'node:fs'
import { randomBytes } from 'node:crypto'
import { basename, dirname, join } from 'node:path'
import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { DIR_MODE, FILE_MODE } from './modes.ts'
import { describeHolder, holderLive, OWN_PIDNS, OWN_START, readOwnerSync, readRecordSync, sameHost, type LockOwner } from './lock-owner.ts'

export { describeHolder, holdsOpen, lockState, pidAlive, processStopped, type LockOwner } from './lock-owner.ts'

/**
 * Cross-process locks. A lock is a folder made with mkdir (exactly one process
 * can make it), kept fresh by its holder (utimes every min(5 s, stale/2)), with
 * an owner record beside it, `<lock>.owner` = {pid, host, at, purpose, ino,
 * token, start, pidns}: `ino` is the lock folder's inode (a record of an older
 * folder is never trusted), `token` is random per acquisition, and `start` is
 * the owner's process start time (Linux: field 22 of /proc/<pid>/stat; left
 * out elsewhere), so a pid the system has handed to a new process is not
 * mistaken for the owner. "This host" means the same hostname and (Linux) the
 * same pid namespace (`pidns`): only there can a pid be checked.
 *
 * Ownership is read from the disk, synchronously, every time it matters:
 * before every rename of a write (`assertOwned`), before every refresh, and
 * before release removes anything. A holder whose lock is no longer its own
 * abandons its write and touches nothing of the new holder's.
 *
 * A lock is taken from its owner only when the owner is gone:
 *  * owner on this host: never while its process is alive and holds its record
 *    open — a process that is paused (SIGSTOP, Ctrl-Z, a debugger) or just slow
 *    holds it, however old the lock; at once when it is dead, a zombie, or its
 *    pid now belongs to a process with another start time. A holder keeps its
 *    record (and its intent) open for as long as it exists: a record a tool call
 *    forged in 元/ naming a live process (pid 1, DSH's own) is a file that
 *    process never opened, taken over once the lock was not refreshed for
 *    `staleMs` (a holder of an earlier version, which does not hold its record,
 *    refreshes; decision 326);
 *  * owner on another host (its process cannot be checked from here): when it
 *    has not refreshed the lock for `staleMs`;
 *  * no record: its holder died between mkdir and writing the record, or while
 *    releasing — at once, when no live process has an intent file
 *    `<lock>.intent.<pid>` (kept, with host and start time, around those two
 *    gaps, so a live process inside a gap is never mistaken for a dead one);
 *  * a record of another folder (not expected to happen): after `staleMs`,
 *    when no live process has an intent file.
 * Removal happens in one place only, `reclaim`: under a guard folder
 * `<lock>.reaping` (one reclaimer at a time), synchronously (the guard is
 * held for microseconds, so a process killed at a random moment almost never
 * leaves it behind), re-checking the folder (inode + mtime) right before it
 * removes the record and then the folder.
 *
 * This file used proper-lockfile before. It was replaced because its release
 * and its exit handler remove the lock folder by path, without asking whose
 * it is by then, and its refresh touches whatever folder is at that path —
 * after a takeover that is the new holder's lock. Its stale removal has no
 * guard and was already switched off, so all it still did was one mkdir and
 * a timer; the lines below do that and check ownership each time.
 */

export interface LockOptions {
  /** Lock folder path (e.g. <root>/元/write.lock). */
  path: string
  purpose: string
  /** How long a holder on another host may go without refreshing before others treat the lock as abandoned (min 2000). */
  staleMs?: number
  /** Give up after this long (0: try once). */
  waitMs?: number
}

/**
 * This process no longer holds the lock (a holder judged it gone and took
 * it): the write it was about to make is abandoned. `code` is 'lock-lost';
 * the memory store hands it on as its own refusal (exit 2 on the command line).
 */
export class LockLostError extends Error {
  readonly code = 'lock-lost'
  /** The lock this process lost, for a caller that words the refusal itself. */
  readonly path: string | undefined
  constructor(message: string, path?: string) {
    super(message)
    this.path = path
    this.name = 'LockLostError'
  }

  /** What a person's catalogue words (decision 086): the chat commands and the command line read it. */
  get said(): { code: string; params: Record<string, string> } | undefined {
    return this.path === undefined ? undefined : { code: 'refused.lock-lost', params: { lock: this.path } }
  }
}

export class LockBusyError extends Error {
  readonly owner: LockOwner | undefined
  /** true: the holder is a live process on this host (paused or still working) */
  readonly alive: boolean | undefined
  /** The lock that is held, for a caller that words the refusal itself. */
  readonly path: string | undefined
  constructor(message: string, owner: LockOwner | undefined, alive?: boolean, path?: string) {
    super(message)
    this.owner = owner
    this.alive = alive
    this.path = path
    this.name = 'LockBusyError'
  }

  /** What a person's catalogue words (decision 086); the engine lock's refusal has its own code. */
  get said(): { code: string; params: Record<string, string> } | undefined {
    if (this.path === undefined) return undefined
    if (this.shape !== undefined) return { code: `refused.lock-${this.shape}`, params: { lock: this.path } }
    // No holder ever wrote its record, and a live process's intent file keeps the folder: say which files to remove.
    if (this.owner === undefined && this.name !== 'EngineBusyError' && this.intents.length > 0)
      return { code: 'refused.busy-unowned', params: { lock: this.path, intents: this.intents.join(' ') } }
    return { code: this.name === 'EngineBusyError' ? 'refused.engine-busy' : 'refused.busy', params: { lock: this.path, pid: String(this.owner?.pid ?? '?') } }
  }

  /** The intent files beside a lock that has no owner record (what keeps it from being cleared). */
  intents: string[] = []
  /** Set when a link or a file stands where the lock's folder goes: nobody holds it. */
  shape: 'link' | 'file' | undefined
}

export interface HeldLock {
  release: () => Promise<void>
  /** True once this process found the lock is no longer its own. */
  compromised: () => boolean
  /** Throws a LockLostError ('lock-lost'), synchronously, unless the disk says this process still owns the lock; called right before every rename. */
  assertOwned: () => void
}

const GUARD_STALE_MS = 2000

function intentPath(lockPath: string, pid: number = process.pid): string {
  return `${lockPath}.intent.${pid}`
}

/**
 * A small record only this user may read, whatever the umask: the mode given
 * to open() is masked by it (0777 would leave a file nobody can read, and the
 * holder could then not recognise its own record), fchmod is not. Returns it
 * open: a holder holds its record open while the record stands, which is what
 * tells it from a forged one (decision 326). The caller closes it after
 * removing the file, never before.
 */
function writePrivateSync(path: string, text: string): number {
  const fd = openRegularForWrite(path)
  try {
    fchmodSync(fd, FILE_MODE)
    writeAllSync(fd, Buffer.from(text, 'utf8'), path)
    return fd
  } catch (e) {
    closeSync(fd)
    throw e
  }
}

function closeQuietly(fd: number | undefined): void {
  if (fd === undefined) return
  try {
    closeSync(fd)
  } catch {
    /* already closed */
  }
}

/** Every byte into `fd`: a write may take fewer than offered (a disk filling up), one that takes none is an error. */
export function writeAllSync(fd: number, bytes: Uint8Array, path: string): void {
  for (let done = 0; done < bytes.length;) {
    let n: number
    try {
      n = writeSync(fd, bytes, done, bytes.length - done)
    } catch (e) {
      // A write names no path (ENOSPC, EDQUOT, EIO on an fd): the refusal must say which file, and so which disk.
      const err = e as NodeJS.ErrnoException
      if (err.path === undefined) err.path = path
      throw err
    }
    if (n <= 0) throw Object.assign(new Error(`the file system took no bytes writing ${path}`), { code: 'EIO', path })
    done += n
  }
}

/**
 * A record of this process's, opened to be written whole. Whatever is under its name goes first and the record
 * is made anew, never written into a file that is there: 元/ is where a model's process can write, and lock-shaped
 * names there are left to their holders, so the name may be a second name of a memory (a hard link a tool call
 * made, which a truncating open would have emptied and overwritten, outside any window when the person writes), a
 * FIFO that would stop this thread, a link or a folder. The name is this process's to write (it holds the lock, or
 * it is its own intent). Something made under the name again between the removal and the create is refused.
 */
function openRegularForWrite(path: string): number {
  const flags = C.O_WRONLY | C.O_CREAT | C.O_EXCL | (C.O_NOFOLLOW ?? 0) | (C.O_NONBLOCK ?? 0)
  for (let attempt = 1; ; attempt++) {
    rmSync(path, { recursive: true, force: true })
    try {
      return openSync(path, flags, FILE_MODE)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || attempt === 3) throw e
    }
  }
}

interface Intent {
  path: string
  /** Held open while the file stands (decision 326); undefined when only a torn file could be made. */
  fd: number | undefined
}

/**
 * Writes this process's intent file. On a full disk the file is usually still
 * created, empty or torn: readers then judge it by its pid alone, which is
 * enough. Throws only when not even that worked.
 */
function writeIntent(lockPath: string): Intent {
  const p = intentPath(lockPath)
  try {
    return { path: p, fd: writePrivateSync(p, JSON.stringify({ host: hostname(), start: OWN_START, pidns: OWN_PIDNS })) }
  } catch (e) {
    try {
      statSync(p)
    } catch {
      throw e
    }
  }
  return { path: p, fd: undefined }
}

/** Removes an intent, then lets go of it: at no moment does it stand unheld. */
function dropIntent(intent: Intent): void {
  try {
    unlinkSync(intent.path)
  } catch {
    /* gone */
  }
  closeQuietly(intent.fd)
}

/**
 * Is some live process between "about to take or release the lock" and "owner
 * record written or removed"? Its intent file says so. Intents of dead
 * processes on this host, and stale ones of other hosts, are cleared on the way.
 */
function liveIntent(lockPath: string, staleMs: number): boolean {
  const prefix = `${basename(lockPath)}.intent.`
  let live = false
  for (const file of intentFiles(lockPath)) {
    const pid = Number(basename(file).slice(prefix.length))
    // Our own intents exist only inside synchronous calls, never while we reclaim.
    if (pid === process.pid) continue
    let info: { host?: unknown; start?: unknown; pidns?: unknown } = {}
    let mtimeMs = 0
    try {
      mtimeMs = lstatSync(file).mtimeMs
      // A lock-shaped name in 元/ is left to its holder by the guard: a call's process can put a FIFO there.
      info = JSON.parse(readRecordSync(file)) as typeof info
    } catch {
      /* just created (empty) or gone: judged by its pid below */
    }
    const foreign = typeof info.host === 'string' && !sameHost(info.host, info.pidns)
    const alive = foreign ? Date.now() - mtimeMs <= staleMs : holderLive(pid, typeof info.start === 'number' ? info.start : undefined, file, mtimeMs, staleMs)
    if (alive) live = true
    else {
      try {
        unlinkSync(file)
      } catch {
        /* gone */
      }
    }
  }
  return live
}

/** May this lock be taken from its owner (see the module comment)? */
function abandoned(lockPath: string, st: Stats, owner: LockOwner | undefined, someoneMidway: boolean, staleMs: number): boolean {
  const stale = Date.now() - st.mtimeMs > staleMs
  if (owner === undefined) return !someoneMidway
  if (owner.ino !== st.ino) return !someoneMidway && stale
  if (!sameHost(owner.host, owner.pidns)) return stale
  return !holderLive(owner.pid, owner.start, `${lockPath}.owner`, st.mtimeMs, staleMs)
}

/** Remove an abandoned lock (see the module comment). True if the lock is gone. Synchronous on purpose. */
export function reclaim(lockPath: string, staleMs: number): boolean {
  const guard = `${lockPath}.reaping`
  try {
    mkdirSync(guard)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return false
    // A reclaimer killed inside its few microseconds leaves the guard behind.
    try {
      if (Date.now() - statSync(guard).mtimeMs > GUARD_STALE_MS) rmdirSync(guard)
    } catch {
      /* gone already */
    }
    return false
  }
  try {
    let st: Stats
    try {
      st = statSync(lockPath)
    } catch {
      return true
    }
    // Intents first, then the record: a live holder writes its record before
    // it drops its intent, so this order never sees "no intent and no record" for it.
    const someoneMidway = liveIntent(lockPath, staleMs)
    const owner = readOwnerSync(lockPath)
    if (!abandoned(lockPath, st, owner, someoneMidway, staleMs)) return false
    let again: Stats
    try {
      again = statSync(lockPath)
    } catch {
      return true
    }
    if (again.ino !== st.ino || again.mtimeMs !== st.mtimeMs) return false
    // The folder is unchanged and its holder gone, so a record beside it (even a torn one) is that holder's.
    return removeRecordAndFolder(lockPath)
  } finally {
    try {
      rmdirSync(guard)
    } catch {
      /* someone judged it stale */
    }
  }
}

/**
 * Removes a lock's owner record, then its folder — in that order, so no moment
 * shows a folder-less record as the lock. Callers have made sure both are
 * theirs to remove. True when the folder is gone.
 */
function removeRecordAndFolder(lockPath: string): boolean {
  try {
    unlinkSync(`${lockPath}.owner`)
  } catch {
    /* none, or not written */
  }
  try {
    rmdirSync(lockPath)
    return true
  } catch {
    return false
  }
}

/** Locks this process holds, released (if still ours) when it exits; one set per process, whatever the module copies. */
const HELD = Symbol.for('dsh-cyrene-philia093-0.held-locks')
function heldLocks(): Set<Holding> {
  const g = globalThis as { [HELD]?: Set<Holding> }
  let set = g[HELD]
  if (set === undefined) {
    const created = new Set<Holding>()
    process.on('exit', () => {
      for (const l of created) l.releaseSync()
    })
    g[HELD] = set = created
  }
  return set
}

/** One holding of a lock by this process. */
class Holding implements HeldLock {
  private readonly path: string
  private readonly owner: LockOwner
  private readonly timer: NodeJS.Timeout
  private released = false
  private lost = false
  /** The owner record, held open while it stands: the proof a waiter reads that this holder is the lock's (decision 326). */
  private recordFd: number | undefined

  constructor(path: string, owner: LockOwner, staleMs: number, recordFd: number) {
    this.path = path
    this.owner = owner
    this.recordFd = recordFd
    this.timer = setInterval(() => this.refresh(), Math.max(1000, Math.min(5000, Math.floor(staleMs / 2))))
    this.timer.unref()
    heldLocks().add(this)
  }

  /** Why the lock is not ours any more, or undefined while it is. Reads the disk, synchronously. */
  private notOursBecause(): string | undefined {
    if (this.released) return 'it was already released'
    let st: Stats
    try {
      st = statSync(this.path)
    } catch {
      return 'the lock folder is gone'
    }
    const rec = readOwnerSync(this.path)
    if (st.ino !== this.owner.ino) return `the lock was taken over by ${describeHolder(rec)}`
    if (rec === undefined || rec.token !== this.owner.token || rec.pid !== this.owner.pid || rec.host !== this.owner.host) {
      return `its owner record now names ${describeHolder(rec)}`
    }
    return undefined
  }

  compromised = (): boolean => this.lost

  /** The record is another holder's by now, or removed: nothing of this holding's to prove. */
  private letGoOfRecord(): void {
    closeQuietly(this.recordFd)
    this.recordFd = undefined
  }

  assertOwned = (): void => {
    const why = this.notOursBecause()
    if (why === undefined) return
    this.lost = true
    this.letGoOfRecord()
    throw new LockLostError(
      `the write was abandoned and nothing was written: this process no longer holds the lock ${this.path} (${why}). Try again.`,
      this.path,
    )
  }

  /** Keeps the folder's mtime fresh for waiters on other hosts; stops, touching nothing, once the lock is not ours. */
  private refresh(): void {
    if (this.notOursBecause() !== undefined) {
      this.lost = true
      this.letGoOfRecord()
      clearInterval(this.timer)
      return
    }
    const now = new Date()
    try {
      utimesSync(this.path, now, now)
    } catch {
      this.lost = true
      clearInterval(this.timer)
    }
  }

  /** Removes the record and the folder only if both are still ours; otherwise leaves the new holder's alone. */
  releaseSync(): void {
    if (this.released) return
    clearInterval(this.timer)
    heldLocks().delete(this)
    const mine = this.notOursBecause() === undefined
    this.released = true
    if (!mine) {
      this.lost = true
      this.letGoOfRecord()
      return
    }
    // Synchronous and back to back, inside an intent (the record-less gap).
    let intent: Intent | undefined
    try {
      intent = writeIntent(this.path)
    } catch {
      // Not even an empty file can be made. Release anyway: a lock left behind
      // by a live process would block every writer for as long as it lives.
    }
    try {
      removeRecordAndFolder(this.path)
    } finally {
      // Closed once removed: a record that stands is never unheld.
      this.letGoOfRecord()
      if (intent !== undefined) dropIntent(intent)
    }
  }

  release = async (): Promise<void> => {
    this.releaseSync()
  }
}

/**
 * One try: intent, mkdir, owner record, intent removed — synchronous and back
 * to back, with no event-loop turn in between. Undefined when the lock exists.
 */
function tryTake(path: string, purpose: string, staleMs: number): Holding | undefined {
  const intent = writeIntent(path)
  try {
    try {
      mkdirSync(path, { mode: DIR_MODE })
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EEXIST') return undefined
      throw e
    }
    try {
      const owner: LockOwner = {
        pid: process.pid,
        host: hostname(),
        at: new Date().toISOString(),
        purpose,
        ino: statSync(path).ino,
        token: randomBytes(12).toString('hex'),
        ...(OWN_START === undefined ? {} : { start: OWN_START }),
        ...(OWN_PIDNS === undefined ? {} : { pidns: OWN_PIDNS }),
      }
      return new Holding(path, owner, staleMs, writePrivateSync(`${path}.owner`, JSON.stringify(owner)))
    } catch (e) {
      // The folder is ours (nobody takes a live owner's lock): undo, leave no trace.
      removeRecordAndFolder(path)
      throw e
    }
  } finally {
    dropIntent(intent)
  }
}

/** What stands where a lock's folder goes when it is not a folder (a link, even to one, or a file); undefined for a folder or nothing. */
export function lockShape(path: string): 'link' | 'file' | undefined {
  try {
    const st = lstatSync(path)
    return st.isSymbolicLink() ? 'link' : st.isDirectory() ? undefined : 'file'
  } catch {
    return undefined
  }
}

function shapeError(path: string, shape: 'link' | 'file'): LockBusyError {
  const error = new LockBusyError(
    `busy: the lock ${path} is a ${shape}, not a lock folder, so no process holds it and it never frees itself. If no cyrene command and no DSH is writing to this store, remove it (rm '${path}'), then try again.`,
    undefined,
    undefined,
    path,
  )
  error.shape = shape
  return error
}

/** When the lock folder was last refreshed; 0 when it is gone (a holder judged by its open record alone). */
function renewedAt(path: string): number {
  try {
    return statSync(path).mtimeMs
  } catch {
    return 0
  }
}

/** What a waiter that gives up says, naming the holder. */
function busyError(path: string, staleMs: number): LockBusyError {
  const owner = readOwnerSync(path)
  const local = owner !== undefined && sameHost(owner.host, owner.pidns)
  const alive = owner === undefined ? undefined : local ? holderLive(owner.pid, owner.start, `${path}.owner`, renewedAt(path), staleMs) : undefined
  const intents = owner === undefined ? intentFiles(path) : []
  const advice =
    owner === undefined
      ? intents.length > 0
        ? `No holder has written its record in it, and ${intents.join(', ')} keeps it: a real one lasts a moment only. If no cyrene command and no DSH is writing to this store, remove the folder and those files (rm -r '${path}' ${intents.map((f) => `'${f}'`).join(' ')}), then try again.`
        : 'Try again in a moment.'
      : local && alive === true
        ? `A lock is never taken from a live process: wait for it to finish, or, if it was stopped (Ctrl-Z, SIGSTOP), resume it (\`fg\`, \`kill -CONT ${owner.pid}\`) or end it.`
        : local
          ? 'That process is gone; its lock is being cleared — try again in a moment.'
          : `If that process is gone, the lock frees itself ${Math.round(staleMs / 1000)} s after its last refresh.`
  const error = new LockBusyError(`busy: the lock ${path} is held by ${describeHolder(owner, alive)}. ${advice}`, owner, alive, path)
  error.intents = intents
  return error
}

/** The intent files beside `lockPath`, as paths; none when its folder cannot be listed. */
function intentFiles(lockPath: string): string[] {
  const prefix = `${basename(lockPath)}.intent.`
  try {
    return readdirSync(dirname(lockPath))
      .filter((n) => n.startsWith(prefix))
      .map((n) => join(dirname(lockPath), n))
  } catch {
    return []
  }
}

export async function acquire(opts: LockOptions): Promise<HeldLock> {
  const staleMs = Math.max(opts.staleMs ?? 10_000, 2000)
  const deadline = Date.now() + (opts.waitMs ?? 30_000)
  let delay = 2
  for (;;) {
    const held = tryTake(opts.path, opts.purpose, staleMs)
    if (held !== undefined) return held
    // A link or a file where the lock's folder goes holds nothing and never frees itself: refused now, not after the wait.
    const shape = lockShape(opts.path)
    if (shape !== undefined) throw shapeError(opts.path, shape)
    if (reclaim(opts.path, staleMs)) continue
    if (Date.now() >= deadline) throw busyError(opts.path, staleMs)
    await sleep(delay + Math.random() * delay)
    delay = Math.min(delay * 2, 50)
  }
}

export async function withLock<T>(opts: LockOptions, fn: (lock: HeldLock) => Promise<T>): Promise<T> {
  const lock = await acquire(opts)
  try {
    return await fn(lock)
  } finally {
    await lock.release()
  }
}
