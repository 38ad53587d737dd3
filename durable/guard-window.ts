import { openSync, closeSync, writeSync, readdirSync, renameSync, unlinkSync, fchmodSync, constants as C } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { FILE_MODE } from './modes.ts'
import { LockBusyError } from './lock.ts'
import { holdsOpen, OWN_PIDNS, OWN_START, processAlive, readRecordSync, sameHost } from './lock-owner.ts'

/**
 * A store guard's window, told to other processes (docs/decisions/295). While a tool call runs in a DSH
 * host, or a process one started lives, that host's guard puts back every change to the store it did
 * not make itself: it cannot tell the person's `cyrene memory write` in another terminal from the
 * model's. So the host leaves a mark in `元/` while a window is open, and a writer in another process
 * waits while a live one is there instead of writing what would be put back.
 *
 * One mark per host process, `元/guard-window.<pid>.lock`: a lock-shaped name, which the guard leaves
 * to its holder and the snapshots, the check and git pass over. A mark whose process is gone (a host
 * killed with a window open) counts for nothing, and so does one its process does not hold open: a host
 * keeps its mark open while the window is, so a mark a tool call wrote for a process that merely lives
 * (pid 1, the person's shell) is no window (decision 318). A model that removes a mark only brings back
 * what happened without one.
 */

export interface WindowMark {
  pid: number
  host: string
  start?: number
  pidns?: string
  /** When the window opened (ISO). */
  since: string
  /** The processes that keep it open after the call returned (its own, or ones started while it ran), as the host last saw them. */
  held: HeldProcess[]
  /** The mark's file, for a message that says what to remove. */
  file: string
}

export interface HeldProcess {
  pid: number
  /** The process's name as the kernel gives it (`/proc/<pid>/comm`, at most 15 bytes). */
  comm: string
}

/** How many holding processes a mark names. */
const MAX_HELD = 5

const MARK = /^guard-window\.(\d+)\.lock$/

/** The name a process gives its mark: its own pid's. */
const markName = (pid: number): string => `guard-window.${pid}.lock`

function markFile(metaDir: string, pid = process.pid): string {
  return join(metaDir, markName(pid))
}

/** The mark this process holds open in each folder it marked: the proof that a mark is a live host's (decision 318). */
const heldOpen = new Map<string, number>()

function letGo(metaDir: string): void {
  const fd = heldOpen.get(metaDir)
  heldOpen.delete(metaDir)
  if (fd !== undefined) closeSync(fd)
}

/**
 * Leaves (or rewrites) this process's mark: a tool call's window is open here since `since`, held by
 * `held` once the call has returned. Best effort: a mark that cannot be written costs the person's
 * writer its wait, nothing else.
 */
export function markWindowOpen(metaDir: string, since = new Date().toISOString(), held: readonly HeldProcess[] = []): boolean {
  const target = markFile(metaDir)
  const temp = join(metaDir, `guard-window.${process.pid}.${randomBytes(4).toString('hex')}.lock`)
  const record = { pid: process.pid, host: hostname(), start: OWN_START, pidns: OWN_PIDNS, since, held: held.slice(0, MAX_HELD) }
  let fd: number | undefined
  try {
    fd = openSync(temp, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, FILE_MODE)
    fchmodSync(fd, FILE_MODE)
    writeSync(fd, `${JSON.stringify(record)}\n`)
    renameSync(temp, target)
    // Held open from before its rename until the next mark or the close: at no moment is the mark under its name unheld.
    letGo(metaDir)
    heldOpen.set(metaDir, fd)
    return true
  } catch {
    if (fd !== undefined) closeSync(fd)
    forget(temp)
    return false
  }
}

/** Removes this process's mark (no window open here any more). */
export function markWindowClosed(metaDir: string): void {
  forget(markFile(metaDir))
  letGo(metaDir)
}

/** The live marks of other processes on this host: windows during which a write of this process would be put back. */
export function windowsOpenElsewhere(metaDir: string): WindowMark[] {
  const open: WindowMark[] = []
  for (const name of namesIn(metaDir)) {
    const m = MARK.exec(name)
    if (m === null || Number(m[1]) === process.pid) continue
    const mark = readMark(join(metaDir, name))
    // Every process names its mark by its own pid; one that names another (guard-window.0123.lock holding the host's pid)
    // was put there by something else, and the host would never remove it: no window.
    if (mark === undefined || mark.pid === process.pid || name !== markName(mark.pid)) continue
    // A mark of another machine (a synced folder) or another pid namespace cannot be checked: its guard is not this store's on this disk.
    if (!sameHost(mark.host, mark.pidns)) continue
    if (processAlive(mark.pid, mark.start) && holdsOpen(mark.pid, mark.file)) open.push(mark)
  }
  return open
}

