import { LAYOUT, localDate } from '../memory/paths.ts'
import type { MemoryStore, StoredEntry } from '../memory/index.ts'

/**
 * `档/`: statistics derived from the entries by code, never by the model —
 * per day, kind, axis and gate outcome, one file per month
 * (`档/YYYY/YYYY-MM.json`) and one per year (`档/YYYY/YYYY.json`). Derived
 * data: rewritten whole from the files each time, so it can never drift.
 */
interface Rollup {
  period: string
  total: number
  byDay: Record<string, number>
  byKind: Record<string, number>
  byAxis: Record<string, number>
  byGate: Record<string, number>
}

function dateOf(e: StoredEntry): string | undefined {
  if (typeof e.meta.at !== 'string' || Number.isNaN(Date.parse(e.meta.at))) return undefined
  return localDate(new Date(e.meta.at))
}

const bump = (m: Record<string, number>, k: string) => {
  m[k] = (m[k] ?? 0) + 1
}

/** The rollup of every entry whose local date starts with `period` (YYYY or YYYY-MM). Pure. */
function rollupOf(entries: readonly StoredEntry[], period: string): Rollup {
  const r: Rollup = { period, total: 0, byDay: {}, byKind: {}, byAxis: {}, byGate: {} }
  for (const e of entries) {
    const date = dateOf(e)
    if (date === undefined || !date.startsWith(period)) continue
    r.total++
    bump(r.byDay, date)
    bump(r.byKind, typeof e.meta.kind === 'string' ? e.meta.kind : '（无）')
    bump(r.byAxis, typeof e.meta.axis === 'string' ? e.meta.axis : '（无）')
    bump(r.byGate, typeof e.meta.gate === 'string' ? e.meta.gate : e.area === 'pending' ? 'pending' : 'day')
  }
  return r
}

function rollupRel(period: string): string {
  return `${LAYOUT.rolling}/${period.slice(0, 4)}/${period}.json`
}

/** Rewrite the month and year rollups of these dates; returns the files written. */
export async function writeRollups(store: MemoryStore, dates: readonly string[]): Promise<string[]> {
  const periods = [...new Set(dates.flatMap((d) => [d.slice(0, 7), d.slice(0, 4)]))].sort()
  if (periods.length === 0) return []
  const { entries } = await store.scan()
  const written: string[] = []
  await store.withWriteLock(async (lock) => {
    for (const p of periods) {
      const rel = rollupRel(p)
      await store.replaceFile(rel, `${JSON.stringify(rollupOf(entries, p), null, 2)}\n`, lock)
      written.push(rel)
    }
  })
  return written
}
