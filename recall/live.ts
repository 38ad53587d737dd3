import { Worker } from 'node:worker_threads'
import { recallLacks, warmRecallDictionaries, type RecallLack } from './core/index.ts'
import { RecallKeeper, type KeeperOpenReport, type RecallCounts, type RecalledEntry, type RecallSearchOptions, type RecallSilence } from './keeper.ts'
import { writeRecallSeal } from './cache.ts'
import { RecallWatch } from './watch.ts'

const SWEEP_EVERY_MS = 5 * 60_000
const YOUNG_GENERATION_MB = 96

/** What the host asks of the recall of a running engine (host/service.ts). */
export interface LiveRecall {
  /** Settles with how the index was opened once it can answer; rejects if it could not be built. */
  readonly ready: Promise<Opened>
  /** Where the work runs: its own thread, or DSH's when a worker could not start. */
  readonly where: 'worker' | 'in-process'
  /** The index levelled with what changed, then searched. */
  recall(query: string, limit: number, opts?: { includePending?: boolean; now?: number }): Promise<LiveAnswer>
  /** The index levelled with what changed, and what it then holds (the doctor's count is the store's). */
  level(): Promise<RecallCounts>
  close(): Promise<void>
}

/** How the index was opened, and what it held then. */
export type Opened = KeeperOpenReport & { size: number; counts: RecallCounts }

export interface LiveAnswer {
  hits: RecalledEntry[]
  size: number
  counts: RecallCounts
  /** Files read again before this search (0 when nothing changed). */
  reread: number
  /** Set when every file had to be looked at, and why. */
  swept?: string
  /** Set when the index found nothing: why (a code and a sentence). */
  silence?: RecallSilence
  /** Set when recall goes without data it reads (no translation, no word lists): the doctor says so. */
  lacks?: RecallLack[]
}

export type LiveRequest =
  { op: 'recall'; id: number; query: string; limit: number; includePending?: boolean; now?: number } | { op: 'level'; id: number } | { op: 'close'; id: number }
type LiveReply =
  | ({ op: 'answer'; id: number } & LiveAnswer)
  | { op: 'levelled'; id: number; counts: RecallCounts }
  | { op: 'error'; id: number; message: string }
  | { op: 'closed'; id: number }
  | { op: 'ready'; opened: Opened }
  | { op: 'failed'; message: string }

/**
 * Recall in the calling thread: a keeper (its cache, or a build that hands
 * the event loop back every few milliseconds) and a watcher that names the
 * files changed since the last search. Runs inside the worker; also what the
 * host falls back to when a worker cannot start.
 */
export class LocalRecall implements LiveRecall {
  readonly ready: Promise<Opened>
  readonly where = 'in-process' as const
  private keeper: RecallKeeper | undefined
  private watch: RecallWatch | undefined
  private closed = false
  private queue: Promise<unknown> = Promise.resolve()

  private readonly timer: NodeJS.Timeout

  private constructor(root: string, cache: boolean) {
    // Watching starts once the index is open (the watcher's first scan would slow the build down):
    // until it is ready every step looks at every file, so nothing written meanwhile is missed.
    this.ready = RecallKeeper.open(root, { cache, ownThread: cache, skipUnreadable: true }).then((keeper) => {
      this.keeper = keeper
      if (!this.closed) this.watch = RecallWatch.start(root)
      // The translation dictionary loads in one block (~1 s idle): in the worker, load it now,
      // between steps, not inside the first turn that needs it. DSH's own thread never does.
      if (cache) this.queue = this.queue.then(() => new Promise<void>((resolve) => setImmediate(() => (warmRecallDictionaries(), resolve()))))
      return { ...keeper.opened, size: keeper.size, counts: keeper.counts() }
    })
    // A watcher can miss a write in the moment between a new folder appearing and its watch
    // being set up; a full look now and then, between steps, catches it.
    this.timer = setInterval(() => void this.sweep(), SWEEP_EVERY_MS)
    this.timer.unref()
  }

