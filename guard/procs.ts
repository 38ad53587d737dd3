import { readdirSync, readFileSync } from 'node:fs'
import { isHostProcess } from '../durable/host-writes.ts'

/**
 * Which processes a tool call left running (docs/decisions/010). Linux only:
 * `/proc/<pid>/stat` gives the parent and the start time (clock ticks since
 * boot). A process counts as the model's when, at a look, it descends from
 * this host through a process started while a tool call was running, or when
 * it was started while a tool call was running and hangs from the system's
 * reaper (pid 1 or a service manager) — what `&`, `nohup`, `setsid` and a
 * double fork leave behind. A process the person starts in a terminal hangs
 * from their shell, which is older than the call, so it is not the model's.
 * It stays the model's while its pid lives with the same start time.
 */

export interface Proc {
  pid: number
  ppid: number
  start: number
  comm: string
}

/** Clock ticks per second: Linux reports 100 on every architecture DSH runs on (USER_HZ). */
const TICKS = 100
/** How often one scan lists the host's and the reapers' children again after a process vanished under it. */
const MAX_RELISTS = 256
const REAPERS = /^(systemd|init|tini|dumb-init|catatonit|s6-svscan|runsvdir|docker-init|containerd-shim.*|process_api)$/

export function procsSupported(): boolean {
  try {
    readFileSync('/proc/self/stat')
    return true
  } catch {
    return false
  }
}

function nowTicks(): number {
  const up = Number(readFileSync('/proc/uptime', 'utf8').split(' ')[0])
  return Math.floor(up * TICKS)
}

/** `pid (comm) state ppid … starttime …`: the name may hold spaces and parentheses, so read after the last `)`. */
function readStatText(text: string): (Proc & { ended: boolean }) | undefined {
  const open = text.indexOf('(')
  const close = text.lastIndexOf(')')
  if (open < 0 || close < open) return undefined
  const rest = text.slice(close + 2).split(' ')
  const pid = Number(text.slice(0, open).trim())
  const ppid = Number(rest[1])
  const start = Number(rest[19])
  if (!Number.isFinite(pid) || !Number.isFinite(ppid) || !Number.isFinite(start)) return undefined
  // A zombie (or a dead task) has finished: it changes nothing more, whoever has not reaped it yet.
  return { pid, ppid, start, comm: text.slice(open + 1, close), ended: rest[0] === 'Z' || rest[0] === 'X' }
}

/** One task's stat line; undefined for a task that has ended (a zombie) or a line that cannot be read. */
export function parseStat(text: string): Proc | undefined {
  const p = readStatText(text)
  if (p === undefined || p.ended) return undefined
  return { pid: p.pid, ppid: p.ppid, start: p.start, comm: p.comm }
}

/**
 * The process `pid` while any of its threads runs. A leader thread that called pthread_exit is a
 * zombie while the other threads of its group go on writing: the process has not ended.
 */
function readProcess(pid: number | string): Proc | undefined {
  const p = readStatText(readFileSync(`/proc/${pid}/stat`, 'utf8'))
  if (p === undefined) return undefined
  const proc = { pid: p.pid, ppid: p.ppid, start: p.start, comm: p.comm }
  if (!p.ended) return proc
  let tasks: string[]
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return undefined
  }
  for (const tid of tasks) {
    try {
      if (readStatText(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8'))?.ended === false) return proc
    } catch {
      // the thread ended between the listing and the read
    }
  }
  return undefined
}

function readProcs(): Map<number, Proc> {
  const out = new Map<number, Proc>()
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue
    try {
      const p = readProcess(name)
      if (p !== undefined) out.set(p.pid, p)
    } catch {
      // gone between the listing and the read
    }
  }
  return out
}

function readStat(pid: number): Proc | undefined {
  try {
    return readProcess(pid)
  } catch {
    return undefined
  }
}

/** The children of every thread of `pid` (Linux 3.5+ with CONFIG_PROC_CHILDREN); undefined where the kernel has no such file. */
function readChildren(pid: number): number[] | undefined {
  let tasks: string[]
  try {
    tasks = readdirSync(`/proc/${pid}/task`)
  } catch {
    return []
  }
  const out: number[] = []
  for (const tid of tasks) {
    try {
      for (const c of readFileSync(`/proc/${pid}/task/${tid}/children`, 'utf8').split(' ')) if (c.trim() !== '') out.push(Number(c))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' && tid === String(pid)) return undefined
    }
  }
  return out
}

