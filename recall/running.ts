import { join } from 'node:path'
import type { RecallCounts, RecalledEntry, RecallSilence } from './keeper.ts'
import type { RecallLack } from './core/index.ts'
import { startLiveRecall, type LiveAnswer, type LiveRecall } from './live.ts'

/** The index of a running engine as the doctor reads it. */
type RecallIndexState =
  | { kind: 'off' }
  | { kind: 'building' }
  | { kind: 'failed'; detail: string }
  | {
      kind: 'ready'
      /** What the index holds by kind: `entries` is the store's count of entries. */
      counts: RecallCounts
      /** Where the index runs: its own worker thread, or DSH's thread when a worker could not start. */
      where: 'worker' | 'in-process'
      /** Why the file watcher cannot be trusted (each step then looks at every file), when it cannot. */
      watch?: string
      /** The data the latest search went without (no translation, no word lists), when it went without some. */
      lacks?: readonly RecallLack[]
      /** Folders this user may not open (absolute paths): their memories are left out of recall. */
      unreadable?: readonly string[]
    }

/** What `/cyrene doctor` shows of recall (recall/doctor.ts words it). */
export interface RecallDoctorState {
  index: RecallIndexState
  /** The last recall problem (a failed levelling or search); the next answer clears it. */
  error: string | undefined
  /** Why the latest search found nothing, when it found nothing. */
  silence: RecallSilence | undefined
}

type Index = { kind: 'off' } | { kind: 'building' } | { kind: 'failed'; detail: string } | { kind: 'ready'; live: LiveRecall; counts: RecallCounts }

/**
 * Recall for the lifetime of one memory engine (the `cyreneMemory` service holds one): its
 * index in a worker thread, or in DSH's thread in slices when a worker cannot start
 * (CONTRACT#never-stall); what the latest search said, for the doctor. It never throws to a
 * turn: a failure is an empty answer and a doctor line.
 */
export class RunningRecall {
  private index: Index = { kind: 'off' }
  /** The live recall being opened or answering; close() clears it, which is how an open that settles late knows it is not wanted. */
  private live: LiveRecall | undefined
  private error: string | undefined
  private silence: RecallSilence | undefined
  private watch: string | undefined
  private lacks: readonly RecallLack[] | undefined
  private root = ''
  /** Settles when the index is built (or failed to build); recall is empty until then. */
  ready: Promise<void> = Promise.resolve()

  /** The engine of `root` is up: build or load its index. */
  start(root: string): void {
    this.index = { kind: 'building' }
    this.root = root
    this.ready = this.open(root, true)
  }

  /** True until the index is built or has failed: a turn may wait a little for it. */
  get starting(): boolean {
    return this.index.kind === 'off' || this.index.kind === 'building'
  }

  private async open(root: string, worker: boolean): Promise<void> {
    const live = startLiveRecall(root, { worker })
    this.live = live
    try {
      const opened = await live.ready
      if (this.live !== live) return
      this.index = { kind: 'ready', live, counts: opened.counts }
    } catch (error) {
      if (this.live !== live) return
      await live.close().catch(() => undefined)
      // A worker that could not run here: the same work in this thread, in slices.
      if (live.where === 'worker') return await this.open(root, false)
      this.index = { kind: 'failed', detail: (error as Error).message }
    }
  }

  /** The memories `query` is about, at `now` (the store's clock); empty while building, when failed, or on any failure. */
  async recall(query: string, limit: number, now: number): Promise<RecalledEntry[]> {
    const index = this.index
    if (index.kind !== 'ready') return []
    try {
      const answer = await index.live.recall(query, limit, { now })
      index.counts = answer.counts
      this.answered(answer)
      return answer.hits
    } catch (error) {
      this.error = (error as Error).message
      return []
    }
  }

  /** The index levelled with the files (the doctor's count is then the store's); a failure is kept for the doctor, never thrown. */
  async level(): Promise<void> {
    const index = this.index
    if (index.kind !== 'ready') return
    try {
      index.counts = await index.live.level()
    } catch (error) {
      this.error = (error as Error).message
    }
  }

  /** The engine stops: the index goes, and a later search answers nothing at once. */
  async close(): Promise<void> {
    this.index = { kind: 'off' }
    const live = this.live
    this.live = undefined
    await live?.close().catch(() => undefined)
  }

  /** An answer: no failure now; why it was silent, if it was; whether every file had to be looked at because the watcher failed. */
  private answered(answer: Pick<LiveAnswer, 'hits' | 'silence' | 'swept' | 'lacks'>): void {
    this.error = undefined
    this.silence = answer.hits.length === 0 ? (answer.silence ?? { reason: 'left-out', text: 'every hit was left out' }) : undefined
    // A watcher that failed makes every step look at every file: shown, not hidden.
    this.watch = answer.swept?.startsWith('file watching') === true ? answer.swept : undefined
    this.lacks = answer.lacks
  }

  doctorState(): RecallDoctorState {
    const index = this.index
    const unreadable = index.kind === 'ready' ? (index.counts.unreadable ?? []).map((rel) => join(this.root, rel)) : []
    return {
      index:
        index.kind === 'ready'
          ? {
              kind: 'ready',
              counts: index.counts,
              where: index.live.where,
              ...(this.watch !== undefined ? { watch: this.watch } : {}),
              ...(this.lacks !== undefined && this.lacks.length > 0 ? { lacks: this.lacks } : {}),
              ...(unreadable.length > 0 ? { unreadable } : {}),
            }
          : index,
      error: this.error,
      silence: this.silence,
    }
  }
}