  private async sweep(): Promise<void> {
    if (this.keeper === undefined) return
    const keeper = this.keeper
    this.queue = this.queue.then(() => keeper.refresh()).catch(() => undefined)
    await this.queue
  }

  /**
   * `cache: false` (DSH's own thread): build in slices without the cache, whose parse and write
   * are single blocks — slower to start, never a stall. The worker uses the cache, and reads a
   * hit's file in one blocking call (its thread waits on nothing else).
   */
  static start(root: string, opts: { cache?: boolean } = {}): LocalRecall {
    return new LocalRecall(root, opts.cache !== false)
  }

  /** One at a time: two refreshes of one keeper must not interleave. The index is first levelled with what the watcher saw change. */
  private async levelled<T>(work: (keeper: RecallKeeper, reread: number, swept: string | undefined) => Promise<T>): Promise<T> {
    await this.ready
    const run = this.queue.then(async () => {
      const keeper = this.keeper!
      const changes = this.watch === undefined ? { all: true, rels: [], why: 'closed' } : await this.watch.take()
      const reread = await keeper.refresh(changes.all ? undefined : changes.rels)
      return await work(keeper, reread, changes.all ? changes.why : undefined)
    })
    this.queue = run.catch(() => undefined)
    return await run
  }

  async recall(query: string, limit: number, opts: { includePending?: boolean; now?: number } = {}): Promise<LiveAnswer> {
    return await this.levelled(async (keeper, reread, swept) => {
      const search: RecallSearchOptions = { includePending: opts.includePending === true }
      if (opts.now !== undefined) search.now = new Date(opts.now)
      const hits = await keeper.search(query, limit, search)
      const silence = keeper.lastSilence
      const lacks = recallLacks()
      return {
        hits,
        size: keeper.size,
        counts: keeper.counts(),
        reread,
        ...(swept !== undefined ? { swept } : {}),
        ...(silence !== undefined ? { silence } : {}),
        ...(lacks.length > 0 ? { lacks } : {}),
      }
    })
  }

  async level(): Promise<RecallCounts> {
    return await this.levelled(async (keeper) => keeper.counts())
  }

  /** A request from the host, answered (used by the worker). */
  async answer(request: LiveRequest): Promise<LiveReply> {
    try {
      if (request.op === 'close') {
        await this.close()
        return { op: 'closed', id: request.id }
      }
      if (request.op === 'level') return { op: 'levelled', id: request.id, counts: await this.level() }
      const opts: { includePending?: boolean; now?: number } = {}
      if (request.includePending !== undefined) opts.includePending = request.includePending
      if (request.now !== undefined) opts.now = request.now
      return { op: 'answer', id: request.id, ...(await this.recall(request.query, request.limit, opts)) }
    } catch (error) {
      return { op: 'error', id: request.id, message: (error as Error).message }
    }
  }

  async close(): Promise<void> {
    clearInterval(this.timer)
    this.closed = true
    await this.watch?.close()
  }
}

/** Recall in a worker thread: the host's event loop only posts a message and awaits the answer. */
class ThreadRecall implements LiveRecall {
  readonly ready: Promise<Opened>
  readonly where = 'worker' as const
  private readonly worker: Worker
  private next = 1
  private holders = 0
  private readonly waiting = new Map<number, { resolve: (r: LiveReply) => void; reject: (e: Error) => void }>()
  /** Why the worker is gone (it crashed, exited or was closed): a question asked after that would wait forever. */
  private gone: Error | undefined

