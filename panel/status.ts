import { join } from 'node:path'
import type { Lang } from '../i18n/index.ts'
import { saidOr } from '../i18n/store-said.ts'
import { describeSnapshots, MANIFEST_FILE } from '../memory/upkeep.ts'
import { listConflicts } from '../memory/git.ts'
import { localDate } from '../memory/paths.ts'
import type { MemoryStore } from '../memory/index.ts'
import { readTextOr } from '../memory/files.ts'
import { dreamDates, memoryCalendar, type CalendarDay } from './calendar.ts'
import type { PanelDeps } from './deps.ts'
import type { SyncState } from '../siyuan/index.ts'
import { readDreamRegistry, type DreamRegistryView } from '../night/index.ts'

/** Everything the page shows, in one answer. No secret is in it: the token appears only as present or not. */
export interface PanelStatus {
  today: string
  engine: { kind: string; detail?: string; root?: string }
  store?: {
    usage: { totalBytes: number; marginBytes: number; limitBytes: number; marginLimitBytes: number }
    entries: number
    pending: number
    problems: string[]
  }
  recall: { kind: string; size?: number }
  lastDream: string | null
  sync: (SyncState & { tokenEnv: string; tokenPresent: boolean }) | null
  /** The git sync: the remote, its last run, the conflicts waiting for the person (CONTRACT#git-sync). */
  git: {
    remote: string | null
    lastRunAt?: string
    lastReport?: { ok: boolean; message: string }
    conflicts: Array<{ id: string; file: string; key: string; kind: string }>
  } | null
  snapshots: Array<{ name: string; verified: boolean; takenAt?: string }>
  /** The settings file's problems: the store's English, and in each language the page may be in (decision 083). */
  settings?: { values: unknown; problems: string[]; problemsIn: Record<Lang, string[]> }
  dreamRegistry?: DreamRegistryView
  calendar: Record<string, CalendarDay>
  /** The store guard's counts since DSH started: calls refused, changes by tool calls put back. */
  guard?: { refused: number; undone: number }
}

/** When a snapshot was taken, from its manifest (the page shows a time, not the folder name); absent when unreadable. */
async function takenAt(store: MemoryStore, name: string): Promise<string | undefined> {
  try {
    const manifest = JSON.parse(await readTextOr(store.snapshotsDir, join(store.snapshotsDir, name, MANIFEST_FILE), '')) as { taken_at?: unknown }
    return typeof manifest.taken_at === 'string' ? manifest.taken_at : undefined
  } catch {
    return undefined
  }
}

async function storePart(store: MemoryStore, calendar: Record<string, CalendarDay>): Promise<NonNullable<PanelStatus['store']>> {
  const usage = await store.measureUsage()
  let entries = 0
  let pending = 0
  for (const day of Object.values(calendar)) {
    entries += day.entries
    pending += day.pending
  }
  return {
    usage: { totalBytes: usage.total, marginBytes: usage.margin, limitBytes: store.limits.totalBytes, marginLimitBytes: store.limits.marginBytes },
    entries,
    pending,
    problems: [...store.settingsProblems],
  }
}

export async function panelStatus(deps: PanelDeps): Promise<PanelStatus> {
  // Right after DSH starts the engine may still be opening; its start never throws.
  await deps.memory.ready
  const state = deps.memory.doctorState()
  const store = deps.memory.store()
  const engine: PanelStatus['engine'] = { kind: state.engine.kind }
  if ('detail' in state.engine) engine.detail = state.engine.detail
  if ('root' in state.engine) engine.root = state.engine.root
  const recall: PanelStatus['recall'] = { kind: state.recall.index.kind }
  if (state.recall.index.kind === 'ready') recall.size = state.recall.index.counts.entries
  const status: PanelStatus = {
    today: localDate(new Date()),
    engine,
    recall,
    lastDream: null,
    sync: null,
    git: null,
    snapshots: [],
    calendar: {},
  }
  const guard = deps.guard?.()
  if (guard !== undefined) status.guard = guard
  if (store === undefined) return status
  const siyuan = store.settings.values.siyuan
  const tokenPresent = (deps.env[siyuan.tokenEnv] ?? '') !== ''
  status.sync = { ...(deps.sync?.state() ?? { enabled: siyuan.enabled, queued: 0 }), tokenEnv: siyuan.tokenEnv, tokenPresent }
  const git = deps.gitSync?.state()
  status.git = {
    remote: store.settings.values.git.remote === '' ? null : store.settings.values.git.remote,
    ...(git?.lastRunAt !== undefined ? { lastRunAt: git.lastRunAt } : {}),
    ...(git?.lastReport !== undefined ? { lastReport: { ok: git.lastReport.ok, message: git.lastReport.message } } : {}),
    conflicts: (await listConflicts(store)).conflicts.map((c) => ({ id: c.id, file: c.file, key: c.key, kind: c.kind })),
  }
  status.calendar = await memoryCalendar(store)
  status.store = await storePart(store, status.calendar)
  status.lastDream = (await dreamDates(store)).at(-1) ?? null
  const snapshots = await describeSnapshots(store)
  const last = snapshots.at(-1)
  const lastAt = last === undefined ? undefined : await takenAt(store, last.name)
  status.snapshots = snapshots.map((s) => (s === last && lastAt !== undefined ? { ...s, takenAt: lastAt } : s))
  const problemsIn = (lang: Lang) => store.settingsProblems.map((p, i) => saidOr(store.settingsSaid[i], p, lang))
  status.settings = { values: store.settings.values, problems: [...store.settingsProblems], problemsIn: { zh: problemsIn('zh'), en: problemsIn('en') } }
  status.dreamRegistry = await readDreamRegistry(store)
  return status
}
