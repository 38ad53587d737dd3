import { promises as fs, mkdirSync, readdirSync, readFileSync, rmdirSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import lockfile from 'proper-lockfile'
import { FILE_MODE } from './fsio.ts'

/**
 * Cross-process locks: proper-lockfile's mkdir lock (kept fresh by its holder)
 * plus an owner record beside it, `<lock>.owner` = {pid, host, at, purpose, ino}.
 *
 * Removing somebody else's lock is the dangerous part of any file lock: two
 * waiters that both decide a lock is abandoned can each remove it, and the
 * second removes the first one's fresh lock. So removal happens in one place
 * only, `reclaim`, which
 *  * runs under a guard folder `<lock>.reaping` (one reclaimer at a time),
 *  * is fully synchronous (the guard is held for microseconds, so a process
 *    killed at a random moment almost never leaves it behind),
 *  * removes a lock when its owner record names a dead process on this host
 *    and belongs to this very lock folder (same inode); when it has no record
 *    and no live process has an intent file `<lock>.intent.<pid>` (written
 *    around the moments between taking/releasing the lock and writing/removing
 *    the record, so "no record" then means its holder died in that gap); or
 *    when the holder has not refreshed it for `staleMs` (dead on another host),
 *  * re-checks the folder is unchanged (inode + mtime), then removes the owner
 *    record and the folder.
 * proper-lockfile's own stale removal (which has no such guard) is switched
 * off by giving it a stale time it never reaches.
 */
export interface LockOwner { pid: number; host: string; at: string; purpose: string; /** inode of the lock folder this record belongs to */ ino?: number }

export interface LockOptions {
  /** Lock folder path (e.g. <root>/元/write.lock). */
  path: string
  purpose: string
  /** How long a holder may go without refreshing before others treat the lock as abandoned (min 2000). */
  staleMs?: number
  /** Give up after this long (0: try once). */
  waitMs?: number
}

export class LockBusyError extends Error {
  readonly owner: LockOwner | undefined
  constructor(message: string, owner: LockOwner | undefined) {
    super(message)
    this.owner = owner
    this.name = 'LockBusyError'
  }
}

export interface HeldLock {
  release: () => Promise<void>
  /** True once proper-lockfile found the lock taken from under us. */
  compromised: () => boolean
  /** Throws (synchronously) unless this process still owns the lock; called right before every rename. */
  assertOwned: () => void
}

/** proper-lockfile never reaches this, so it never removes a lock by itself. */
const NEVER_STALE_MS = 100 * 365 * 86_400_000
const GUARD_STALE_MS = 2000

export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try { process.kill(pid, 0); return true } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM' }
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const v = JSON.parse(text) as LockOwner
    return typeof v.pid === 'number' && typeof v.host === 'string' ? v : undefined
  } catch { return undefined }
}

function readOwnerSync(lockPath: string): LockOwner | undefined {
  try { return parseOwner(readFileSync(`${lockPath}.owner`, 'utf8')) } catch { return undefined }
}

export async function readOwner(lockPath: string): Promise<LockOwner | undefined> {
  try { return parseOwner(await fs.readFile(`${lockPath}.owner`, 'utf8')) } catch { return undefined }
}

/** Is the lock held by a live process (as far as this host can tell)? */
export async function lockState(lockPath: string): Promise<{ held: boolean; owner?: LockOwner | undefined; alive?: boolean }> {
  try { await fs.stat(lockPath) } catch { return { held: false } }
  const owner = await readOwner(lockPath)
  const alive = owner === undefined ? undefined : owner.host !== hostname() ? true : pidAlive(owner.pid)
  return { held: true, owner, alive }
}

function intentPath(lockPath: string, pid: number = process.pid): string { return `${lockPath}.intent.${pid}` }

/**
 * Is some live process between "about to take or release the lock" and "owner
 * record written or removed"? Its intent file says so. Dead processes' intent
 * files are cleared on the way.
 */
function liveIntent(lockPath: string): boolean {
  const dir = dirname(lockPath)
  const prefix = `${basename(lockPath)}.intent.`
  let names: string[] = []
  try { names = readdirSync(dir) } catch { return false }
  let live = false
  for (const n of names) {
    if (!n.startsWith(prefix)) continue
    const pid = Number(n.slice(prefix.length))
    if (pid === process.pid) continue
    if (pidAlive(pid)) live = true
    else { try { unlinkSync(join(dir, n)) } catch { /* gone */ } }
  }
  return live
}

