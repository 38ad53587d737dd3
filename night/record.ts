import type { MemoryStore } from '../memory/index.ts'
import type { HeldLock } from '../durable/lock.ts'

/**
 * `元/梦夜.json`: what the night has done — the last night dreamt (the one
 * fact the schedule decides on), the month and year checked, the five-virtue
 * version the pending entries were last checked under, the latest new-volume
 * suggestion, and the last runs for the doctor. Written by the host under the
 * write lock; an unreadable file is reported and read as empty (the schedule
 * then catches up at most `maxCatchUpDays`, it never loops).
 */
const NIGHT_FILE = '梦夜.json'
const KEEP_RUNS = 20

interface NightRun {
  night: string
  at: string
  trigger: string
  /** 'journal' (the model wrote), 'no-output' (本次未产出), 'failed: …'. */
  outcome: string
  covered: string[]
}

export interface VolumeSuggestion {
  night: string
  reason: string
  changed: string
}

export interface NightRecord {
  version: 1
  lastNight?: string
  lastMonthCheck?: string
  lastYearCheck?: string
  wuyuChecked?: string
  suggestion?: VolumeSuggestion
  runs: NightRun[]
}

export async function readNightRecord(store: MemoryStore): Promise<{ record: NightRecord; problem?: string }> {
  const { value, problem } = await store.readMetaJson<Partial<NightRecord> | null>(NIGHT_FILE, null)
  const v = value !== null && typeof value === 'object' && !Array.isArray(value) ? value : {}
  const record: NightRecord = { version: 1, runs: Array.isArray(v.runs) ? v.runs.slice(-KEEP_RUNS) : [] }
  for (const k of ['lastNight', 'lastMonthCheck', 'lastYearCheck', 'wuyuChecked'] as const) if (typeof v[k] === 'string') record[k] = v[k]
  if (v.suggestion !== undefined && typeof v.suggestion === 'object' && v.suggestion !== null) record.suggestion = v.suggestion
  return problem === undefined ? { record } : { record, problem }
}

/** Change the record under the lock the caller holds (re-read there). */
export async function changeNightRecord(store: MemoryStore, lock: HeldLock, change: (r: NightRecord) => void): Promise<NightRecord> {
  const { record } = await readNightRecord(store)
  change(record)
  record.runs = record.runs.slice(-KEEP_RUNS)
  await store.writeMetaJson(NIGHT_FILE, record, lock)
  return record
}
