import { wakeDelay, type NightTime } from './clock.ts'

/**
 * A timer that wakes for the night: it sleeps until the next local night
 * start (computed anew on every wake, never added up), at most `maxWakeMs`
 * at a time, and on each wake hands over to `onWake`, which decides on
 * local dates whether anything is due. Waking early or twice is harmless by
 * construction; stopping clears the pending timer (the owner stops it from a
 * ctx effect, so unloading the plugin clears it).
 */
export type SetTimer = (fn: () => void, ms: number) => () => void

export const realTimer: SetTimer = (fn, ms) => {
  const t = setTimeout(fn, ms)
  // A sleeping night timer must not keep a process alive that has nothing else to do.
  t.unref?.()
  return () => clearTimeout(t)
}

export interface NightTimerOptions {
  now: () => Date
  at: NightTime
  maxWakeMs: number
  onWake: () => Promise<void>
  setTimer?: SetTimer
}

export class NightTimer {
  private cancel: (() => void) | undefined
  private stopped = false
  /** When the timer will look next (for the doctor). */
  nextWakeAt: Date | undefined

  private readonly opts: NightTimerOptions

  constructor(opts: NightTimerOptions) {
    this.opts = opts
  }

  start(): () => void {
    this.arm()
    return () => this.stop()
  }

  stop(): void {
    this.stopped = true
    this.cancel?.()
    this.cancel = undefined
  }

  private arm(): void {
    if (this.stopped) return
    const now = this.opts.now()
    const ms = wakeDelay(now, this.opts.at, this.opts.maxWakeMs)
    this.nextWakeAt = new Date(now.getTime() + ms)
    this.cancel = (this.opts.setTimer ?? realTimer)(() => {
      void this.opts
        .onWake()
        .catch(() => undefined)
        .finally(() => this.arm())
    }, ms)
  }
}
