import type { MemoryStore, StoredEntry } from './store.ts'

/**
 * The one place `cyrene memory search` asks for matches. For now a plain
 * case-insensitive substring match over entry text, newest first. The recall
 * index (memory/recall/) replaces the body of this function later; callers
 * keep this signature.
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
  const { entries } = await store.scan()
  return rankBySubstring(entries, query, opts)
}
