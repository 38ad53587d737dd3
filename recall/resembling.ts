import { join } from 'node:path'
import { fileStamp } from '../memory/files.ts'
import { findNearDuplicate } from '../memory/near-duplicate.ts'
import { headMarkFromRow, type HeadMark } from './appended.ts'
import { keeperCacheFile, ONE_SHOT_OPEN, readItems, readItemsAfterHead, readItemsById, RecallKeeper } from './keeper.ts'
import { listRecallFiles, recallFileOf, type RecallItem } from './sources.ts'
import { fingerprintDoc, tokenize } from './core/index.ts'
import { fileSource, readColumns, RecallFormatError, tokenizerSignature, type LoadedColumns } from './core/saved.ts'

/** How many of the saved index's most alike day entries are read and compared. */
const CANDIDATES = 8
/** More day files changed since the cache was saved than this: the index is opened and levelled (and saved) instead. */
const CHANGED_FILES_READ = 32

export interface Resembling {
  id: string
  date: string
  text: string
  similarity: number
}

/**
 * The day entry (other than `except`) that says what `text` says — the check of a
 * person's write (CONTRACT#near-duplicates). A write never reads the whole
 * store (decisions 032, 033): the candidates are the day entries of the saved index that
 * share the most terms with `text` (counted over the cache's lists of the text's own
 * terms, read alone; no index built), every entry of the day files changed since the cache was saved
 * (their stamps tell), and those of `sameFile` (the file the write went to); only
 * those files are read. Without a usable cache, or with many files changed, the
 * recall index is opened, levelled and saved instead.
 */
export async function resemblingDayEntry(root: string, text: string, except: string, sameFile: string): Promise<Resembling | undefined> {
  let candidates = await fromCache(root, text, except, sameFile)
  if (candidates === undefined) {
    candidates = await fromKeeper(root, text, except)
    for (const item of (await readItems(root, sameFile)) ?? []) if (item.area === 'day' && item.doc.id !== except) candidates.push(item)
  }
  const twin = findNearDuplicate(
    text,
    candidates.map((i) => ({ id: i.doc.id, date: i.date, text: i.text })),
  )
  return twin === undefined ? undefined : { ...twin.item, similarity: Math.round(twin.similarity * 100) / 100 }
}

async function fromKeeper(root: string, text: string, except: string): Promise<RecallItem[]> {
  const keeper = await RecallKeeper.open(root, ONE_SHOT_OPEN)
  const hits = (await keeper.search(text, CANDIDATES)).filter((h) => h.area === 'day' && h.id !== except)
  return hits.map((h) => ({ doc: { id: h.id, text: h.text, at: '', source: 'entry' }, text: h.text, date: h.date, area: h.area }))
}

interface SavedCache {
  columns: LoadedColumns
  /** Per file number: [rel, stamp]. */
  files: [string, string][]
  /** A day file's head as the cache was built from it, by rel (recall/appended.ts). */
  heads: Map<string, HeadMark>
  /** Per document: its file's number. */
  fileOf: number[]
  /** Document position by id, made when first asked for. */
  docOf: () => Map<string, number>
}

function readSaved(root: string): SavedCache | undefined {
  let source: ReturnType<typeof fileSource> | undefined
  try {
    source = fileSource(keeperCacheFile(root))
    const { columns, extra } = readColumns(source, tokenizerSignature())
    const e = extra as { files?: unknown; fileOf?: unknown } | null
    if (e === null || !Array.isArray(e.files) || !Array.isArray(e.fileOf) || e.fileOf.length !== columns.ids.length) return undefined
    const files = e.files as unknown[]
    if (!files.every((row) => Array.isArray(row) && typeof row[0] === 'string' && typeof row[1] === 'string')) return undefined
    if (!e.fileOf.every((n) => Number.isInteger(n) && (n as number) >= 0 && (n as number) < files.length)) return undefined
    let docOf: Map<string, number> | undefined
    const heads = new Map<string, HeadMark>()
    for (const row of files as unknown[][]) {
      const head = row.length > 2 ? headMarkFromRow(row.slice(2)) : undefined
      if (head !== undefined) heads.set(row[0] as string, head)
    }
    return {
      columns,
      heads,
      files: (files as unknown[][]).map((row) => [row[0], row[1]] as [string, string]),
      fileOf: e.fileOf as number[],
      docOf: () => (docOf ??= new Map(columns.ids.map((id, doc) => [id, doc]))),
    }
  } catch {
    source?.release()
    return undefined
  }
}

