import { ONE_SHOT_OPEN, RecallKeeper, type RecalledEntry } from './keeper.ts'
import type { MemoryStore } from '../memory/index.ts'

/**
 * What the person's searches ask (`cyrene memory search`, `/memory <words>` before the
 * host's index is ready): the one recall index of the store (recall/keeper.ts: day
 * entries, anchors, dream journals, rollups) opened from its cache and levelled with
 * the files that changed — the same index, the same ranking and the same hits as the
 * turn's recall and `memory_search` (decision 030).
 */
export interface SearchOptions {
  limit?: number
  includePending?: boolean
}

export async function searchEntries(store: MemoryStore, query: string, opts: SearchOptions = {}): Promise<RecalledEntry[]> {
  if (query.trim() === '') return []
  const keeper = await RecallKeeper.open(store.root, ONE_SHOT_OPEN)
  return await keeper.search(query, opts.limit ?? 20, { now: store.now(), includePending: opts.includePending === true })
}
