import { existsSync } from 'node:fs'
import type { Hash } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { decodeUtf8, readNoFollow, readNoFollowSync, stampOf, type FileStamp, yielder } from '../memory/files.ts'
import { afterMarkedHead, emptyHead, headMarkOf, headMarkRow, type HeadMark } from './appended.ts'
import { readKeeperCache, writeKeeperCache, writeRecallSeal, type CacheSeal, type FileState } from './cache.ts'
import { itemsOfFile, itemsOfFileById, listRecallFiles, recallFileOf, type RecallArea, type RecallItem } from './sources.ts'
import { describeSilence, RecallIndex, type SearchOptions, type SilenceReason } from './core/index.ts'
import { RecallFormatError } from './core/saved.ts'

export { dropRecallCache, keeperCacheFile, legacySearchCacheFile, recallCacheDir } from './cache.ts'

export interface RecalledEntry {
  id: string
  score: number
  text: string
  /** The entry's day, or the period of a dream/rollup ('' for an anchor without sections). */
  date: string
  area: RecallArea
  /** The file it was read from, relative to the root. */
  file: string
  /** An imported entry's source_ref, as imported. */
  sourceRef?: string
}

export interface RecallSearchOptions {
  now?: Date
  /** Pending entries too (the person's `search --pending`); recall never shows them. */
  includePending?: boolean
  /** false: no translation (a same-language look-up: the dictionary is not loaded). */
  translate?: boolean
}

/** How the index of a keeper came to be, for the doctor and the bench. */
export interface KeeperOpenReport {
  cache: 'used' | 'missing' | 'rebuilt'
  /** Files read (not just looked at) to bring the index level. */
  filesRead: number
  saveError?: string
  /**
   * The seal of the cache this open wrote, left for DSH's thread to keep when the keeper runs in the
   * recall worker (`ownThread`): the store guard knows only that thread's writes as the host's.
   */
  seal?: CacheSeal
}

const STAT_BATCH = 64
/**
 * How a one-shot command (the person's search, recall, write) opens the keeper: the cache's lists read
 * only as a search wants them (`lean`), and saved back only when at least 16 files were read again
 * (decisions 031, 033).
 */
export const ONE_SHOT_OPEN: KeeperOpenOptions = { saveFrom: 16, lean: true }

export interface KeeperOpenOptions {
  /** false: neither read nor write the cache. */
  cache?: boolean
  /** Save a usable cache back only when at least this many files were read again (default 1). */
  saveFrom?: number
  /** Read the cache's term lists as they are wanted instead of all at once. */
  lean?: boolean
  /**
   * The keeper's thread waits on nothing else (the recall worker): a hit's file is read in one
   * blocking call instead of four trips through the thread pool, most of a search's cost at 10,000 entries.
   */
  ownThread?: boolean
  /**
   * A recall folder this user may not open (a month at mode 0000) is left out and named in
   * `counts().unreadable` instead of failing every search: a turn recalls the rest (CONTRACT#never-stall).
   * Without it the listing throws, and the person's command says which folder and the chmod.
   */
  skipUnreadable?: boolean
}

/** How many documents of each kind the index holds: `entries` is the store's own count of entries (day files and 余页/待定). */
export interface RecallCounts {
  entries: number
  day: number
  pending: number
  anchors: number
  dreams: number
  rollups: number
  /** Folders (relative to the root) the last look at every file could not open: their memories are not in the index. */
  unreadable?: string[]
}

/** Why the latest search found nothing (recall/core/abstain.ts), as a code and a sentence. */
export interface RecallSilence {
  /** abstain.ts's reasons; `left-out` (the CLI): hits were found but none was injected. */
  reason: SilenceReason | 'left-out'
  /** The English sentence (logs, `--json`); a person reads the reason in their language (i18n/recall.ts). */
  text: string
  /** For a reason that is a matter of coverage (`low-coverage` … `missing-thing`): the share of the message the best memory covers, and the share needed. */
  coverage?: number
  needed?: number
}