/**
 * The best few day entries by Dice over distinct terms, best first (ties: the earlier in the cache).
 * How many of the text's terms each entry holds is counted over the postings of those terms alone.
 */
function mostAlike(saved: SavedCache, text: string, except: string): { rel: string; id: string }[] {
  const { columns, files, fileOf } = saved
  const wanted = new Set(tokenize(text))
  const { offsets, ids } = columns
  const shared = new Uint32Array(ids.length)
  for (const [t, term] of columns.vocabulary.entries()) {
    if (!wanted.has(term)) continue
    const list = columns.postingsOf(t)
    for (let k = 0; k < list.length; k++) shared[list[k]! >> 8]!++
  }
  const isDay = files.map(([rel]) => recallFileOf(rel)?.area === 'day')
  // Kept sorted: few enough that insertion is the cheapest.
  const best: { score: number; doc: number }[] = []
  for (let doc = 0; doc < ids.length; doc++) {
    if (shared[doc] === 0) continue
    const score = (2 * shared[doc]!) / (wanted.size + (offsets[doc + 1]! - offsets[doc]!) / 2)
    if (best.length === CANDIDATES && score <= best.at(-1)!.score) continue
    if (!isDay[fileOf[doc]!] || ids[doc] === except) continue
    let at = best.length
    while (at > 0 && best[at - 1]!.score < score) at--
    best.splice(at, 0, { score, doc })
    if (best.length > CANDIDATES) best.pop()
  }
  return best.map(({ doc }) => ({ rel: files[fileOf[doc]!]![0], id: ids[doc]! }))
}

/** The candidate items from the saved index and the day files changed since; undefined when there is no usable cache or too much changed. */
async function fromCache(root: string, text: string, except: string, sameFile: string): Promise<RecallItem[] | undefined> {
  const saved = readSaved(root)
  if (saved === undefined) return undefined
  try {
    return await candidatesOf(root, saved, text, except, sameFile)
  } catch (error) {
    // A list of the cache that did not check out: the index is opened (and rebuilt) instead.
    if (error instanceof RecallFormatError) return undefined
    throw error
  } finally {
    saved.columns.release()
  }
}

async function candidatesOf(root: string, saved: SavedCache, text: string, except: string, sameFile: string): Promise<RecallItem[] | undefined> {
  // Day files written since the cache was saved (the write's own among them): their entries the cache does not hold as they
  // read now are candidates (the cache cannot rank them); those it holds unchanged it ranked with the rest.
  const stampOf = new Map(saved.files)
  const days = (await listRecallFiles(root)).filter((rel) => recallFileOf(rel)?.area === 'day')
  const stamps = await Promise.all(days.map((rel) => fileStamp(join(root, rel))))
  const changed = new Set(days.filter((rel, i) => stamps[i] !== undefined && stamps[i] !== stampOf.get(rel)))
  if (recallFileOf(sameFile)?.area === 'day') changed.add(sameFile)
  if (changed.size > CHANGED_FILES_READ) return undefined
  const alike = new Map<string, Set<string>>()
  for (const { rel, id } of mostAlike(saved, text, except)) alike.set(rel, (alike.get(rel) ?? new Set()).add(id))
  const out: RecallItem[] = []
  // The files as they are now: an entry changed since the cache was saved is compared as it reads today.
  for (const rel of changed) {
    const ranked = alike.get(rel)
    const head = saved.heads.get(rel)
    // A file that only grew since the cache was saved: what it holds in its head, the cache holds as it reads.
    const appended = head === undefined ? undefined : await readItemsAfterHead(root, rel, head)
    if (appended !== undefined) {
      for (const item of appended) {
        ranked?.delete(item.doc.id)
        if (item.area === 'day' && item.doc.id !== except) out.push(item)
      }
      if (ranked?.size === 0) alike.delete(rel)
      continue
    }
    alike.delete(rel)
    for (const item of (await readItems(root, rel)) ?? [])
      if (item.area === 'day' && item.doc.id !== except && (ranked?.has(item.doc.id) === true || !heldAsItReads(saved, item))) out.push(item)
  }
  for (const [rel, ids] of alike) for (const item of (await readItemsById(root, rel, ids)) ?? []) if (item.doc.id !== except) out.push(item)
  return out
}

/** The saved index holds this entry as it reads now (same id and fingerprint). */
function heldAsItReads(saved: SavedCache, item: RecallItem): boolean {
  const doc = saved.docOf().get(item.doc.id)
  return doc !== undefined && saved.columns.fingerprintOf(doc) === fingerprintDoc(item.doc)
}
