import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { LAYOUT, journalRel, dateOfEntryFile } from '../memory/paths.ts'
import type { MemoryStore } from '../memory/index.ts'
import { readTextOr } from '../memory/files.ts'

/** One day of the panel's calendar: entries kept, entries waiting in 待定, whether a dream journal exists. */
export interface CalendarDay {
  entries: number
  pending: number
  dream: boolean
}

const DREAM_FILE = /^(\d{4}-\d{2}-\d{2})\.md$/

/** Dates of the dream journals (梦境/YYYY/MM/YYYY-MM-DD.md); a missing folder is none. */
export async function dreamDates(store: MemoryStore): Promise<string[]> {
  const found: string[] = []
  const base = store.path(LAYOUT.dreams)
  const list = async (dir: string) => await readdir(dir, { withFileTypes: true }).catch(() => [])
  for (const year of await list(base)) {
    if (!year.isDirectory() || !/^\d{4}$/.test(year.name)) continue
    for (const month of await list(join(base, year.name))) {
      if (!month.isDirectory() || !/^\d{2}$/.test(month.name)) continue
      for (const file of await list(join(base, year.name, month.name))) {
        const m = DREAM_FILE.exec(file.name)
        if (file.isFile() && m !== null) found.push(m[1] as string)
      }
    }
  }
  return found.sort()
}

/** Entries per day over the whole store (the parsed files are cached by the store), dreams marked. */
export async function memoryCalendar(store: MemoryStore): Promise<Record<string, CalendarDay>> {
  const days: Record<string, CalendarDay> = {}
  const day = (date: string): CalendarDay => (days[date] ??= { entries: 0, pending: 0, dream: false })
  for (const rel of await store.entryFiles()) {
    const where = dateOfEntryFile(rel)
    if (where === undefined) continue
    const count = (await store.catalogFile(rel)).entries.length
    if (count === 0) continue
    if (where.area === 'day') day(where.date).entries += count
    else day(where.date).pending += count
  }
  for (const date of await dreamDates(store)) day(date).dream = true
  return days
}

export interface DayEntry {
  id: string
  text: string
  kind?: string
  area: 'day' | 'pending'
}

/** A day's entries for the calendar's click-through: text without its metadata comment. */
export async function entriesOfDay(store: MemoryStore, date: string): Promise<DayEntry[]> {
  const out: DayEntry[] = []
  for (const area of ['day', 'pending'] as const)
    for (const e of await store.entriesOfDate(date, area)) {
      const item: DayEntry = { id: e.id, text: e.text, area }
      if (typeof e.meta.kind === 'string') item.kind = e.meta.kind
      out.push(item)
    }
  return out
}

/**
 * That night's dream journal for the calendar's ☾ (null when there is none):
 * the text as written, without the store's metadata lines.
 */
export async function dreamOfDay(store: MemoryStore, date: string): Promise<string | null> {
  const text = await readTextOr(store.root, store.path(journalRel(date)), '')
  if (text === '') return null
  return text
    .split('\n')
    .filter((line) => !line.startsWith('<!--cyrene:'))
    .join('\n')
    .trim()
}