/** Remove an abandoned lock (see the module comment). True if the lock is gone. Synchronous on purpose. */
export function reclaim(lockPath: string, staleMs: number): boolean {
  const guard = `${lockPath}.reaping`
  try { mkdirSync(guard) } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return false
    // A reclaimer killed inside its few microseconds leaves the guard behind.
    try { if (Date.now() - statSync(guard).mtimeMs > GUARD_STALE_MS) rmdirSync(guard) } catch { /* gone already */ }
    return false
  }
  try {
    let st: import('node:fs').Stats
    try { st = statSync(lockPath) } catch { return true }
    // Intents first, then the record: a live holder writes its record before
    // it drops its intent, so this order never sees "no intent and no record" for it.
    const someoneMidway = liveIntent(lockPath)
    const owner = readOwnerSync(lockPath)
    const dead = owner !== undefined && owner.host === hostname() && owner.pid !== process.pid && owner.ino === st.ino && !pidAlive(owner.pid)
    const orphan = owner === undefined && !someoneMidway
    const stale = Date.now() - st.mtimeMs > staleMs
    if (!dead && !orphan && !stale) return false
    let again: import('node:fs').Stats
    try { again = statSync(lockPath) } catch { return true }
    if (again.ino !== st.ino || again.mtimeMs !== st.mtimeMs) return false
    if (owner !== undefined) { try { unlinkSync(`${lockPath}.owner`) } catch { /* gone */ } }
    try { rmdirSync(lockPath) } catch { return false }
    return true
  } finally {
    try { rmdirSync(guard) } catch { /* someone judged it stale */ }
  }
}

export async function acquire(opts: LockOptions): Promise<HeldLock> {
  const staleMs = Math.max(opts.staleMs ?? 10_000, 2000)
  // Refresh well within the stale time (proper-lockfile's minimum refresh is 1 s).
  const update = Math.max(1000, Math.min(5000, Math.floor(staleMs / 2)))
  const deadline = Date.now() + (opts.waitMs ?? 30_000)
  let compromised = false
  let delay = 2
  for (;;) {
    // Synchronous on purpose: intent, lock, owner record, intent removed — back
    // to back with no event-loop turn in between (see the module comment).
    const intent = intentPath(opts.path)
    writeFileSync(intent, '', { mode: FILE_MODE })
    try {
      const release = lockfile.lockSync(opts.path, {
        lockfilePath: opts.path,
        realpath: false,
        stale: NEVER_STALE_MS,
        update,
        onCompromised: () => { compromised = true },
      })
      try {
        const ino = statSync(opts.path).ino
        const owner: LockOwner = { pid: process.pid, host: hostname(), at: new Date().toISOString(), purpose: opts.purpose, ino }
        writeFileSync(`${opts.path}.owner`, JSON.stringify(owner), { mode: FILE_MODE })
      } catch (e) {
        try { release() } catch { /* already gone */ }
        throw e
      } finally {
        try { unlinkSync(intent) } catch { /* gone */ }
      }
      let released = false
      return {
        compromised: () => compromised,
        assertOwned: () => {
          if (released || compromised) throw new Error(`the lock ${opts.path} is no longer held by this process`)
        },
        release: async () => {
          if (released) return
          released = true
          writeFileSync(intent, '', { mode: FILE_MODE })
          try { unlinkSync(`${opts.path}.owner`) } catch { /* already gone */ }
          try { release() } catch { /* compromised or already removed */ }
          try { unlinkSync(intent) } catch { /* gone */ }
        },
      }
    } catch (e) {
      try { unlinkSync(intent) } catch { /* gone */ }
      if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e
      if (reclaim(opts.path, staleMs)) continue
      if (Date.now() >= deadline) {
        const owner = await readOwner(opts.path)
        const who = owner === undefined ? 'another process' : `process ${owner.pid} on ${owner.host} (${owner.purpose}, since ${owner.at})`
        throw new LockBusyError(`the memory store is busy: ${opts.path} is held by ${who}. Try again in a moment; if that process is gone, the lock frees itself within ${Math.round(staleMs / 1000)} s.`, owner)
      }
      await sleep(delay + Math.random() * delay)
      delay = Math.min(delay * 2, 50)
    }
  }
}

export async function withLock<T>(opts: LockOptions, fn: (lock: HeldLock) => Promise<T>): Promise<T> {
  const lock = await acquire(opts)
  try { return await fn(lock) } finally { await lock.release() }
}
