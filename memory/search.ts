import { loadRecall } from './recall-store.ts'
import type { MemoryStore, StoredEntry } from './store.ts'

/**
 * The one place `cyrene memory search` asks for matches: the bilingual recall
 * index (memory/recall/) over every entry, brought up to date with the files
 * first. `rankBySubstring` stays as the plain peer the benchmark and tests
 * compare against.
 */
export interface SearchOptions { limit?: number; includePending?: boolean }
export interface SearchHit { entry: StoredEntry; score: number }

export function matchCount(haystack: string, needle: string): number {
  if (needle === '') return 0
  let n = 0
  let i = haystack.indexOf(needle)
  while (i >= 0) { n++; i = haystack.indexOf(needle, i + needle.length) }
  return n
}

/** Pure ranking over a list of entries (exported for tests and for the swap). */
export function rankBySubstring(entries: readonly StoredEntry[], query: string, opts: SearchOptions = {}): SearchHit[] {
  const q = query.trim().toLowerCase()
  if (q === '') return []
  const hits: SearchHit[] = []
  for (const e of entries) {
    if (e.area === 'pending' && opts.includePending !== true) continue
    const score = matchCount(e.text.toLowerCase(), q)
    if (score > 0) hits.push({ entry: e, score })
  }
  hits.sort((a, b) => (b.entry.id < a.entry.id ? -1 : b.entry.id > a.entry.id ? 1 : 0))
  return hits.slice(0, opts.limit ?? 20)
}

export async function searchEntries(store: MemoryStore, query: string, opts: SearchOptions = {}): Promise<SearchHit[]> {
  if (query.trim() === '') return []
  const { entries } = await store.scan()
  const { index } = await loadRecall(store, entries)
  const byId = new Map(entries.map((e) => [e.id, e]))
  const limit = opts.limit ?? 20
  const hits: SearchHit[] = []
  // Pending entries are indexed too; ask for more so filtering them out still fills the page.
  for (const hit of index.search(query, { limit: limit * 4 + 20, now: store.now() })) {
    const entry = byId.get(hit.id)
    if (entry === undefined || (entry.area === 'pending' && opts.includePending !== true)) continue
    hits.push({ entry, score: hit.score })
    if (hits.length >= limit) break
  }
  return hits
}
