import { join } from 'node:path'
import { acquire, LockBusyError } from '../durable/lock.ts'
import { LAYOUT, localDate, journalRel, NO_OUTPUT } from '../memory/paths.ts'
import { listPending, snapshotIfDue, recheckPending, type RecheckReport } from '../memory/upkeep.ts'
import type { MemoryStore, StoredEntry } from '../memory/index.ts'
import { dreamBrief } from './brief.ts'
import { addDays, dueNights, parseNightTime } from './clock.ts'
import { appendJournal } from './journal.ts'
import { changeNightRecord, readNightRecord } from './record.ts'
import { enabledSessions, readRegistry } from './registry.ts'
import { writeRollups } from './rollups.ts'
import type { DreamConfig } from './config.ts'
import { runDreamModel, type Stream } from './model-run.ts'
import { dreamTools } from './tools.ts'

/**
 * One night's dream, start to end. The lease (`元/梦.lock`, the cross-process
 * lock of durable/lock.ts, tried once) makes it one dream at a time per
 * DSH_HOME; the record (`元/梦夜.json` `lastNight`) makes it one per night:
 * a scheduled or catch-up dream runs only for nights after the last one
 * dreamt, decided on local dates. `/dream` (force) always runs, for tonight,
 * and appends to tonight's journal.
 */
export interface NightDeps {
  store: MemoryStore
  config: DreamConfig
  stream: Stream
  /** The chat persona as the dream's system prompt. */
  system: () => string
  /** Today's lines of the people in live sessions (a supplied quote may come from them). */
  liveUserLines: () => readonly string[]
  /** DSH's default model (agentDefaultModel), used when no registered session recorded a route. */
  defaultRoute?: () => { provider: string; model: string } | undefined
  /** The five-virtue version of the current volume, if known. */
  wuyuVersion: () => Promise<string | undefined>
  signal?: AbortSignal
}

export type NightOutcome =
  | { kind: 'busy' }
  | { kind: 'not-due' }
  | { kind: 'no-model' }
  | {
      kind: 'dreamt'
      night: string
      covered: string[]
      journal: string
      wrote: boolean
      checks: { month?: RecheckReport; year?: RecheckReport }
      cut: { entries: number; pending: number }
      error?: string
    }

const LEASE = '梦.lock'

/** The route the dream runs on: the most recent registered session's, else DSH's default model, else the configured one. */
function routeOf(
  sessions: Array<{ provider?: string | undefined; model?: string | undefined }>,
  config: DreamConfig,
  fallback: { provider: string; model: string } | undefined,
) {
  for (const s of sessions)
    if (s.provider !== undefined && s.model !== undefined && s.provider !== '' && s.model !== '') return { provider: s.provider, model: s.model }
  if (fallback !== undefined && fallback.provider !== '' && fallback.model !== '') return fallback
  return config.provider !== '' && config.model !== '' ? { provider: config.provider, model: config.model } : undefined
}

function previousMonth(month: string): string {
  return addDays(`${month}-01`, -1).slice(0, 7)
}

/**
 * What every wake of a night timer does: the daily snapshot when the local day
 * has none yet (so snapshots appear while DSH runs, not only at its start),
 * then the night's dream if one is due. A failed snapshot is reported and the
 * dream still runs.
 */
export async function nightWake(deps: NightDeps, trigger: string, dream: boolean): Promise<{ snapshotError?: string; outcome?: NightOutcome }> {
  let snapshotError: string | undefined
  try {
    await snapshotIfDue(deps.store)
  } catch (e) {
    snapshotError = (e as Error).message
  }
  const outcome = dream ? await dreamNight(deps, { trigger, force: false }) : undefined
  return { ...(snapshotError === undefined ? {} : { snapshotError }), ...(outcome === undefined ? {} : { outcome }) }
}

export async function dreamNight(deps: NightDeps, opts: { trigger: string; force: boolean }): Promise<NightOutcome> {
  const { store } = deps
  let lease
  try {
    lease = await acquire({ path: join(store.root, LAYOUT.meta, LEASE), purpose: `dream (${opts.trigger})`, waitMs: 0, staleMs: store.lockStaleMs })
  } catch (e) {
    if (e instanceof LockBusyError) return { kind: 'busy' }
    throw e
  }
  try {
    return await underLease(deps, opts)
  } finally {
    await lease.release()
  }
}

