import { isDateString, localDate } from '../memory/paths.ts'

/**
 * The night's clock, pure. Every decision is made on local calendar dates
 * ("which nights are due?"), never on elapsed time, so a clock set back, a DST
 * change or a process asleep across midnight can neither run a night twice
 * nor skip one: a night is due once its local start time has passed and it is
 * later than the last night dreamt (kept in 元/梦夜.json).
 */
export interface NightTime {
  hour: number
  minute: number
}

export function parseNightTime(text: string): NightTime {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text.trim())
  const hour = Number(m?.[1])
  const minute = Number(m?.[2])
  if (m === null || hour > 23 || minute > 59) throw new RangeError(`not a time of day (HH:MM, 00:00–23:59): ${JSON.stringify(text)}`)
  return { hour, minute }
}

/** The date `n` days after `date` (calendar arithmetic, no time zone involved). */
export function addDays(date: string, n: number): string {
  if (!isDateString(date)) throw new RangeError(`not a date (YYYY-MM-DD): ${JSON.stringify(date)}`)
  const d = new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)) + n))
  return d.toISOString().slice(0, 10)
}

/** When the night of `date` starts, in local time (a DST gap moves it as the platform does). */
export function nightStart(date: string, t: NightTime): Date {
  return new Date(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)), t.hour, t.minute, 0, 0)
}

/** The latest night whose start has passed at `now`. */
function latestStartedNight(now: Date, t: NightTime): string {
  const today = localDate(now)
  return nightStart(today, t).getTime() <= now.getTime() ? today : addDays(today, -1)
}

/**
 * Nights due at `now`, oldest first, at most `max` (the newest): every night
 * after `lastDone` whose start has passed. With no record yet, only the night
 * that has started today (if any) — a fresh install has missed nothing.
 */
export function dueNights(lastDone: string | undefined, now: Date, t: NightTime, max: number): string[] {
  const latest = latestStartedNight(now, t)
  if (lastDone === undefined) return latest === localDate(now) ? [latest] : []
  const out: string[] = []
  for (let d = latest; d > lastDone && out.length < Math.max(1, max); d = addDays(d, -1)) out.unshift(d)
  return out
}

/** Milliseconds until the next night starts strictly after `now`. */
export function msUntilNextNight(now: Date, t: NightTime): number {
  let date = localDate(now)
  while (nightStart(date, t).getTime() <= now.getTime()) date = addDays(date, 1)
  return nightStart(date, t).getTime() - now.getTime()
}

/**
 * How long a timer sleeps before it looks again: until the next night, but
 * never longer than `maxWakeMs`, so a clock that jumps is noticed soon; never
 * less than a second (a timer that fires "early" just looks and sleeps again).
 */
export function wakeDelay(now: Date, t: NightTime, maxWakeMs: number): number {
  return Math.max(1000, Math.min(msUntilNextNight(now, t), maxWakeMs, 2_147_483_647))
}