export class ModelProcesses {
  private readonly host: number
  private readonly tainted = new Map<number, number>()
  /** Start of the current window (ticks), while one is open. */
  private from: number | undefined

  constructor(host = process.pid) {
    this.host = host
  }

  open(): void {
    // One tick early: a process started in the same tick as the call counts.
    this.from ??= nowTicks() - 1
  }

  close(): void {
    this.from = undefined
  }

  /**
   * Returns how many of the model's processes are alive. Walks down from this
   * host, from pid 1 and from the model's processes (a few files); where the
   * kernel has no children files, reads every process instead.
   */
  scan(): number {
    const fast = readChildren(this.host) !== undefined && readChildren(1) !== undefined
    if (!fast) return this.scanAll()
    for (const [pid, start] of this.tainted) if (readStat(pid)?.start !== start) this.tainted.delete(pid)
    if (this.from === undefined) return this.tainted.size
    const from = this.from
    // An orphan goes to the nearest reaper above it: pid 1, or a service manager above the host (systemd --user on a desktop).
    const reapers = [1, ...this.reapersAbove()]
    const queue = [
      ...(readChildren(this.host) ?? []),
      ...reapers.flatMap((p) => readChildren(p) ?? []),
      ...[...this.tainted.keys()].flatMap((p) => readChildren(p) ?? []),
    ]
    const seen = new Set<number>()
    // A process that ended between its parent's listing and the read of its own stat has handed its children
    // to a reaper after that reaper was listed (a chain that forks and exits again and again): list again.
    let relists = 0
    while (queue.length > 0) {
      const pid = queue.pop()!
      if (seen.has(pid)) continue
      seen.add(pid)
      const p = readStat(pid)
      if (p === undefined && relists < MAX_RELISTS) {
        relists++
        queue.push(...[this.host, ...reapers].flatMap((r) => readChildren(r) ?? []).filter((c) => !seen.has(c)))
      }
      // A program the host started for its own work (durable/host-writes.ts) is not the model's, nor is what it starts.
      if (p === undefined || (p.ppid === this.host && isHostProcess(pid))) continue
      // Below the host or the reaper, only what started during the window; below the model's, everything.
      const models = this.tainted.get(pid) === p.start || p.start >= from || this.tainted.has(p.ppid)
      if (!models) continue
      this.tainted.set(pid, p.start)
      queue.push(...(readChildren(pid) ?? []))
    }
    return this.tainted.size
  }

  /** The host's ancestors that adopt orphans as pid 1 does (a service manager, an init of a container), as `isModels` names them. */
  private reapersAbove(): number[] {
    const out: number[] = []
    let cur = readStat(this.host)
    for (let hops = 0; cur !== undefined && cur.ppid > 1 && hops < 64; hops++) {
      cur = readStat(cur.ppid)
      if (cur !== undefined && REAPERS.test(cur.comm)) out.push(cur.pid)
    }
    return out
  }

  /** Look at every process (no children files). */
  scanAll(procs = readProcs()): number {
    for (const [pid, start] of this.tainted) if (procs.get(pid)?.start !== start) this.tainted.delete(pid)
    if (this.from !== undefined) for (const p of procs.values()) if (!this.tainted.has(p.pid) && this.isModels(p, procs)) this.tainted.set(p.pid, p.start)
    return this.tainted.size
  }

  alive(): number {
    return this.tainted.size
  }

  /** The model's processes still alive, by pid, with their names (for the person: which one keeps a window open). */
  list(): { pid: number; comm: string }[] {
    const out: { pid: number; comm: string }[] = []
    for (const [pid, start] of [...this.tainted].sort((a, b) => a[0] - b[0])) {
      const p = readStat(pid)
      if (p?.start === start) out.push({ pid, comm: p.comm })
    }
    return out
  }

  private isModels(p: Proc, procs: Map<number, Proc>): boolean {
    const from = this.from!
    let below: Proc | undefined
    let cur: Proc | undefined = p
    for (let hops = 0; cur !== undefined && hops < 64; hops++) {
      if (cur.pid === this.host) return below !== undefined && below.start >= from && !isHostProcess(below.pid)
      if (this.tainted.get(cur.pid) === cur.start) return true
      if (cur.pid === 1 || REAPERS.test(cur.comm)) return below !== undefined && below.start >= from
      if (cur.start < from) return false
      below = cur
      cur = procs.get(cur.ppid)
    }
    return false
  }
}
