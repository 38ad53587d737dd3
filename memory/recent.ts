import { closeSync, readFileSync, realpathSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { openRegularSync } from '../durable/read-regular.ts'
import { ANCHOR_FILES, anchorRel, parseAnchor } from './anchors.ts'
import { afterClosedComments, entriesOf, parseEntryFile, type Entry } from './entry.ts'
import { dayFileRel, localDate } from './paths.ts'
import { ANCHOR_KEYS, type AnchorKey } from './settings.ts'

/**
 * What `{{cyrene_memory}}` is made of, read straight from the files: the four
 * anchors and the newest day files. Synchronous, because DSH reads prompt
 * variables synchronously; the host composes the block and caches it, this
 * module only knows which files those are and how to read them.
 */

/** One anchor: its core (no date), then its dated sections newest first. */
export interface AnchorView {
  key: string
  title: string
  parts: { date?: string; text: string }[]
}
export interface RecentEntry {
  /** The entry's id, so recall can leave out what the block already shows (always set by readRecent). */
  id?: string
  date: string
  text: string
  /** The person wrote or imported it (the person-marks record backs a claim): kept first when not all fit. */
  persons?: boolean
}

export interface RecentFiles {
  root: string
  anchors: { key: AnchorKey; title: string; path: string }[]
  /** The day files of the last `days` local days, newest first (most do not exist). */
  days: { date: string; path: string }[]
}

export interface RecentMemory {
  anchors: AnchorView[]
  /** Entries of the recent days, newest first. */
  recent: RecentEntry[]
  /** The days that hold more entries than NEWEST_OF_A_DAY: only their newest were read (the doctor says so). */
  newestOnly: string[]
}

/**
 * How many of a day's newest entries the block can choose from. Far more than fit in it (≤ 1,200 characters,
 * a line at least 15): the person's own entries, taken first, are found among these.
 */
export const NEWEST_OF_A_DAY = 2000

/** The files the recent memory is read from, for `now`; a caller may watch them to know when to read again. */
export function recentFiles(root: string, days: number, now: Date = new Date()): RecentFiles {
  const anchors = ANCHOR_KEYS.map((key) => ({ key, title: ANCHOR_FILES[key], path: join(root, anchorRel(key)) }))
  const dayFiles = Array.from({ length: days }, (_, back) => {
    // Entries are filed under the local day they happened on, as the store files them.
    const date = localDate(new Date(now.getFullYear(), now.getMonth(), now.getDate() - back, 12))
    return { date, path: join(root, dayFileRel(date)) }
  })
  return { root, anchors, days: dayFiles }
}

/**
 * Reads the files: a missing or unreadable file counts as empty. Writes are
 * atomic renames, so a read sees a whole old or a whole new file.
 */
export function readRecent(files: RecentFiles, isPersons?: (entry: Entry) => boolean): RecentMemory {
  const readOr = insideReader(files.root)
  const recent: RecentEntry[] = []
  const newestOnly: string[] = []
  for (const { date, path } of files.days) {
    const text = readOr(path)
    if (text === '') continue
    // A day of more entries than a block could ever show (an import of undated lines puts them all in
    // today's file) is read from its newest on, not parsed whole for every step (decision 325).
    const from = afterClosedComments(text, NEWEST_OF_A_DAY + 1)
    if (from > 0) newestOnly.push(date)
    const newest = text.slice(from)
    for (const entry of entriesOf(parseEntryFile(newest, path)).reverse()) {
      const persons = isPersons?.(entry) === true
      recent.push({ id: entry.meta.id, date, text: entry.text, ...(persons ? { persons } : {}) })
    }
  }
  const anchors = files.anchors.map(({ key, title, path }) => ({ key, title, parts: anchorParts(readOr(path)) }))
  return { anchors, recent, newestOnly }
}

/** The person's core first, then the dated sections, newest first (the budget cuts the oldest). */
function anchorParts(file: string): AnchorView['parts'] {
  const doc = parseAnchor(file)
  return [{ text: doc.core }, ...[...doc.sections].reverse().map((s) => ({ date: s.date, text: s.text }))]
}

/**
 * Reads a store file, or '' when it is missing, unreadable or reached through
 * a symbolic link below the root (the file itself or a folder on the way): the
 * store never shows what a link points at (CONTRACT#no-links; `check` reports it).
 */
export function insideReader(root: string): (path: string) => string {
  let realRoot: string | undefined
  try {
    realRoot = realpathSync(root)
  } catch {
    realRoot = undefined
  }
  return (path) => {
    if (realRoot === undefined) return ''
    let fd: number | undefined
    try {
      // Never waiting: a FIFO a tool call's process renamed in under a day file's name would stop the turn.
      fd = openRegularSync(path)
      if (realpathSync(dirname(path)) !== join(realRoot, relative(root, dirname(path)))) return ''
      return readFileSync(fd, 'utf8')
    } catch {
      return ''
    } finally {
      if (fd !== undefined) closeSync(fd)
    }
  }
}