/**
 * The recall index of a store, kept level with its files: anchors, day and
 * pending entries, dream journals and rollups (recall/sources.ts). It keeps only
 * the index and, per file, its stamp (size + mtime) and ids; a hit's text is
 * read from its file when it is shown, so nothing but the index is held in
 * memory and the cache loads without reading a single memory file unless it
 * changed. `refresh(changed)` re-reads just the files named (the host's
 * watcher knows them, recall/watch.ts); `refresh()` looks at every file's
 * stamp. Long loops hand the event loop back every few milliseconds
 * (yielder.ts), so whoever runs a keeper keeps answering.
 */
export class RecallKeeper {
  /** Set by every search: why it found nothing, or undefined when it found something. */
  lastSilence: RecallSilence | undefined
  /** How many files read again were day files that had only grown, of which only what was appended was parsed. */
  grownReads = 0

  readonly root: string
  private index: RecallIndex
  private files: Map<string, FileState>
  private where = new Map<string, string>()
  /** The files of 余页/待定 among `files`: their entries are never recalled. */
  private pendingFiles = new Set<string>()
  /** counts() as of the last change: every answer of the worker carries them, and counting walks every id. */
  private countsKept: RecallCounts | undefined
  /** The texts of files hits came from lately, by the stamp they were read at: a hit's text without reading its file again. */
  private readonly shownFiles = new Map<string, { stamp: FileStamp; text: string }>()
  private shownChars = 0
  /** A hit's file is read in one blocking call (KeeperOpenOptions.ownThread). */
  private readonly blockingReads: boolean
  /** KeeperOpenOptions.skipUnreadable, and the folders the last full look left out. */
  private readonly skipUnreadable: boolean
  private unreadable: string[] = []
  readonly opened: KeeperOpenReport

  private constructor(root: string, index: RecallIndex, files: Map<string, FileState>, opened: KeeperOpenReport, opts: KeeperOpenOptions) {
    this.root = root
    this.blockingReads = opts.ownThread === true
    this.skipUnreadable = opts.skipUnreadable === true
    this.index = index
    this.files = files
    this.opened = opened
    for (const [rel, state] of files) {
      for (const id of state.ids) this.where.set(id, rel)
      if (recallFileOf(rel)?.area === 'pending') this.pendingFiles.add(rel)
    }
  }

  /**
   * The keeper of the store at `root`: the cache brought level with the files (and saved back when it changed), or a fresh build.
   * `cache: false` neither reads nor writes the cache: parsing and writing it are single blocks of work a
   * thread cannot hand back in between, so the in-process fallback builds in slices instead.
   * `saveFrom`: save a usable cache back only when at least this many files were read again (default 1).
   * A one-shot command passes more: writing the whole cache back for one changed day file costs more than
   * reading that file again next time (decision 031); a missing or broken cache is always saved.
   */
  static async open(root: string, opts: KeeperOpenOptions = {}): Promise<RecallKeeper> {
    // No store yet (a command line search on a fresh home): nothing to index, and no cache is made for it.
    if (!existsSync(root)) opts = { ...opts, cache: false }
    try {
      return await RecallKeeper.openWith(root, opts, true)
    } catch (error) {
      // A list of the cache that did not check out when it was read: rebuilt from the files, never trusted.
      if (error instanceof RecallFormatError) return await RecallKeeper.openWith(root, opts, false)
      throw error
    }
  }

  private static async openWith(root: string, opts: KeeperOpenOptions, useCache: boolean): Promise<RecallKeeper> {
    const cached = opts.cache === false ? undefined : useCache ? await readKeeperCache(root, opts.lean === true) : 'bad'
    const usable = typeof cached === 'object' ? cached : undefined
    const keeper = new RecallKeeper(
      root,
      usable?.index ?? new RecallIndex(),
      usable?.files ?? new Map(),
      {
        cache: cached === undefined ? 'missing' : cached === 'bad' ? 'rebuilt' : 'used',
        filesRead: 0,
      },
      opts,
    )
    const read = await keeper.refresh()
    keeper.opened.filesRead = read
    if (opts.cache !== false && (read >= Math.max(1, opts.saveFrom ?? 1) || keeper.opened.cache !== 'used')) {
      const error = await keeper.save()
      if (error !== undefined) keeper.opened.saveError = error
    }
    return keeper
  }

