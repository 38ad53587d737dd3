import { lstatSync } from 'node:fs'
import { basename, join, relative, sep } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { markWindowClosed, markWindowOpen, sweepDeadMarks } from '../durable/guard-window.ts'
import { keepAside, readDisplaced, type Aside } from './aside.ts'
import { hostWriting, keepBytesFrom, onHostWritesIdle, openCallWindow, takeHostWrites, type FolderListing } from '../durable/host-writes.ts'
import { processAlive, readOwnerSync, sameHost } from '../durable/lock-owner.ts'
import { WRITE_LOCK } from '../memory/paths.ts'
import { ModelProcesses, procsSupported } from './procs.ts'
import { Shadow, type Change } from './shadow.ts'
import { Watches } from './watch.ts'
import { readRegularFileSync } from '../durable/read-regular.ts'

/**
 * The store guard's boundary (CONTRACT#store-guard, docs/decisions/010): around every
 * tool call that can touch files, the disk is compared with what the host
 * keeps of the protected folders, and what a generic tool changed is put back
 * byte for byte. A window is open while a tool call runs and while a process
 * it started lives (procs.ts); while one is open, every change the host
 * did not declare (durable/host-writes.ts) is undone, looked at every
 * `pollMs`. With no window open, a change is the person's (their editor, their
 * `cyrene` command line, another program of theirs) and is kept.
 */

/** Tools that only read or ask (DSH rc.8): no window for them. Every other tool, unknown ones included, gets one. */
const READ_ONLY = new Set(['read', 'glob', 'grep', 'ask_user_question', 'web_search', 'web_fetch', 'get_goal'])

const BACKGROUND = 'a process a tool call started'

/**
 * The plugin's own tools that write the store (memory_write, memory_link, …): the host reads a file and
 * writes it back, so before one runs in an open window every file is compared, not only what the
 * watches named — a write through a shared mapping (mmap) raises no watch event, and the host would
 * otherwise carry its bytes into a write of its own that the guard keeps.
 */
const STORE_WRITING_TOOL = /^memory_(?!search$)/

/**
 * How much a look compares: what the watches named (`named`); that and every file of the folders the host
 * does not work in itself, the store and the whale-persona folder (`store`: a write through a shared
 * mapping raises no watch event; the snapshots, up to 13 copies of the store, are left to `all`); everything (`all`).
 */
type LookDepth = 'named' | 'store' | 'all'

/** While a window is open, every file is compared at least this often (a backstop for a watch that missed something). */
const FULL_EVERY_MS = 30_000

/** A tick this much later than due means the host was paused: the kernel may have dropped changes meanwhile. */
const LATE_TICK_MS = 1_000

/** The longest the guard waits for a write of the host's own to end before it looks anyway. */
const HOST_WAIT_MS = 30_000

/** The longest a window waits for another process's store write (the person's `cyrene`) to end before it opens anyway. */
const OUTSIDE_WRITE_WAIT_MS = 10_000

export interface EffectsState {
  kind: 'on' | 'off' | 'broken'
  detail?: string
  /** Changes put back since start, and in how many looks. */
  undone: number
  undoneLooks: number
  /** Changes kept as the person's (made while no tool call ran). */
  adopted: number
  /** Changes the guard could not put back. */
  failed: number
  /** Of those, the ones still not put back: tried again at every look, never taken as the person's. */
  owed?: number
  errors: number
  /** Files copied aside before they were put back (decision 296), and those that could not be (too large, a failed write). */
  asideKept?: number
  asideSkipped?: number
  last?: { at: string; tool: string; what: string }
  kept?: { paths: number; blobs: number; bytes: number }
  /** How long building the copy took at start (the host's thread is busy meanwhile). */
  buildMs?: number
  /** Processes started by tool calls still alive. */
  background: number
}

