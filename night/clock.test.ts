import { afterEach, beforeEach, expect, it } from 'vitest'
import { addDays, dueNights, msUntilNextNight, nightStart, parseNightTime, wakeDelay } from './clock.ts'

const t2330 = parseNightTime('23:30')
let savedTz: string | undefined
beforeEach(() => {
  savedTz = process.env.TZ
})
afterEach(() => {
  if (savedTz === undefined) delete process.env.TZ
  else process.env.TZ = savedTz
})

it('parses HH:MM and refuses anything else', () => {
  expect(parseNightTime('7:05')).toEqual({ hour: 7, minute: 5 })
  for (const bad of ['24:00', '23:60', '2330', '']) expect(() => parseNightTime(bad)).toThrow(/HH:MM/)
})

it('a night is due once its local start has passed, and only after the last night dreamt', () => {
  expect(dueNights('2026-05-01', new Date('2026-05-02T23:29:59'), t2330, 7)).toEqual([])
  expect(dueNights('2026-05-01', new Date('2026-05-02T23:30:00'), t2330, 7)).toEqual(['2026-05-02'])
  expect(dueNights('2026-05-02', new Date('2026-05-02T23:59:00'), t2330, 7)).toEqual([])
  // just after midnight the night that started yesterday is still the one due
  expect(dueNights('2026-05-01', new Date('2026-05-03T00:10:00'), t2330, 7)).toEqual(['2026-05-02'])
  // a fresh install has missed nothing
  expect(dueNights(undefined, new Date('2026-05-03T12:00:00'), t2330, 7)).toEqual([])
  expect(dueNights(undefined, new Date('2026-05-03T23:31:00'), t2330, 7)).toEqual(['2026-05-03'])
  // many missed nights: the newest seven
  expect(dueNights('2026-04-01', new Date('2026-05-03T12:00:00'), t2330, 7)).toEqual([
    '2026-04-26',
    '2026-04-27',
    '2026-04-28',
    '2026-04-29',
    '2026-04-30',
    '2026-05-01',
    '2026-05-02',
  ])
})

it('the clock set back after a night was dreamt makes nothing due again', () => {
  const last = '2026-05-02'
  expect(dueNights(last, new Date('2026-05-02T23:35:00'), t2330, 7)).toEqual([])
  expect(dueNights(last, new Date('2026-04-30T23:35:00'), t2330, 7)).toEqual([])
})

it('across a DST change the next night is found by the local clock (23 h or 25 h away), never skipped or doubled', () => {
  process.env.TZ = 'America/New_York'
  // spring forward on 2026-03-08 at 02:00
  expect(msUntilNextNight(new Date(nightStart('2026-03-07', t2330).getTime() + 1000), t2330)).toBe(23 * 3_600_000 - 1000)
  expect(nightStart('2026-03-08', t2330).getHours()).toBe(23)
  expect(dueNights('2026-03-07', nightStart('2026-03-08', t2330), t2330, 7)).toEqual(['2026-03-08'])
  // fall back on 2026-11-01
  expect(msUntilNextNight(new Date(nightStart('2026-10-31', t2330).getTime() + 1000), t2330)).toBe(25 * 3_600_000 - 1000)
  expect(dueNights('2026-10-31', new Date(nightStart('2026-11-01', t2330).getTime() - 60_000), t2330, 7)).toEqual([])
})

it('a sleeping timer looks again at most every maxWake, and at least after a second', () => {
  const now = new Date('2026-05-02T12:00:00')
  expect(wakeDelay(now, t2330, 600_000)).toBe(600_000)
  expect(wakeDelay(new Date('2026-05-02T23:25:00'), t2330, 600_000)).toBe(300_000)
  expect(wakeDelay(new Date('2026-05-02T23:29:59.900'), t2330, 600_000)).toBe(1000)
  expect(addDays('2026-02-28', 1)).toBe('2026-03-01')
})