  /** Built again from the files alone, in place (a list of the cache failed its check during a search), and saved. */
  private async rebuild(): Promise<void> {
    const fresh = await RecallKeeper.openWith(this.root, { saveFrom: 1, ownThread: this.blockingReads, skipUnreadable: this.skipUnreadable }, false)
    this.index = fresh.index
    this.unreadable = fresh.unreadable
    this.files = fresh.files
    this.where = fresh.where
    this.pendingFiles = fresh.pendingFiles
    this.shownFiles.clear()
    this.shownChars = 0
    this.countsKept = undefined
    this.opened.cache = 'rebuilt'
    this.opened.filesRead += fresh.opened.filesRead
  }

  get size(): number {
    return this.index.size
  }

  /** The documents by kind, as indexed (no file is read); counted again only after a file was read again or forgotten. */
  counts(): RecallCounts {
    this.countsKept ??= this.countNow()
    const kept = this.countsKept
    return kept.unreadable === undefined ? { ...kept } : { ...kept, unreadable: [...kept.unreadable] }
  }

  private countNow(): RecallCounts {
    const c: RecallCounts = { entries: 0, day: 0, pending: 0, anchors: 0, dreams: 0, rollups: 0 }
    const areas = new Map<string, RecallArea | undefined>()
    for (const rel of this.where.values()) {
      let area = areas.get(rel)
      if (!areas.has(rel)) areas.set(rel, (area = recallFileOf(rel)?.area))
      if (area === 'day') c.day++
      else if (area === 'pending') c.pending++
      else if (area === 'anchor') c.anchors++
      else if (area === 'dream') c.dreams++
      else c.rollups++
    }
    c.entries = c.day + c.pending
    if (this.unreadable.length > 0) c.unreadable = [...this.unreadable]
    return c
  }

  /** Write the cache; returns why it could not be written (a cache is derived data: that only costs the next start time). */
  async save(): Promise<string | undefined> {
    try {
      const columns = this.index.toColumns()
      const rels = [...this.files.keys()]
      const number = new Map(rels.map((rel, i) => [rel, i]))
      // Per document (in the columns' order), the number of its file: no id is written twice.
      const fileOf = columns.ids.map((id) => number.get(this.where.get(id)!)!)
      const files = rels.map((rel) => {
        const state = this.files.get(rel)!
        return [rel, state.stamp, ...(state.head === undefined ? [] : headMarkRow(state.head))]
      })
      const seal = await writeKeeperCache(this.root, columns, files, fileOf)
      if (this.blockingReads) this.opened.seal = seal
      else await writeRecallSeal(this.root, seal)
      return undefined
    } catch (error) {
      return (error as Error).message
    }
  }

  /**
   * Bring the index level with the files. Without `changed`, every recall
   * file's stamp is looked at (O(files)); with it, only those files (O(changes)).
   * Returns how many files were read again.
   */
  async refresh(changed?: Iterable<string>): Promise<number> {
    const pause = yielder()
    let read = 0
    if (changed !== undefined) {
      for (const rel of new Set(changed)) {
        if (recallFileOf(rel) === undefined) continue
        const st = await statOf(join(this.root, rel))
        if (st === undefined) read += this.forgetFile(rel) ? 1 : 0
        else if (this.files.get(rel)?.stamp !== st) {
          await this.reread(rel, st)
          read++
        }
        await pause()
      }
      return read
    }
    const unreadable: string[] | undefined = this.skipUnreadable ? [] : undefined
    const rels = await listRecallFiles(this.root, unreadable)
    if (unreadable !== undefined && unreadable.join('\n') !== this.unreadable.join('\n')) {
      this.unreadable = unreadable
      this.countsKept = undefined
    }
    const seen = new Set(rels)
    for (let i = 0; i < rels.length; i += STAT_BATCH) {
      const batch = rels.slice(i, i + STAT_BATCH)
      // Stats in parallel batches: the thread pool answers several at once, sequential awaits do not.
      const stamps = await Promise.all(batch.map((rel) => statOf(join(this.root, rel))))
      for (const [k, rel] of batch.entries()) {
        const stamp = stamps[k]
        if (stamp === undefined) {
          if (this.forgetFile(rel)) read++
        } else if (this.files.get(rel)?.stamp !== stamp) {
          await this.reread(rel, stamp)
          read++
        }
        await pause()
      }
    }
    // Deleting the key being visited is well-defined for a Map.
    for (const rel of this.files.keys()) if (!seen.has(rel) && this.forgetFile(rel)) read++
    return read
  }