export interface EffectsOptions {
  /** Protected folders (absolute), compared whole. */
  roots: string[]
  /** Folders whose changes are the host's while it works there (the snapshots, the store's .git/: durable/host-writes.ts `asHostFolderWork`). */
  hostFolders: string[]
  /** Folders where the host keeps its locks (`元/`, the whale-persona folder): lock-shaped names there are the holders'. */
  lockFolders?: string[]
  /** The folder paths are shown relative to in messages. */
  shownFrom: string
  pollMs: number
  /**
   * The store's `元/`: while a window is open the guard marks it there for writers in other processes
   * (durable/guard-window.ts), and before one opens it lets a write of theirs that holds the store's lock end (decision 295).
   */
  storeMeta?: string
  /** Where what is put back during a window is kept first (`<root>-put-back`, decision 296); one of `roots`. */
  putBack?: string
}

export class EffectsGuard {
  private shadow: Shadow | undefined
  private fileWatches: Watches | undefined
  private lastFull = Date.now()
  private lastTick = Date.now()
  /** A late tick came while the host was writing: the next look compares everything. */
  private missedTick = false
  /** No call and no process of the model's at the last look: the window closes at the next tick, after one more look. */
  private closing = false
  private startError: string | undefined
  private readonly opts: EffectsOptions
  private readonly procs = new ModelProcesses()
  private readonly procsOk = procsSupported()
  private calls = 0
  /** Names of the tool calls running now, for the messages. */
  private readonly running: string[] = []
  private open = false
  private timer: NodeJS.Timeout | undefined
  private pending: string[] = []
  private state: Omit<EffectsState, 'kind' | 'background' | 'kept'> = { undone: 0, undoneLooks: 0, adopted: 0, failed: 0, errors: 0 }
  /** A look failed after the watches had handed over what changed: the next look compares everything. */
  private lookFailed = false
  /** Tells the host's own read-then-write work that a window is open (durable/host-writes.ts `openCallWindow`). */
  private closeWindow: (() => void) | undefined
  /** When this host's mark says its window opened, and the holders it last named. */
  private markSince: string | undefined
  private markHeld = ''
  /** What a tool call changed and could not be put back yet (a folder made immutable, a full disk): never the person's, tried again at every look. */
  private readonly owed = new Map<string, Change>()
  private readonly settled = new Set<() => void>()
  private buildMs = 0
  /** The protected roots the host does not work in itself (the store, the whale-persona folder): what a `store` look walks whole. */
  private readonly ownRoots: readonly string[]
  /** Stops answering the host's reads with what the shadow keeps (durable/host-writes.ts `vouchedBytes`). */
  private stopKeeping: (() => void) | undefined

  constructor(opts: EffectsOptions) {
    this.opts = opts
    this.ownRoots = opts.roots.filter((r) => !opts.hostFolders.some((f) => r === f || r.startsWith(f + sep)))
    try {
      const t0 = Date.now()
      const shadow = new Shadow(opts.roots, opts.lockFolders)
      const watches = new Watches(opts.roots)
      const roots = new Set(opts.roots)
      watches.sync(roots, shadow.recordedUnder(roots))
      this.shadow = shadow
      this.fileWatches = watches
      this.stopKeeping = keepBytesFrom(
        (path) => shadow.keptFile(path),
        (folder) => shadow.recordedUnder(new Set([folder])).flatMap((r) => (r.dir ? [] : [r.path])),
      )
      if (opts.storeMeta !== undefined) sweepDeadMarks(opts.storeMeta)
      this.buildMs = Date.now() - t0
    } catch (error) {
      this.startError = `could not read the protected folders (${(error as Error).message})`
    }
  }

  /** Whether a call to this tool opens a window. */
  watches(tool: string): boolean {
    return !READ_ONLY.has(tool)
  }

