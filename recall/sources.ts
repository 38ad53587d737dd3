import { ANCHOR_FILES, parseAnchor, entriesOf, findEntries, parseEntryFile, type Entry } from '../memory/format.ts'
import { walkFiles } from '../memory/files.ts'
import { dateOfEntryFile, isDateString, LAYOUT, NO_OUTPUT } from '../memory/paths.ts'
import type { RecallDoc } from './core/index.ts'
import { ANCHOR_KEYS, type AnchorKey } from '../memory/person.ts'

/**
 * What recall reads (CONTRACT#recall-sources): day entries, the
 * four anchors, and — when present — dream journals and the month/year
 * rollups. Each file kind becomes documents of its own source, so each has its
 * own weight in the index (`recall/core/options.ts` `sourceWeights`), and
 * each hit says where it came from. Pending entries are indexed (the cache
 * is shared with `cyrene memory search --pending`) and filtered out of recall.
 */
export type RecallArea = 'day' | 'pending' | 'anchor' | 'dream' | 'month' | 'year'

export interface RecallFile {
  area: RecallArea
  /** The day (YYYY-MM-DD), month (YYYY-MM) or year (YYYY) the file is for; '' for anchors. */
  date: string
}

/** One indexed document and what a hit on it shows. */
export interface RecallItem {
  doc: RecallDoc
  /** What the hit shows (entries: the entry text; other files: their text). */
  text: string
  date: string
  area: RecallArea
  /** An imported entry's `source_ref`, as imported. */
  sourceRef?: string
}

const DREAM_RE = /^梦境\/(\d{4})\/(\d{2})\/(\d{4}-\d{2}-\d{2})\.md$/
const MONTH_RE = /^岁月涟漪\/月响\/(\d{4})\/(\d{4})-(\d{2})\.md$/
const YEAR_RE = /^岁月涟漪\/年轮\/(\d{4})\.md$/
const ANCHOR_BY_FILE = new Map(ANCHOR_KEYS.map((k) => [`${LAYOUT.anchors}/${ANCHOR_FILES[k]}.md`, k]))

/** The kind of a recall file from its path relative to the root ('/'-separated), or undefined for any other file. */
export function recallFileOf(rel: string): RecallFile | undefined {
  const entry = dateOfEntryFile(rel)
  if (entry !== undefined) return entry
  if (ANCHOR_BY_FILE.has(rel)) return { area: 'anchor', date: '' }
  let m = DREAM_RE.exec(rel)
  if (m !== null && isDateString(m[3]!) && m[3]!.startsWith(`${m[1]}-${m[2]}`)) return { area: 'dream', date: m[3]! }
  m = MONTH_RE.exec(rel)
  if (m !== null && m[1] === m[2] && Number(m[3]) >= 1 && Number(m[3]) <= 12) return { area: 'month', date: `${m[2]}-${m[3]}` }
  m = YEAR_RE.exec(rel)
  if (m !== null) return { area: 'year', date: m[1]! }
  return undefined
}

/**
 * Every recall file of the store, relative to the root, sorted. Linked folders are not walked (fsio).
 * With `unreadable`, a folder this user may not open is named there and left out instead of failing the list.
 */
export async function listRecallFiles(root: string, unreadable?: string[]): Promise<string[]> {
  const out: string[] = []
  for (const dir of [LAYOUT.days, LAYOUT.pending, LAYOUT.dreams, LAYOUT.months, LAYOUT.years])
    for (const rel of await walkFiles(root, dir, unreadable)) if (recallFileOf(rel) !== undefined) out.push(rel)
  for (const rel of ANCHOR_BY_FILE.keys()) out.push(rel)
  return out.sort()
}

/** Hidden comments and heading marks are not words anyone said. */
function plainText(text: string): string {
  return text
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/^#{1,6}\s+/gm, '')
    .trim()
}

/**
 * A journal without the nights that dreamt nothing: every section that only says
 * 「本次未产出」 goes, and a journal left with its title alone is no document at all
 * (those words are not a memory, and came back for unrelated questions).
 */
function dreamsOf(text: string): string {
  const title = /^# [^\n]*\n?/.exec(text)?.[0] ?? ''
  const kept = text
    .slice(title.length)
    .split(/^(?=## )/m)
    .filter((s) => {
      const plain = plainText(s.replace(/^## [^\n]*\n?/, ''))
      return plain !== '' && plain !== NO_OUTPUT
    })
  return kept.length === 0 ? '' : title + kept.join('')
}

/** Pure: the documents of one recall file's text. */
export function itemsOfFile(rel: string, text: string): RecallItem[] {
  const file = recallFileOf(rel)
  if (file === undefined) return []
  if (file.area === 'day' || file.area === 'pending') return entriesOf(parseEntryFile(text, rel)).map((entry) => entryItem(file, entry))
  if (file.area === 'anchor') {
    const key = ANCHOR_BY_FILE.get(rel) as AnchorKey
    const doc = parseAnchor(text)
    const body = [doc.core, ...doc.sections.map((s) => s.text)].filter((t) => t.trim() !== '').join('\n')
    if (body === '') return []
    const newest = doc.sections.at(-1)?.date ?? ''
    return [{ doc: { id: `anchor:${key}`, text: body, at: newest, source: 'anchor' }, text: body, date: newest, area: 'anchor' }]
  }
  const body = plainText(file.area === 'dream' ? dreamsOf(text) : text)
  if (body === '') return []
  const at = file.area === 'dream' ? file.date : file.area === 'month' ? `${file.date}-01` : `${file.date}-01-01`
  const source = file.area === 'dream' ? 'dream' : 'rollup'
  return [{ doc: { id: `${file.area}:${file.date}`, text: body, at, source }, text: body, date: file.date, area: file.area }]
}

/** Pure: the documents `ids` of one recall file's text, as `itemsOfFile` holds them (the last of a repeated id); an entry's file is not parsed whole. */
export function itemsOfFileById(rel: string, text: string, ids: Iterable<string>): Map<string, RecallItem> {
  const file = recallFileOf(rel)
  const found = new Map<string, RecallItem>()
  if (file === undefined) return found
  if (file.area === 'day' || file.area === 'pending') {
    for (const [id, entry] of findEntries(text, ids)) found.set(id, entryItem(file, entry))
    return found
  }
  const wanted = new Set(ids)
  for (const item of itemsOfFile(rel, text)) if (wanted.has(item.doc.id)) found.set(item.doc.id, item)
  return found
}

function entryItem(file: RecallFile, entry: Entry): RecallItem {
  const meta = entry.meta
  const item: RecallItem = {
    doc: {
      id: meta.id,
      text: entry.text,
      at: typeof meta.at === 'string' ? meta.at : '',
      source: 'entry',
      ...(typeof meta.kind === 'string' ? { kind: meta.kind } : {}),
      ...(Array.isArray(meta.links) ? { links: meta.links.filter((l): l is string => typeof l === 'string') } : {}),
    },
    text: entry.text,
    date: file.date,
    area: file.area,
  }
  if (typeof meta.source_ref === 'string') item.sourceRef = meta.source_ref
  return item
}

/** How a hit names its source in the memory-hit block: the day for an entry, else the kind and period. */
export function sourceLabel(area: RecallArea, date: string, id: string): string {
  if (area === 'day' || area === 'pending') return date
  if (area === 'anchor') return `锚·${ANCHOR_FILES[id.slice('anchor:'.length) as AnchorKey] ?? ''}`
  if (area === 'dream') return `梦境 ${date}`
  return `${area === 'month' ? '月响' : '年轮'} ${date}`
}
