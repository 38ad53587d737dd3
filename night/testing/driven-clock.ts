/** A driven clock (shared by the scheduler and night tests): timers fire when the test moves time forward (or jumps the wall clock). */
export function drivenClock(start: Date) {
  let now = start.getTime()
  const timers: Array<{ at: number; fn: () => void; id: number }> = []
  let next = 0
  return {
    now: () => new Date(now),
    setTimer: (fn: () => void, ms: number) => {
      const id = next++
      timers.push({ at: now + ms, fn, id })
      return () => {
        const i = timers.findIndex((x) => x.id === id)
        if (i >= 0) timers.splice(i, 1)
      }
    },
    /** The wall clock moves by `ms` (negative: set back) while timers measure elapsed time. */
    jumpWall(ms: number) {
      now += ms
      for (const x of timers) x.at += ms
    },
    async advance(ms: number) {
      const end = now + ms
      for (;;) {
        timers.sort((a, b) => a.at - b.at)
        const due = timers[0]
        if (due === undefined || due.at > end) break
        timers.shift()
        now = due.at
        due.fn()
        // A wake does real work (files) before it re-arms: wait until a timer is set again.
        for (let i = 0; i < 5000 && timers.length === 0; i++) await new Promise((r) => setTimeout(r, 1))
      }
      now = end
    },
    pending: () => timers.length,
  }
}