  /** Before a call: a refusal message when the guard cannot vouch for the store, else undefined. */
  async before(tool: string): Promise<string | undefined> {
    try {
      if (this.shadow === undefined) throw new Error(this.startError ?? 'not started')
      await this.hostIdle()
      if (!this.open) {
        // From here on a writer in another process waits; one already writing finishes first, as the person's.
        this.markOpen()
        await this.outsideWriteEnded()
        // What the person changed just before this call must reach the watches first, to be judged as theirs.
        await nextTurn()
        await nextTurn()
        // A write of the host's own may have begun meanwhile (the recall seal lands at any moment): a
        // look in the middle of it would take its declaration and leave its end to be judged the call's.
        await this.hostIdle()
      }
      if (!this.open) {
        // Whatever changed while no tool call ran is the person's (or the host's own).
        this.look('adopt', tool)
        this.shadow.forgetRewrites()
        this.open = true
        this.closeWindow = openCallWindow()
        this.procs.open()
        this.lastTick = Date.now()
        this.timer ??= setInterval(() => this.tick(), this.opts.pollMs)
        this.timer.unref()
      } else this.pending.push(...this.look('undo', tool, STORE_WRITING_TOOL.test(tool) ? 'store' : 'named'))
      this.calls++
      this.closing = false
      this.running.push(tool)
      return undefined
    } catch (error) {
      this.state.errors++
      if (!this.open) this.markClosed()
      return (
        `Refused by Cyrene's store guard: it could not compare the person's memory store with what it keeps (${(error as Error).message}), ` +
        'so it cannot put back what this call might change. Nothing was run. Tell the person to run `cyrene doctor` and fix what it names ' +
        '(a folder or file in the store the host cannot read); the call can run once the guard can look again.'
      )
    }
  }

  /** After a call: what was put back (for the model's tool result), or a guard error. */
  async after(tool: string): Promise<{ notes: string[]; error?: string }> {
    // The call counts as running until its own look is done: a tick meanwhile names it, not "a process".
    const done = () => {
      this.calls = Math.max(0, this.calls - 1)
      const at = this.running.indexOf(tool)
      if (at >= 0) this.running.splice(at, 1)
    }
    try {
      // Two turns of the event loop: what the kernel reported before the call ended has reached the watches.
      await nextTurn()
      await nextTurn()
      await this.hostIdle()
      if (this.procsOk) this.procs.scan()
      const notes = [...this.pending, ...this.look('undo', tool)]
      this.pending = []
      done()
      this.maybeClose()
      return { notes }
    } catch (error) {
      done()
      this.state.errors++
      return {
        notes: [],
        error:
          `Cyrene's store guard could not check what this call changed in the person's memory store (${(error as Error).message}). ` +
          'Tell the person: run `cyrene check` and `cyrene doctor`, and restore from a snapshot if the store was changed.',
      }
    }
  }

  /** Notes about background changes put back since the last result, for the next result the model reads. */
  takeNotes(): string[] {
    const out = this.pending
    this.pending = []
    return out
  }

  /** Resolves when no tool call and no process one started is running (tests wait on it). */
  async whenSettled(): Promise<void> {
    if (!this.open) return
    await new Promise<void>((resolve) => this.settled.add(resolve))
  }

  doctorState(): EffectsState {
    if (this.shadow === undefined) return { kind: 'broken', detail: this.startError, ...this.state, background: 0 }
    return {
      kind: 'on',
      ...this.state,
      kept: this.shadow.stats(),
      buildMs: this.buildMs,
      background: this.procs.alive(),
      owed: this.owed.size,
      ...(this.problem() === undefined ? {} : { detail: this.problem() }),
    }
  }

  private problem(): string | undefined {
    const parts = [this.fileWatches?.broken, this.procsOk ? undefined : 'no /proc: processes a tool call leaves running are not followed after it returns']
    const said = parts.filter((p): p is string => p !== undefined)
    return said.length === 0 ? undefined : said.join('; ')
  }

