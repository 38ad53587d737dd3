import { promises as fs, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import lockfile from 'proper-lockfile'
import { FILE_MODE } from './fsio.ts'

/**
 * Cross-process locks: proper-lockfile (a mkdir lock kept fresh by its
 * holder) plus an owner record beside it, `<lock>.owner`, so a lock left by a
 * process that died (SIGKILL, power cut) is reclaimed as soon as its owner is
 * known dead on this host, instead of after the stale timeout.
 *
 * Reclaiming is itself guarded by a `<lock>.reaping` folder so two waiters
 * never both remove a lock; the owner record is removed before the lock, and
 * carries the lock folder's inode, so a fresh holder is never mistaken for a
 * dead one whose record was left behind.
 */
export interface LockOwner { pid: number; host: string; at: string; purpose: string; /** inode of the lock folder this record belongs to */ ino?: number }

export interface LockOptions {
  /** Lock folder path (e.g. <root>/元/write.lock). */
  path: string
  purpose: string
  /** How long a holder may go without refreshing before others treat the lock as stale (min 2000). */
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
}

export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try { process.kill(pid, 0); return true } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM' }
}

export async function readOwner(lockPath: string): Promise<LockOwner | undefined> {
  try {
    const v = JSON.parse(await fs.readFile(`${lockPath}.owner`, 'utf8')) as LockOwner
    return typeof v.pid === 'number' && typeof v.host === 'string' ? v : undefined
  } catch { return undefined }
}

/** Is the lock held by a live process (as far as this host can tell)? */
export async function lockState(lockPath: string): Promise<{ held: boolean; owner?: LockOwner | undefined; alive?: boolean }> {
  try { await fs.stat(lockPath) } catch { return { held: false } }
  const owner = await readOwner(lockPath)
  const alive = owner === undefined ? undefined : owner.host !== hostname() ? true : pidAlive(owner.pid)
  return { held: true, owner, alive }
}

async function tryReapDead(lockPath: string): Promise<boolean> {
  const guard = `${lockPath}.reaping`
  try { await fs.mkdir(guard) } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') return false
    // A reaper that died mid-way leaves its guard; it is only ever held for a few ms.
    try {
      const st = await fs.stat(guard)
      if (Date.now() - st.mtimeMs > 2000) await fs.rmdir(guard)
    } catch { /* someone else cleaned it */ }
    return false
  }
  try {
    const owner = await readOwner(lockPath)
    if (owner === undefined || owner.host !== hostname() || owner.pid === process.pid || pidAlive(owner.pid)) return false
    // The record must belong to the lock folder that is there now, not to an
    // earlier one removed as stale (then the current holder has not written its record yet).
    const st = await fs.stat(lockPath).catch(() => undefined)
    if (st === undefined || owner.ino === undefined || st.ino !== owner.ino) return false
    await fs.unlink(`${lockPath}.owner`).catch(() => undefined)
    await fs.rmdir(lockPath).catch(() => undefined)
    return true
  } finally {
    await fs.rmdir(guard).catch(() => undefined)
  }
}

export async function acquire(opts: LockOptions): Promise<HeldLock> {
  const stale = Math.max(opts.staleMs ?? 10_000, 2000)
  const deadline = Date.now() + (opts.waitMs ?? 30_000)
  let compromised = false
  let delay = 2
  for (;;) {
    try {
      // Synchronous on purpose: taking the lock and writing its owner record
      // happen back to back, with no event-loop turn in between, so a process
      // killed at a random moment almost never leaves a lock without an owner
      // (which would make the next writer wait for the stale timeout).
      const release = lockfile.lockSync(opts.path, {
        lockfilePath: opts.path,
        realpath: false,
        stale,
        onCompromised: () => { compromised = true },
      })
      try {
        const ino = statSync(opts.path).ino
        const owner: LockOwner = { pid: process.pid, host: hostname(), at: new Date().toISOString(), purpose: opts.purpose, ino }
        writeFileSync(`${opts.path}.owner`, JSON.stringify(owner), { mode: FILE_MODE })
      } catch (e) {
        try { release() } catch { /* already gone */ }
        throw e
      }
      let released = false
      return {
        compromised: () => compromised,
        release: async () => {
          if (released) return
          released = true
          try { unlinkSync(`${opts.path}.owner`) } catch { /* already gone */ }
          try { release() } catch { /* compromised or already removed */ }
        },
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ELOCKED') throw e
      if (await tryReapDead(opts.path)) continue
      if (Date.now() >= deadline) {
        const owner = await readOwner(opts.path)
        const who = owner === undefined ? 'another process' : `process ${owner.pid} on ${owner.host} (${owner.purpose}, since ${owner.at})`
        throw new LockBusyError(`the memory store is busy: ${opts.path} is held by ${who}. Try again in a moment; if that process is gone, the lock frees itself within ${Math.round(stale / 1000)} s.`, owner)
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