  private forgetFile(rel: string): boolean {
    const state = this.files.get(rel)
    if (state === undefined) return false
    this.countsKept = undefined
    this.forget(state.ids, rel)
    this.files.delete(rel)
    this.pendingFiles.delete(rel)
    return true
  }

  private forget(ids: readonly string[], rel: string): void {
    for (const id of ids) {
      // An id may have moved to another file (a hand edit); only forget it where it was.
      if (this.where.get(id) !== rel) continue
      this.index.remove(id)
      this.where.delete(id)
    }
  }

  private async reread(rel: string, stamp: FileStamp): Promise<void> {
    this.countsKept = undefined
    const before = this.files.get(rel)
    const bytes = await fileBytes(this.root, rel)
    const grown = bytes === undefined ? undefined : grownFile(rel, bytes, before)
    if (grown !== undefined) this.grownReads++
    const read = grown ?? (bytes === undefined ? undefined : wholeFile(rel, bytes))
    if (read === undefined) {
      this.forgetFile(rel)
      return
    }
    const keep = new Set(read.ids)
    this.forget(
      (before?.ids ?? []).filter((id) => !keep.has(id)),
      rel,
    )
    const pause = yielder()
    for (const item of read.items) {
      this.index.update(item.doc)
      this.where.set(item.doc.id, rel)
      await pause()
    }
    this.files.set(rel, { stamp, ids: read.ids, ...(read.head === undefined ? {} : { head: read.head }) })
    if (recallFileOf(rel)?.area === 'pending') this.pendingFiles.add(rel)
  }

  /**
   * The best `limit` documents, pending entries left out unless asked for. A
   * filter is called for every scored document (all of them, for a common
   * word); with few pending entries it is cheaper to rank `limit + pending`
   * without one and drop those — the same result, since no more than that
   * many pending entries can rank above the `limit`-th allowed document.
   */
  private ranked(query: string, limit: number, opts: RecallSearchOptions): ReturnType<RecallIndex['search']> {
    const now = opts.now ?? new Date()
    const translate = opts.translate !== false
    let pending = 0
    for (const rel of this.pendingFiles) pending += this.files.get(rel)?.ids.length ?? 0
    if (opts.includePending === true || pending === 0) return this.explained(query, { limit, now, translate })
    const isPending = (id: string): boolean => this.pendingFiles.has(this.where.get(id) ?? '')
    if (pending <= FEW_PENDING)
      return this.explained(query, { limit: limit + pending, now, translate })
        .filter((h) => !isPending(h.id))
        .slice(0, limit)
    return this.explained(query, { limit, now, translate, filter: (id) => !isPending(id) })
  }

  /** The index's answer, with why it was empty kept for the caller (`lastSilence`). */
  private explained(query: string, options: SearchOptions): ReturnType<RecallIndex['search']> {
    const answer = this.index.explain(query, options)
    const s = answer.silence
    this.lastSilence =
      s === undefined
        ? undefined
        : {
            reason: s.reason,
            text: describeSilence(s),
            // The index states a share needed exactly for the reasons that are a matter of coverage.
            ...(s.needed !== undefined ? { coverage: s.coverage, needed: s.needed } : {}),
          }
    return answer.hits
  }

  /** The text of one file (in one blocking call on a thread of its own); undefined when it cannot be read (gone, a link, not a file). */
  private async textOf(rel: string): Promise<string | undefined> {
    const path = join(this.root, rel)
    try {
      return decodeUtf8(this.blockingReads ? readNoFollowSync(path) : await readNoFollow(path)).text
    } catch {
      return undefined
    }
  }

