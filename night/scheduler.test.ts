import { expect, it } from 'vitest'
import { localDate } from '../memory/paths.ts'
import { parseNightTime, dueNights } from './clock.ts'
import { NightTimer } from './scheduler.ts'
import { drivenClock } from './testing/driven-clock.ts'

function nightWatcher(clock: ReturnType<typeof drivenClock>) {
  const t = parseNightTime('23:30')
  const state = { last: undefined as string | undefined, dreams: [] as string[] }
  const onWake = async () => {
    const due = dueNights(state.last, clock.now(), t, 7)
    if (due.length === 0) return
    state.last = due.at(-1)
    state.dreams.push(`${due.at(-1)} @ ${localDate(clock.now())}`)
  }
  return { state, timer: new NightTimer({ now: clock.now, at: t, maxWakeMs: 600_000, onWake, setTimer: clock.setTimer }) }
}

it('wakes at 23:30 local and dreams that night once over three days', async () => {
  const clock = drivenClock(new Date('2026-05-01T20:00:00'))
  const { state, timer } = nightWatcher(clock)
  const stop = timer.start()
  await clock.advance(3 * 86_400_000)
  expect(state.dreams).toEqual(['2026-05-01 @ 2026-05-01', '2026-05-02 @ 2026-05-02', '2026-05-03 @ 2026-05-03'])
  stop()
  expect(clock.pending()).toBe(0)
})

it('a wall clock set back an hour after the dream does not dream again; one set forward past 23:30 dreams within maxWake', async () => {
  const clock = drivenClock(new Date('2026-05-01T23:00:00'))
  const { state, timer } = nightWatcher(clock)
  timer.start()
  await clock.advance(40 * 60_000)
  expect(state.dreams).toHaveLength(1)
  clock.jumpWall(-3_600_000)
  await clock.advance(2 * 3_600_000)
  expect(state.dreams).toHaveLength(1)
  // next day: the wall clock jumps from 18:40 to 23:40
  await clock.advance(18 * 3_600_000)
  clock.jumpWall(5 * 3_600_000)
  expect(state.dreams).toHaveLength(1)
  await clock.advance(600_000)
  expect(state.dreams).toEqual(['2026-05-01 @ 2026-05-01', '2026-05-02 @ 2026-05-02'])
  timer.stop()
})
