import { readFile } from 'node:fs/promises'
import { entriesOf, parseEntryFile } from './entry.ts'
import { fileStamp, type FileStamp } from './file-stamp.ts'
import { dateOfEntryFile } from './paths.ts'
import { docOf, loadRecall } from './recall-store.ts'
import type { RecallIndex } from './recall/index.ts'
import type { MemoryStore } from './store.ts'

export interface RecalledEntry {
  id: string
  score: number
  text: string
  date: string
}

const STAT_BATCH = 64

interface FileState {
  stamp: FileStamp
  ids: string[]
}
interface EntryInfo {
  text: string
  date: string
  area: 'day' | 'pending'
}

/**
 * The recall index of a running engine, kept level with the files: before each
 * search it looks at every entry file's size and time and re-reads only those
 * that changed, so what the person wrote by hand or with the command line is
 * found on the very next turn. Pending entries stay indexed (the cache is
 * shared with `cyrene memory search`) but are never recalled: they did not
 * pass the gate.
 */
export class RecallKeeper {
  private readonly store: MemoryStore
  private readonly index: RecallIndex
  private readonly files = new Map<string, FileState>()
  private readonly entries = new Map<string, EntryInfo>()

  private constructor(store: MemoryStore, index: RecallIndex) {
    this.store = store
    this.index = index
  }

  static async open(store: MemoryStore): Promise<RecallKeeper> {
    const { entries } = await store.scan()
    const { index } = await loadRecall(store, entries)
    const keeper = new RecallKeeper(store, index)
    const byFile = new Map<string, string[]>()
    for (const e of entries) {
      const where = dateOfEntryFile(e.file)
      if (where === undefined) continue
      keeper.entries.set(e.id, { text: e.text, date: where.date, area: where.area })
      byFile.set(e.file, [...(byFile.get(e.file) ?? []), e.id])
    }
    for (const [file, ids] of byFile) keeper.files.set(file, { stamp: (await fileStamp(store.path(file))) ?? '', ids })
    return keeper
  }

  get size(): number {
    return this.entries.size
  }

  /** Bring the index level with the files; returns how many files had changed. */
  async refresh(): Promise<number> {
    const rels = await this.store.entryFiles()
    const seen = new Set(rels)
    let changed = 0
    // Stats in parallel batches: the thread pool answers several at once, sequential awaits do not.
    for (let i = 0; i < rels.length; i += STAT_BATCH) {
      const batch = rels.slice(i, i + STAT_BATCH)
      const stamps = await Promise.all(batch.map((rel) => fileStamp(this.store.path(rel))))
      for (const [k, rel] of batch.entries()) {
        const stamp = stamps[k]
        if (stamp === undefined || this.files.get(rel)?.stamp === stamp) continue
        await this.reread(rel, stamp)
        changed++
      }
    }
    // Deleting the key being visited is well-defined for a Map.
    for (const rel of this.files.keys()) {
      if (seen.has(rel)) continue
      this.forget(this.files.get(rel)?.ids ?? [])
      this.files.delete(rel)
      changed++
    }
    return changed
  }

  private forget(ids: readonly string[]): void {
    for (const id of ids) {
      this.index.remove(id)
      this.entries.delete(id)
    }
  }

  private async reread(rel: string, stamp: FileStamp): Promise<void> {
    const where = dateOfEntryFile(rel)
    if (where === undefined) return
    let text: string
    try {
      text = await readFile(this.store.path(rel), 'utf8')
    } catch {
      return
    }
    const fresh = entriesOf(parseEntryFile(text, rel))
    const keep = new Set(fresh.map((e) => e.meta.id))
    this.forget((this.files.get(rel)?.ids ?? []).filter((id) => !keep.has(id)))
    for (const entry of fresh) {
      this.index.update(docOf(entry))
      this.entries.set(entry.meta.id, { text: entry.text, date: where.date, area: where.area })
    }
    this.files.set(rel, { stamp, ids: [...keep] })
  }

  /** The best `limit` day entries for a message, newest-biased as the index scores them (pending ones are filtered out inside the ranking). */
  search(query: string, limit: number, now: Date = this.store.now()): RecalledEntry[] {
    const isDay = (id: string): boolean => this.entries.get(id)?.area === 'day'
    return this.index.search(query, { limit, now, filter: isDay }).map((hit) => {
      const info = this.entries.get(hit.id)!
      return { id: hit.id, score: hit.score, text: info.text, date: info.date }
    })
  }
}