  /** Documents `ids` of file `rel` as of the stamp the index has for it (the file read again only when that changed; only those entries parsed). */
  private async itemsOf(rel: string, ids: readonly string[]): Promise<Map<string, RecallItem>> {
    const stamp = this.files.get(rel)?.stamp
    const kept = this.shownFiles.get(rel)
    if (kept !== undefined && stamp !== undefined && kept.stamp === stamp) {
      // Most recently used last.
      this.shownFiles.delete(rel)
      this.shownFiles.set(rel, kept)
      return itemsIn(rel, kept.text, ids)
    }
    const text = await this.textOf(rel)
    if (text === undefined) return new Map()
    if (stamp !== undefined) {
      const replaced = this.shownFiles.get(rel)
      if (replaced !== undefined) {
        this.shownChars -= replaced.text.length
        this.shownFiles.delete(rel)
      }
      this.shownFiles.set(rel, { stamp, text })
      this.shownChars += text.length
      while (this.shownFiles.size > SHOWN_FILES_KEPT || this.shownChars > SHOWN_CHARS_KEPT) {
        const [oldest, { text: gone }] = this.shownFiles.entries().next().value!
        this.shownChars -= gone.length
        this.shownFiles.delete(oldest)
      }
    }
    return itemsIn(rel, text, ids)
  }

  /**
   * The best `limit` documents for a message as the index ranks them (pending
   * entries filtered out inside the ranking unless asked for), each with its
   * text read from its file now.
   */
  async search(query: string, limit: number, opts: RecallSearchOptions = {}): Promise<RecalledEntry[]> {
    let hits: ReturnType<RecallIndex['search']>
    try {
      hits = this.ranked(query, limit, opts)
    } catch (error) {
      if (!(error instanceof RecallFormatError)) throw error
      await this.rebuild()
      hits = this.ranked(query, limit, opts)
    }
    // Each file the hits came from is read and searched once for all of its hits.
    const idsByFile = new Map<string, string[]>()
    for (const hit of hits) {
      const rel = this.where.get(hit.id)!
      const ids = idsByFile.get(rel)
      if (ids === undefined) idsByFile.set(rel, [hit.id])
      else ids.push(hit.id)
    }
    const items = new Map<string, RecallItem>()
    for (const [rel, ids] of idsByFile) for (const [id, item] of await this.itemsOf(rel, ids)) items.set(id, item)
    const out: RecalledEntry[] = []
    for (const hit of hits) {
      const rel = this.where.get(hit.id)!
      const item = items.get(hit.id)
      // Changed since it was indexed (the next refresh sees it): not shown rather than shown stale.
      if (item === undefined) continue
      const entry: RecalledEntry = { id: hit.id, score: hit.score, text: item.text, date: item.date, area: item.area, file: rel }
      if (item.sourceRef !== undefined) entry.sourceRef = item.sourceRef
      out.push(entry)
    }
    return out
  }
}

/**
 * The texts of files hits came from lately, by stamp: a conversation comes back to the same memories turn after
 * turn. Bounded by count and by characters (a day file of 100,000 imported lines is 27 MB: never more than one such).
 */
const SHOWN_FILES_KEPT = 512
const SHOWN_CHARS_KEPT = 8_000_000
const FEW_PENDING = 256

async function statOf(path: string): Promise<FileStamp | undefined> {
  try {
    const st = await stat(path)
    return st.isFile() ? stampOf(st) : undefined
  } catch {
    return undefined
  }
}

/** The bytes of one file; undefined when it cannot be read (gone, a link, not a file). */
async function fileBytes(root: string, rel: string): Promise<Buffer | undefined> {
  try {
    return await readNoFollow(join(root, rel))
  } catch {
    return undefined
  }
}

/** The text of one file; undefined when it cannot be read (gone, a link, not a file). */
async function fileText(root: string, rel: string): Promise<string | undefined> {
  const bytes = await fileBytes(root, rel)
  return bytes === undefined ? undefined : decodeUtf8(bytes).text
}

/**
 * The documents after a day file's marked head, when the head still reads as it was marked (recall/appended.ts);
 * undefined when it does not, or the file cannot be read: then the file is to be read whole.
 */