  constructor(root: string) {
    // Sources run as .ts (tests, benches), the package as .js.
    const file = new URL(`./worker${new URL(import.meta.url).pathname.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url)
    // A larger young generation: loading a large cache allocates many short-lived objects, and with
    // the default size the thread spends a good part of its start collecting them.
    this.worker = new Worker(file, { workerData: { root }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } })
    let settle: { resolve: (v: Opened) => void; reject: (e: Error) => void } | undefined
    this.ready = new Promise((resolve, reject) => (settle = { resolve, reject }))
    this.worker.on('message', (reply: LiveReply) => {
      if (reply.op === 'ready') {
        const { seal, ...opened } = reply.opened
        // The worker's cache is trusted at the next start only with this seal, written here, on DSH's thread.
        if (seal === undefined) settle?.resolve(opened)
        else
          void writeRecallSeal(root, seal).then(
            () => settle?.resolve(opened),
            (error: Error) => settle?.resolve({ ...opened, saveError: opened.saveError ?? `the cache's seal could not be written: ${error.message}` }),
          )
      } else if (reply.op === 'failed') settle?.reject(new Error(reply.message))
      else {
        this.waiting.get(reply.id)?.resolve(reply)
        this.waiting.delete(reply.id)
      }
    })
    const fail = (error: Error): void => {
      this.gone ??= error
      settle?.reject(error)
      for (const w of this.waiting.values()) w.reject(error)
      this.waiting.clear()
    }
    this.worker.on('error', fail)
    this.worker.on('exit', (code) => fail(new Error(`the recall worker stopped (exit ${code})`)))
    // Idle, the worker never keeps DSH alive (a one-shot `dsh --profile headless` must exit); while
    // it opens the index, and while an answer is awaited (held), it does: a promise waiting on it
    // must not be dropped by an event loop that thinks it has nothing left to do. Unref'd after the
    // listeners, since adding a 'message' listener refs the worker's port again.
    const idle = (): void => {
      if (this.holders === 0) this.worker.unref()
    }
    this.ready.then(idle, idle)
  }

  private async ask(request: LiveRequest): Promise<LiveReply> {
    return await new Promise((resolve, reject) => {
      if (this.gone !== undefined) return reject(this.gone)
      this.waiting.set(request.id, { resolve, reject })
      // oxlint-disable-next-line unicorn/require-post-message-target-origin -- a worker_threads Worker has no origin
      this.worker.postMessage(request)
    })
  }

  /** Holds the worker while someone waits on it, so an awaited answer keeps the process alive; idle, it never does. */
  private async held<T>(work: () => Promise<T>): Promise<T> {
    if (this.holders++ === 0) this.worker.ref()
    try {
      return await work()
    } finally {
      if (--this.holders === 0) this.worker.unref()
    }
  }

  async recall(query: string, limit: number, opts: { includePending?: boolean; now?: number } = {}): Promise<LiveAnswer> {
    const reply = await this.held(async () => {
      await this.ready
      return await this.ask({ op: 'recall', id: this.next++, query, limit, ...opts })
    })
    if (reply.op === 'error') throw new Error(reply.message)
    if (reply.op !== 'answer') throw new Error('the recall worker answered out of turn')
    // The answer as the worker's keeper gave it, whatever it carries: only the envelope is dropped.
    const { op: _op, id: _id, ...answer } = reply
    return answer
  }

  async level(): Promise<RecallCounts> {
    const reply = await this.held(async () => {
      await this.ready
      return await this.ask({ op: 'level', id: this.next++ })
    })
    if (reply.op === 'error') throw new Error(reply.message)
    if (reply.op !== 'levelled') throw new Error('the recall worker answered out of turn')
    return reply.counts
  }

  async close(): Promise<void> {
    try {
      // Held: with the worker and the timer both unreferenced, nothing would keep this wait alive.
      let timer: NodeJS.Timeout | undefined
      await this.held(async () => await Promise.race([this.ask({ op: 'close', id: this.next++ }), new Promise((r) => (timer = setTimeout(r, 1000)))]))
      clearTimeout(timer)
    } catch {
      /* already gone */
    }
    await this.worker.terminate()
  }
}

/**
 * The recall of a running engine: in a worker thread, so nothing of it runs on
 * DSH's event loop; in-process (the same work, in slices) when a worker
 * cannot be started here.
 */
export function startLiveRecall(root: string, opts: { worker?: boolean } = {}): LiveRecall {
  if (opts.worker !== false) {
    try {
      return new ThreadRecall(root)
    } catch {
      /* no worker threads here: the same work in this thread */
    }
  }
  return LocalRecall.start(root, { cache: false })
}