  dispose(): void {
    this.stopKeeping?.()
    this.closeWindow?.()
    this.closeWindow = undefined
    this.markClosed()
    this.fileWatches?.close()
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
    for (const fn of this.settled) fn()
    this.settled.clear()
  }

  private tick(): void {
    // A tick far later than its interval: the host was paused (SIGSTOP) or starved, and the kernel's
    // queue of changes may have overflowed meanwhile (libuv drops that notice). Compare everything.
    const now = Date.now()
    const late = now - this.lastTick > LATE_TICK_MS
    this.lastTick = now
    if (!this.open || hostWriting()) {
      this.missedTick ||= late
      return
    }
    try {
      if (this.procsOk) this.procs.scan()
      // While calls run, what changed is theirs; after, a process one of them left behind.
      const who = this.running.length > 0 ? [...new Set(this.running)].join('`, `') : BACKGROUND
      // The look before a window closes compares every file of the store: a write through a shared mapping
      // (mmap) raises no watch event, and once the window is closed what changed would be taken as the person's.
      const depth: LookDepth = late || this.missedTick || now - this.lastFull > FULL_EVERY_MS ? 'all' : this.closing ? 'store' : 'named'
      this.missedTick = false
      this.pending.push(...this.look('undo', who, depth))
      this.maybeClose()
    } catch {
      this.state.errors++
    }
  }

  private maybeClose(): void {
    if (this.calls > 0 || this.procs.alive() > 0) {
      this.closing = false
      this.markHolders()
      return
    }
    // The last writes of a process that just ended may still be on their way from the kernel: one more tick first.
    if (!this.closing) {
      this.closing = true
      return
    }
    this.closing = false
    this.open = false
    this.shadow?.forgetRewrites()
    this.closeWindow?.()
    this.closeWindow = undefined
    this.markClosed()
    this.procs.close()
    if (this.timer !== undefined) clearInterval(this.timer)
    this.timer = undefined
    for (const fn of this.settled) fn()
    this.settled.clear()
  }

  private markOpen(): void {
    this.markSince = new Date().toISOString()
    this.markHeld = ''
    if (this.opts.storeMeta !== undefined) markWindowOpen(this.opts.storeMeta, this.markSince)
  }

  /** Once no call runs, the mark names the processes that keep the window open (rewritten only when they change). */
  private markHolders(): void {
    if (this.opts.storeMeta === undefined || this.markSince === undefined || this.calls > 0) return
    const held = this.procs.list()
    const said = JSON.stringify(held)
    if (said === this.markHeld) return
    this.markHeld = said
    markWindowOpen(this.opts.storeMeta, this.markSince, held)
  }

  private markClosed(): void {
    this.markSince = undefined
    if (this.opts.storeMeta !== undefined) markWindowClosed(this.opts.storeMeta)
  }