export async function readItemsAfterHead(root: string, rel: string, mark: HeadMark): Promise<RecallItem[] | undefined> {
  const bytes = await fileBytes(root, rel)
  return bytes === undefined ? undefined : itemsAfterHead(rel, bytes, mark)?.items
}

/** The documents after a day file's marked head, with that text and the head's hash; undefined when the head changed or what follows cannot be read as entries. */
function itemsAfterHead(rel: string, bytes: Buffer, mark: HeadMark): { items: RecallItem[]; after: { text: string; head: Hash } } | undefined {
  if (!holdsEntries(rel)) return undefined
  const after = afterMarkedHead(bytes, mark)
  if (after === undefined) return undefined
  try {
    return { items: itemsOfFile(rel, after.text), after }
  } catch {
    return undefined
  }
}

/** A file read again: the ids it holds now, the documents to put in the index, and the mark of its head for next time. */
interface FileRead {
  ids: string[]
  items: RecallItem[]
  head?: HeadMark
}

const holdsEntries = (rel: string): boolean => {
  const area = recallFileOf(rel)?.area
  return area === 'day' || area === 'pending'
}

const idsIn = (rel: string) => (text: string) => itemsOfFile(rel, text).map((item) => item.doc.id)

/** The whole file parsed; undefined when it cannot be read as its kind. */
function wholeFile(rel: string, bytes: Buffer): FileRead | undefined {
  const { text, valid } = decodeUtf8(bytes)
  let items: RecallItem[]
  try {
    items = itemsOfFile(rel, text)
  } catch {
    return undefined
  }
  const ids = [...new Set(items.map((item) => item.doc.id))]
  // Text that was not UTF-8 is read with replacements, whose lengths are not the bytes': no mark.
  const head = valid && holdsEntries(rel) && ids.length === items.length ? headMarkOf(bytes, 0, text, emptyHead(), idsIn(rel)) : undefined
  return { ids, items, ...(head === undefined ? {} : { head }) }
}

/**
 * A day file that only grew since it was read (its head's bytes unchanged): only what follows the head is
 * parsed, and the documents of the head stay as they are in the index. Undefined when it did not only grow, or
 * when what came after repeats an id (the whole file decides which of a repeated id is kept).
 */
function grownFile(rel: string, bytes: Buffer, before: FileState | undefined): FileRead | undefined {
  const mark = before?.head
  if (mark === undefined) return undefined
  const grown = itemsAfterHead(rel, bytes, mark)
  if (grown === undefined) return undefined
  const { items, after } = grown
  const wasAfter = new Set(mark.tailIds)
  const headIds = before!.ids.filter((id) => !wasAfter.has(id))
  const inHead = new Set(headIds)
  const tailIds = items.map((item) => item.doc.id)
  if (new Set(tailIds).size !== tailIds.length || tailIds.some((id) => inHead.has(id))) return undefined
  const head = headMarkOf(bytes, mark.cut, after.text, after.head, idsIn(rel))
  return { ids: [...headIds, ...tailIds], items, ...(head === undefined ? {} : { head }) }
}

/** The documents of one file; undefined when it cannot be read (gone, a link, not a file). */
export async function readItems(root: string, rel: string): Promise<RecallItem[] | undefined> {
  const text = await fileText(root, rel)
  if (text === undefined) return undefined
  try {
    return itemsOfFile(rel, text)
  } catch {
    return undefined
  }
}

/**
 * The documents `ids` of one file, in the order of their ids (a day's entries are written in that order);
 * each found without parsing the rest of the file, which may hold a hundred thousand entries. Undefined when it cannot be read.
 */
export async function readItemsById(root: string, rel: string, ids: ReadonlySet<string>): Promise<RecallItem[] | undefined> {
  const text = await fileText(root, rel)
  if (text === undefined) return undefined
  const found = itemsIn(rel, text, ids)
  return [...ids].sort().flatMap((id) => found.get(id) ?? [])
}

/** Documents `ids` of a file's text; those it does not hold, or all of them when it cannot be read as its kind, are left out. */
function itemsIn(rel: string, text: string, ids: Iterable<string>): Map<string, RecallItem> {
  try {
    return itemsOfFileById(rel, text, ids)
  } catch {
    return new Map()
  }
}