async function underLease(deps: NightDeps, opts: { trigger: string; force: boolean }): Promise<NightOutcome> {
  const { store, config } = deps
  const now = store.now()
  const { record } = await readNightRecord(store)
  const due = dueNights(record.lastNight, now, parseNightTime(config.at), config.maxCatchUpDays)
  const today = localDate(now)
  const covered = opts.force ? [...due.filter((d) => d !== today), today].slice(-config.maxCatchUpDays) : due
  if (covered.length === 0) return { kind: 'not-due' }
  const night = covered.at(-1)!

  const registry = (await readRegistry(store)).registry
  const sessions = enabledSessions(registry)
  const route = routeOf(
    sessions.map(([, s]) => s),
    config,
    deps.defaultRoute?.(),
  )
  if (route === undefined) return { kind: 'no-model' }

  // Month / year checks and the five virtues: decided on the local date of this dream.
  const month = today.slice(0, 7)
  const year = today.slice(0, 4)
  const wuyu = await deps.wuyuVersion()
  const wuyuChanged = wuyu !== undefined && record.wuyuChecked !== undefined && record.wuyuChecked !== wuyu
  const monthDue = record.lastMonthCheck !== month || wuyuChanged
  const yearDue = record.lastYearCheck !== year
  const open = (await listPending(store)).filter((p) => p.record.tombstoned_at === undefined && p.record.promoted_id === undefined)
  // A month check looks at what was held back before this month; a new set of virtues, at everything.
  const dateOf = (e: StoredEntry) => (typeof e.meta.at === 'string' && !Number.isNaN(Date.parse(e.meta.at)) ? localDate(new Date(e.meta.at)) : today)
  const inScope = monthDue || yearDue ? open.filter((p) => wuyuChanged || dateOf(p) < `${month}-01`) : []

  const entries: StoredEntry[] = []
  for (const d of [...covered].reverse()) entries.push(...(await store.entriesOfDate(d, 'day')))
  const check = yearDue ? 'year' : monthDue ? 'month' : undefined
  const echo = [
    ...(record.lastMonthCheck !== month ? [{ kind: 'month' as const, period: previousMonth(month) }] : []),
    ...(yearDue ? [{ kind: 'year' as const, period: String(Number(year) - 1) }] : []),
  ]
  const brief = dreamBrief({
    nights: covered,
    sessions: sessions.map(([id, s]) => ({ id, lastUserText: s.lastUserText, lastActiveAt: s.lastActiveAt })),
    entries,
    pending: inScope,
    maxEntries: config.maxEntries,
    maxPending: config.maxPending,
    check: inScope.length > 0 ? check : undefined,
    monthEcho: echo.find((e) => e.kind === 'month')?.period,
    yearRing: echo.find((e) => e.kind === 'year')?.period,
  })
  const sessionLines = [...sessions.map(([, s]) => s.lastUserText), ...deps.liveUserLines()]
  const { tools, state } = dreamTools({
    store,
    night,
    heading: `${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')} · ${covered.length > 1 ? `补梦（${covered[0]} — ${night}）` : opts.force ? '夜梦（/dream）' : '夜梦'}`,
    journalMaxChars: config.journalMaxChars,
    pending: brief.shownPending,
    // A quote is found in that day's day entries or in what the person said: never in the pending entries,
    // which are the drafts waiting for a source (one would otherwise quote itself).
    quoteSources: async (e) => [...(await store.entriesOfDate(dateOf(e), 'day')).map((x) => x.text), ...sessionLines],
    echo,
  })

  let error: string | undefined
  try {
    await runDreamModel(deps.stream, {
      route,
      system: deps.system(),
      brief: brief.text,
      tools,
      maxRounds: config.maxRounds,
      signal: deps.signal ?? new AbortController().signal,
    })
  } catch (e) {
    error = (e as Error).message
  }
  const journal =
    state.journalWrites > 0
      ? undefined
      : await appendJournal(store, night, { heading: error === undefined ? '夜梦' : '夜梦（模型调用失败）', text: NO_OUTPUT }, config.journalMaxChars)

  const checks: { month?: RecheckReport; year?: RecheckReport } = {}
  const shown = new Set(brief.shownPending.map((e) => e.id))
  if (shown.size > 0 && error === undefined) {
    const amend = (e: StoredEntry) => state.amendments.get(e.id)
    const only = (e: StoredEntry) => shown.has(e.id)
    if (monthDue) checks.month = await recheckPending(store, { scope: 'month', by: 'model', amend, only, maxFails: config.maxFailedMonths })
    if (yearDue) checks.year = await recheckPending(store, { scope: 'year', by: 'model', amend, only })
  }
  await writeRollups(store, covered)

  await store.withWriteLock(async (lock) => {
    await changeNightRecord(store, lock, (r) => {
      if (r.lastNight === undefined || r.lastNight < night) r.lastNight = night
      if (error === undefined) {
        if (monthDue) r.lastMonthCheck = month
        if (yearDue) r.lastYearCheck = year
        if (wuyu !== undefined) r.wuyuChecked = wuyu
      }
      if (state.suggestion !== undefined) r.suggestion = { night, ...state.suggestion }
      r.runs.push({
        night,
        at: now.toISOString(),
        trigger: opts.trigger,
        outcome: error !== undefined ? `failed: ${error}` : state.journalWrites > 0 ? 'journal' : 'no-output',
        covered,
      })
    })
  })
  return {
    kind: 'dreamt',
    night,
    covered,
    journal: journal ?? journalRel(night),
    wrote: state.journalWrites > 0,
    checks,
    cut: brief.cut,
    ...(error === undefined ? {} : { error }),
  }
}