  /**
   * A store write of another live process of this host, begun before the mark was there, ends before the
   * window opens, so the look before it takes that write as the person's. Bounded: a lock record forged to
   * look held only delays the call.
   */
  private async outsideWriteEnded(): Promise<void> {
    if (this.opts.storeMeta === undefined) return
    const lock = `${this.opts.storeMeta}${sep}${WRITE_LOCK}`
    const until = Date.now() + OUTSIDE_WRITE_WAIT_MS
    while (Date.now() < until) {
      const owner = readOwnerSync(lock)
      if (owner === undefined || owner.pid === process.pid || !sameHost(owner.host, owner.pidns) || !processAlive(owner.pid, owner.start)) return
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
  }

  private async hostIdle(): Promise<void> {
    if (!hostWriting()) return
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer)
        off()
        resolve()
      }
      const off = onHostWritesIdle(done)
      const timer = setTimeout(done, HOST_WAIT_MS)
    })
  }

  /** Compare; keep the host's declared writes; keep or undo the rest. Returns the notes for the model. */
  private look(judge: 'adopt' | 'undo', tool: string, depth: LookDepth = 'named'): string[] {
    const shadow = this.shadow!
    const watches = this.fileWatches!
    const all = depth === 'all' || this.lookFailed || watches.broken !== undefined
    const named = watches.take()
    // Set until this look has compared: an error below leaves the paths the watches named unlooked at.
    this.lookFailed = true
    if (all) this.lastFull = Date.now()
    const paths = [...named, ...this.opts.roots, ...this.owed.keys()]
    const changes = all ? shadow.diff() : depth === 'store' ? shadow.diffWhole(this.ownRoots, paths, this.opts.hostFolders) : shadow.diffAt(paths)
    this.lookFailed = false
    const host = takeHostWrites()
    try {
      return this.judge(changes, host, judge, tool)
    } finally {
      // What was kept or put back has new inodes: watch those.
      const changed = new Set(changes.map((c) => c.path))
      watches.sync(changed, shadow.recordedUnder(changed))
    }
  }

  private judge(changes: Change[], host: ReturnType<typeof takeHostWrites>, judge: 'adopt' | 'undo', tool: string): string[] {
    const shadow = this.shadow!
    if (changes.length === 0) return []
    const mine: Change[] = []
    const theirs: Change[] = []
    /** Host writes a call's process replaced before this look: the host's bytes go back there. */
    const swapped: { path: string; bytes: Uint8Array }[] = []
    const queue = [...changes]
    for (let c = queue.shift(); c !== undefined; c = queue.shift()) {
      // Only while the host worked there (a snapshot taken or pruned, a git run): a memory written in the same moment vouches for nothing there.
      // At a place that work named (decision 316), and in one of the host's folders whatever it named.
      const inHostFolder = this.opts.hostFolders.some((f) => within(c!.path, f)) && host.folderPlaces.some((p) => within(c!.path, p))
      // A place whose work listed what it made (a snapshot being taken): only those names are the host's there.
      const at = inHostFolder ? listingAt(c.path, host) : undefined
      const listed = at?.listing.holds(at.rel)
      if (at !== undefined && listed === undefined) {
        theirs.push(c)
        continue
      }
      // A file the work listed with its bytes (a snapshot copied while a window is open): those bytes, and no others.
      const listedBytes = listed === 'file' && judge === 'undo' ? at!.listing.bytesAt(at!.rel) : undefined
      if (listedBytes !== undefined) {
        if (c.what === 'removed' || c.what === 'replaced' || !holdsOneOf(c.path, [listedBytes])) swapped.push({ path: c.path, bytes: listedBytes })
        else mine.push(c)
        continue
      }
      if (listed === 'folder' && c.what === 'added') {
        const inside = shadow.adoptFolderOnly(c.path)
        if (inside !== undefined) {
          // At the place itself: what the work wrote that no look saw before a call removed it.
          queue.push(...inside, ...(judge === 'undo' && at!.rel === '' ? listedButGone(c.path, at!.listing) : []))
          continue
        }
      }
      // A declared write adds or rewrites; a folder the host declared never vouches for what vanished or was swapped there.
      // The host makes no links in these folders: a declared path that is one now was swapped by a call's process.
      const declared = host.paths.has(c.path) && c.what !== 'removed' && c.what !== 'replaced' && !isLink(c.path)
      // A folder the host made vouches for itself only: what a call's process put in it meanwhile is judged name by name.
      if (declared && !inHostFolder && c.what === 'added') {
        const inside = shadow.adoptFolderOnly(c.path)
        if (inside !== undefined) {
          queue.push(...inside)
          continue
        }
      }
      // While a window is open, a declared replace vouches only for the bytes it wrote.
      const wrote = judge === 'undo' && !inHostFolder && host.paths.has(c.path) ? host.contents.get(c.path) : undefined
      const gone = c.what === 'removed' || c.what === 'replaced'
      // An append vouches for what the guard kept there followed by the host's lines, and for nothing else.
      const added = judge === 'undo' && !inHostFolder && wrote === undefined ? host.appends.get(c.path) : undefined
      const kept = added === undefined ? undefined : shadow.keptFile(c.path)
      const expected = kept === undefined ? undefined : Buffer.concat([kept ?? Buffer.alloc(0), ...added!])
      if (wrote !== undefined && wrote.length > 0 && (gone || !holdsOneOf(c.path, wrote))) swapped.push({ path: c.path, bytes: wrote[wrote.length - 1]! })
      else if (expected !== undefined && (gone || !holdsOneOf(c.path, [expected]))) swapped.push({ path: c.path, bytes: expected })
      else if (declared || inHostFolder) mine.push(c)
      else theirs.push(c)
    }
    shadow.adopt(mine)
    if (theirs.length === 0 && swapped.length === 0) return []
    // Nothing is swapped here: only an undoing look (a window open) holds a host write to its bytes.
    if (judge === 'adopt') {
      // What a call changed and could not be put back stays the call's, however long it waits.
      const owedNow: Change[] = []
      const persons: Change[] = []
      for (const c of theirs) (this.isOwed(c.path) ? owedNow : persons).push(c)
      shadow.adopt(persons)
      this.state.adopted += persons.length
      if (owedNow.length === 0) return []
      const failedAgain = shadow.restore(owedNow)
      this.state.undone += owedNow.length - failedAgain.length
      this.settle(failedAgain, owedNow)
      return []
    }
    // Read before the put back, written after it: on a nearly full disk the put back comes first.
    const displaced = this.readDisplaced([
      ...theirs.filter((c) => DISPLACING.has(c.what) && c.raw === undefined).map((c) => c.path),
      ...swapped.map((s) => s.path),
    ])
    const failed = shadow.restore(theirs)
    this.settle(failed, theirs)
    const notPutBack = [...failed, ...shadow.keepWritten(swapped)]
    const aside = this.keepAside(displaced)
    this.state.undone += theirs.length + swapped.length - notPutBack.length
    this.state.failed += notPutBack.length
    this.state.undoneLooks++
    const shown = [...theirs.map((c) => `${this.show(c.path)} (${c.what})`), ...swapped.map((s) => `${this.show(s.path)} (content)`)]
    this.state.last = { at: new Date().toISOString(), tool, what: shown.slice(0, 3).join(', ') }
    return [this.message(tool, shown, notPutBack, aside)]
  }

  /** What is about to be put back, read first: it may be the person's own save (decision 296). */
  private readDisplaced(paths: string[]): ReturnType<typeof readDisplaced> | undefined {
    const putBack = this.opts.putBack
    if (putBack === undefined) return undefined
    // What a call changed in the kept copies themselves (by either of their paths), or in the host's own folders (the snapshots, .git/), is nobody's edit.
    const copies = [putBack, ...this.opts.roots.filter((r) => basename(r) === basename(putBack))]
    const mayBeEdits = paths.filter((p) => !copies.some((f) => within(p, f)) && !this.opts.hostFolders.some((f) => within(p, f)))
    if (mayBeEdits.length === 0) return undefined
    try {
      return readDisplaced(mayBeEdits, this.opts.shownFrom)
    } catch {
      this.state.asideSkipped = (this.state.asideSkipped ?? 0) + mayBeEdits.length
      return undefined
    }
  }

  /** What was put back, copied aside (decision 296). */
  private keepAside(displaced: ReturnType<typeof readDisplaced> | undefined): Aside | undefined {
    if (displaced === undefined || this.opts.putBack === undefined) return undefined
    try {
      const aside = keepAside(this.opts.putBack, displaced.files)
      aside.skipped += displaced.skipped
      this.state.asideKept = (this.state.asideKept ?? 0) + aside.kept
      this.state.asideSkipped = (this.state.asideSkipped ?? 0) + aside.skipped
      return aside
    } catch {
      // Keeping a copy is a courtesy to the person: the put back itself has happened.
      this.state.asideSkipped = (this.state.asideSkipped ?? 0) + displaced.files.length + displaced.skipped
      return undefined
    }
  }

  /** Under a path whose put back failed (or that path itself). */
  private isOwed(path: string): boolean {
    for (const owed of this.owed.keys()) if (path === owed || path.startsWith(owed + sep)) return true
    return false
  }

  /** Remember what could not be put back; forget what now was. */
  private settle(failed: readonly { path: string }[], tried: readonly Change[]): void {
    const still = new Set(failed.map((f) => f.path))
    for (const c of tried) {
      if (still.has(c.path)) this.owed.set(c.path, c)
      else this.owed.delete(c.path)
    }
  }

  private show(path: string): string {
    const rel = relative(this.opts.shownFrom, path)
    return rel === '' ? path : rel
  }

  private message(tool: string, shown: string[], failed: { path: string; error: string }[], aside?: Aside): string {
    const list = shown.length > 8 ? `${shown.slice(0, 8).join(', ')} and ${shown.length - 8} more` : shown.join(', ')
    const bad =
      failed.length === 0
        ? ''
        : ` ${failed.length} could not be put back (${failed
            .slice(0, 3)
            .map((f) => `${this.show(f.path)}: ${f.error}`)
            .join('; ')}); tell the person to run \`cyrene check\` and restore from a snapshot.`
    return (
      `Cyrene's store guard put back what ${tool === BACKGROUND ? tool : `\`${tool}\``} changed in the person's memory: ${list}.${bad} ` +
      "The memory store (<DSH_HOME>/cyrene-philia093-0/, with its worldbook), its snapshots and the whale-persona folder are the person's: a generic tool " +
      'may read them but never change them, whatever the sandbox or an approval allows, and a process left running is watched too. ' +
      'Instead: to remember something, use memory_write (in the 昔涟 presets); for a setting, an anchor or a base entry, tell the person what to change.' +
      (aside?.dir === undefined || aside.kept === 0
        ? ''
        : ` In case the person saved one of these files themselves meanwhile, what it held is kept in ${this.show(aside.dir)}: tell them, so they can copy back what is theirs once no tool call runs.`)
    )
  }
}