/** How often a writer waiting for another process's window looks again. */
const POLL_MS = 100

/**
 * Returns once no other process of this host has a window open in `metaDir`; at `began + waitMs` throws
 * GuardWindowBusyError naming the mark still there. `waiting` is told of the first mark it waits for.
 */
export async function windowsClosed(metaDir: string, o: { began: number; waitMs: number; waiting: (mark: WindowMark) => void }): Promise<void> {
  let told = false
  for (let open = windowsOpenElsewhere(metaDir); open.length > 0; open = windowsOpenElsewhere(metaDir)) {
    const waited = Date.now() - o.began
    if (waited >= o.waitMs) throw new GuardWindowBusyError(open[0]!, waited)
    if (!told) o.waiting(open[0]!)
    told = true
    await sleep(Math.min(POLL_MS, o.waitMs - waited))
  }
}

/** Removes the marks of processes that are gone (a host killed while a window was open). */
export function sweepDeadMarks(metaDir: string): void {
  for (const name of namesIn(metaDir)) {
    if (!MARK.test(name)) continue
    const mark = readMark(join(metaDir, name))
    if (mark === undefined || !sameHost(mark.host, mark.pidns)) continue
    if (name !== markName(mark.pid) || !processAlive(mark.pid, mark.start) || !holdsOpen(mark.pid, mark.file)) forget(mark.file)
  }
}

function readMark(file: string): WindowMark | undefined {
  try {
    // A model's call may leave anything under a mark's name (it is lock-shaped: never put back): a FIFO there must not stop this thread.
    const v = JSON.parse(readRecordSync(file)) as Partial<WindowMark>
    if (typeof v.pid !== 'number' || typeof v.host !== 'string') return undefined
    return { pid: v.pid, host: v.host, start: v.start, pidns: v.pidns, since: typeof v.since === 'string' ? v.since : '?', held: heldOf(v.held), file }
  } catch {
    return undefined
  }
}

/**
 * The holders a mark names, as shown to the person: a model may write anything there (the name is
 * lock-shaped), so only numbers and a short name of printable characters, never a terminal escape.
 */
function heldOf(value: unknown): HeldProcess[] {
  if (!Array.isArray(value)) return []
  const out: HeldProcess[] = []
  for (const h of value.slice(0, MAX_HELD)) {
    const { pid, comm } = (h ?? {}) as Partial<HeldProcess>
    if (!Number.isSafeInteger(pid) || pid! <= 0 || typeof comm !== 'string') continue
    out.push({ pid: pid!, comm: comm.replace(/[^\p{L}\p{N}\p{P}\p{S} ]/gu, '?').slice(0, 32) })
  }
  return out
}

/** The holders in a sentence's list: `1234 (python3), 5678 (node)`; '' for none. */
export function heldList(held: readonly HeldProcess[]): string {
  return held.map((h) => `${h.pid} (${h.comm})`).join(', ')
}

function namesIn(dir: string): string[] {
  try {
    return readdirSync(dir)
  } catch {
    return []
  }
}

function forget(file: string): void {
  try {
    unlinkSync(file)
  } catch {
    // already gone, or the folder is not writable: a mark of a gone process counts for nothing anyway
  }
}

/** A write that waited for another process's open window as long as it may: nothing was changed. */
export class GuardWindowBusyError extends LockBusyError {
  readonly mark: WindowMark
  constructor(mark: WindowMark, waitedMs: number) {
    super(
      `a tool call of DSH (process ${mark.pid}) has been running since ${mark.since}, and while one runs Cyrene's store guard puts back every change to the memory store that DSH did not make, yours too; this write waited ${Math.round(waitedMs / 1000)} s for it to end and was not made. Nothing was changed. Try again when the call has ended (stop a server or watcher it left running first).${heldSentence(mark.held)} If no DSH is running, remove ${mark.file}.`,
      undefined,
      true,
      mark.file,
    )
    this.mark = mark
    this.name = 'GuardWindowBusyError'
  }

  override get said(): { code: string; params: Record<string, string> } {
    const params = { pid: String(this.mark.pid), since: this.mark.since, mark: this.mark.file }
    if (this.mark.held.length === 0) return { code: 'refused.guard-window', params }
    return { code: 'refused.guard-window-held', params: { ...params, processes: heldList(this.mark.held) } }
  }
}

/**
 * Any process started on this machine while a call ran that an init or service manager adopted counts as
 * the call's (decision 010): the guard cannot tell an app the person opened meanwhile from the model's
 * daemon. Naming them lets the person see which one keeps the window open.
 */
function heldSentence(held: readonly HeldProcess[]): string {
  return held.length === 0
    ? ''
    : ` The call has returned; what keeps it open is ${heldList(held)}, started by the call or while it ran: if one of them is yours, not the model's, ending it ends the wait.`
}
