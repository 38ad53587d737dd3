import { promises as fs, lstatSync, readdirSync, readFileSync, readlinkSync, statSync } from 'node:fs'
import { hostname } from 'node:os'
import { readRegularFileSync } from './read-regular.ts'

/**
 * Who holds a lock (the owner record `<lock>.owner` beside the lock folder) and whether that
 * process still runs: pid, start time and pid namespace (durable/lock.ts says why each matters).
 */
export interface LockOwner {
  pid: number
  host: string
  at: string
  purpose: string
  /** inode of the lock folder this record belongs to */
  ino?: number
  /** random per acquisition: tells this holding from any other with the same pid */
  token?: string
  /** the owner's process start time (Linux, clock ticks after boot) */
  start?: number
  /** the owner's pid namespace (Linux): containers with one hostname still have pids of their own */
  pidns?: string
}

export function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/** State letter and start time of a process from /proc (Linux); undefined where there is no /proc. */
function procStat(pid: number): { state: string; start: number } | undefined {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return undefined
  }
  // Field 2, the command name in parentheses, may itself hold spaces and ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  const start = Number(fields[19]) // fields[0] is field 3 (state); field 22 is starttime
  return fields[0] !== undefined && Number.isSafeInteger(start) ? { state: fields[0], start } : undefined
}

/** Stopped by a signal (SIGSTOP, Ctrl-Z: state T or t); false where /proc cannot tell. */
export function processStopped(pid: number): boolean {
  const state = procStat(pid)?.state
  return state === 'T' || state === 't'
}

/** When a process started (Linux: clock ticks after boot); undefined where this cannot be read. */
function processStart(pid: number): number | undefined {
  return procStat(pid)?.start
}

export const OWN_START = processStart(process.pid)
export const OWN_PIDNS = ((): string | undefined => {
  try {
    return readlinkSync('/proc/self/ns/pid')
  } catch {
    return undefined
  }
})()

/** Can this process check the pids of a record written with this host and pid namespace? */
export function sameHost(host: unknown, pidns: unknown): boolean {
  if (host !== hostname()) return false
  return typeof pidns !== 'string' || OWN_PIDNS === undefined || pidns === OWN_PIDNS
}

/**
 * Is the process that wrote a record (pid + start time) still running on this
 * host? A stopped process is running; a zombie or a reused pid is not.
 */
export function processAlive(pid: number, start: number | undefined): boolean {
  if (!pidAlive(pid)) return false
  const now = procStat(pid)
  if (now === undefined) return true // no /proc (or it just exited): the pid answered, so trust it
  if (now.state === 'Z' || now.state === 'X') return false
  return start === undefined || now.start === start
}

/** The user a process creates files as (the fourth of `Uid:` in /proc/<pid>/status, readable for every process); undefined where it cannot be read. */
function fileUid(pid: number): number | undefined {
  try {
    const line = /^Uid:\s+\d+\s+\d+\s+\d+\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return line === null ? undefined : Number(line[1])
  } catch {
    return undefined
  }
}

/**
 * Whether process `pid` wrote `file` and holds it open, as a lock's holder holds its owner record and intent
 * (decision 326) and a host its window's mark (decision 318), all in `元/` where a tool call can write too. A
 * record a call forged for a live process it did not start (pid 1, DSH's own pid) is a file that process never
 * opened. Only a regular file with one name (a hard link to a file the process does hold open is not its record),
 * owned by the user the process creates files as. Where this cannot be read (no /proc, another user's process
 * whose open files are hidden) the record is believed: an error here must keep a lock, never take it.
 */
export function holdsOpen(pid: number, file: string): boolean {
  let record: { dev: number; ino: number; uid: number; nlink: number; isFile: () => boolean }
  try {
    record = lstatSync(file)
  } catch {
    return true
  }
  const uid = fileUid(pid)
  if (uid === undefined) return true
  if (!record.isFile() || record.nlink !== 1 || uid !== record.uid) return false
  let fds: string[]
  try {
    fds = readdirSync(`/proc/${pid}/fd`)
  } catch {
    return true
  }
  return fds.some((fd) => {
    try {
      const path = `/proc/${pid}/fd/${fd}`
      // Only files: a socket or a pipe says nothing of the record.
      if (!readlinkSync(path).startsWith('/')) return false
      const st = statSync(path)
      return st.dev === record.dev && st.ino === record.ino
    } catch {
      return false
    }
  })
}

/**
 * Is a record of this host (a lock's owner, an intent) its live process's? The process runs (same start time)
 * and holds the record open (`holdsOpen`), or the record was renewed within `staleMs` (`renewedMs`: the lock
 * folder's mtime, which a holder refreshes; an intent's own): a holder of a version before decision 326 does not
 * hold its record, and keeps it fresh instead. A time in the future counts as old: a forger can set one.
 */
export function holderLive(pid: number, start: number | undefined, record: string, renewedMs: number, staleMs: number): boolean {
  if (!processAlive(pid, start)) return false
  if (Math.abs(Date.now() - renewedMs) <= staleMs) return true
  return holdsOpen(pid, record)
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const v = JSON.parse(text) as LockOwner
    return typeof v.pid === 'number' && typeof v.host === 'string' ? v : undefined
  } catch {
    return undefined
  }
}

/** The longest a lock record or a guard window's mark is (a few hundred bytes): anything larger is not one. */
const RECORD_MAX = 64 * 1024
/**
 * A small record in a folder a tool call may write to (`元/`: a lock's owner, a guard window's mark):
 * read only when it is a regular file of at most 64 KiB, so that nothing planted under its name can
 * stop the reading thread (a FIFO waits for a writer) or fill its memory (a link to /dev/zero).
 */
export function readRecordSync(file: string): string {
  return readRegularFileSync(file, false, RECORD_MAX).toString('utf8')
}

export function readOwnerSync(lockPath: string): LockOwner | undefined {
  try {
    return parseOwner(readRecordSync(`${lockPath}.owner`))
  } catch {
    return undefined
  }
}

/** Alive as far as this host can tell: a holder on another host counts as alive. */
function ownerAlive(owner: LockOwner, lockPath: string, renewedMs: number): boolean {
  return !sameHost(owner.host, owner.pidns) || holderLive(owner.pid, owner.start, `${lockPath}.owner`, renewedMs, DEFAULT_STALE_MS)
}

/** A lock's stale time where its taker's is not known (the store's default). */
const DEFAULT_STALE_MS = 10_000

/** Is the lock held by a live process (as far as this host can tell)? */
export async function lockState(lockPath: string): Promise<{ held: boolean; owner?: LockOwner | undefined; alive?: boolean }> {
  let renewedMs: number
  try {
    renewedMs = (await fs.stat(lockPath)).mtimeMs
  } catch {
    return { held: false }
  }
  // A few hundred bytes, read without waiting whatever was planted under its name.
  const owner = readOwnerSync(lockPath)
  return { held: true, owner, alive: owner === undefined ? undefined : ownerAlive(owner, lockPath, renewedMs) }
}

/** "process 12 on host (write, since …)", plus "which is alive — paused or still working" when it is known to be. */
export function describeHolder(owner: LockOwner | undefined, alive?: boolean): string {
  if (owner === undefined) return 'another process'
  const who = `process ${owner.pid} on ${owner.host} (${owner.purpose}, since ${owner.at})`
  return alive === true ? `${who}, which is alive — paused or still working` : who
}