/** Changes after which the path holds bytes someone wrote: those are kept aside before the put back. */
const DISPLACING = new Set(['added', 'replaced', 'content'])

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink()
  } catch {
    return false
  }
}

/** The listing of the innermost place of the host's folder work that holds `path`, with `path` relative to it ('' at the place); undefined when that place keeps none. */
function listingAt(path: string, host: ReturnType<typeof takeHostWrites>): { listing: FolderListing; rel: string } | undefined {
  let place: string | undefined
  for (const p of host.folderPlaces) if (within(path, p) && (place === undefined || p.length > place.length)) place = p
  const listing = place === undefined ? undefined : host.folderListings.get(place)
  return listing === undefined ? undefined : { listing, rel: relative(place!, path).split(sep).join('/') }
}

/** The files a listing kept the bytes of that are not under `place` now (a call removed them before any look saw them). */
function listedButGone(place: string, listing: FolderListing): Change[] {
  return listing
    .keptFiles()
    .map((rel) => join(place, rel))
    .filter((p) => !existsNoFollow(p))
    .map((p) => ({ path: p, what: 'removed' as const }))
}

function existsNoFollow(path: string): boolean {
  try {
    lstatSync(path)
    return true
  } catch {
    return false
  }
}

function within(path: string, folder: string): boolean {
  return path === folder || path.startsWith(folder + sep)
}

/** Whether the file at `path` holds exactly one of these contents (a host write's bytes). */
function holdsOneOf(path: string, contents: readonly Uint8Array[]): boolean {
  let disk: Buffer
  try {
    disk = readRegularFileSync(path)
  } catch {
    return false
  }
  return contents.some((c) => disk.equals(c))
}
