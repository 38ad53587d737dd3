import { loadRecall } from './recall-store.ts'
import type { MemoryStore, StoredEntry } from './store.ts'

/**
 * The one place `cyrene memory search` asks for matches: the bilingual recall
 * index (memory/recall/) over every entry, brought up to date with the files
 * first — the same index and the same filtered ranking as the host's recall
 * (recall-keeper.ts).
 */
export interface SearchOptions {
  limit?: number
  includePending?: boolean
}
export interface SearchHit {
  entry: StoredEntry
  score: number
}

export async function searchEntries(store: MemoryStore, query: string, opts: SearchOptions = {}): Promise<SearchHit[]> {
  if (query.trim() === '') return []
  const { entries } = await store.scan()
  const { index } = await loadRecall(store, entries)
  const byId = new Map(entries.map((e) => [e.id, e]))
  // Pending entries are indexed too (the cache is shared with the host): the filter leaves them out inside the ranking.
  const shown = (id: string): boolean => {
    const entry = byId.get(id)
    return entry !== undefined && (entry.area === 'day' || opts.includePending === true)
  }
  return index.search(query, { limit: opts.limit ?? 20, now: store.now(), filter: shown }).map((hit) => ({ entry: byId.get(hit.id)!, score: hit.score }))
}
