import { readFile, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { ensureDir, writeAtomic } from './fsio.ts'
import { RecallFormatError, RecallIndex, type RecallDoc, type SyncReport } from './recall/index.ts'
import type { MemoryStore, StoredEntry } from './store.ts'

/**
 * The recall index over the store's entries is derived data: rebuilt from the
 * files whenever they differ from what it holds, cached beside the root (like
 * the snapshots, outside the quota) so a large store does not re-tokenise
 * thirty years of entries on every search. A broken or foreign cache is simply
 * rebuilt; a cache that cannot be written only costs the next search time.
 */
export function recallCacheDir(root: string): string {
  return join(dirname(root), `${basename(root)}-index`)
}

export function recallCacheFile(root: string): string {
  return join(recallCacheDir(root), 'recall.json')
}

function docOf(entry: Pick<StoredEntry, 'text' | 'meta'>): RecallDoc {
  return {
    id: entry.meta.id,
    text: entry.text,
    at: typeof entry.meta.at === 'string' ? entry.meta.at : '',
    source: 'entry',
    ...(typeof entry.meta.kind === 'string' ? { kind: entry.meta.kind } : {}),
    ...(Array.isArray(entry.meta.links) ? { links: entry.meta.links.filter((l): l is string => typeof l === 'string') } : {}),
  }
}

export interface LoadedRecall {
  index: RecallIndex
  /** What had to change against the cache (everything, when there was none). */
  sync: SyncReport
  cache: 'used' | 'missing' | 'rebuilt'
  /** Why the cache could not be saved, when it could not. */
  saveError?: string
}

async function readCache(file: string): Promise<{ index: RecallIndex; cache: LoadedRecall['cache'] }> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch {
    return { index: new RecallIndex(), cache: 'missing' }
  }
  try {
    return { index: RecallIndex.fromJSON(JSON.parse(text)), cache: 'used' }
  } catch (error) {
    if (error instanceof RecallFormatError || error instanceof SyntaxError) return { index: new RecallIndex(), cache: 'rebuilt' }
    throw error
  }
}

/** The index for these entries: the cache brought up to date, saved back when it changed. */
export async function loadRecall(store: MemoryStore, entries: readonly StoredEntry[]): Promise<LoadedRecall> {
  const file = recallCacheFile(store.root)
  const { index, cache } = await readCache(file)
  const sync = index.sync(entries.map(docOf))
  const changed = sync.added.length + sync.updated.length + sync.removed.length > 0 || cache !== 'used'
  if (!changed) return { index, sync, cache }
  try {
    await ensureDir(dirname(file))
    await writeAtomic(file, JSON.stringify(index.toJSON()))
    return { index, sync, cache }
  } catch (error) {
    return { index, sync, cache, saveError: (error as Error).message }
  }
}

/** Forget the caches (reindex): the next load builds from the files alone (the search index and the recall keeper's). */
export async function dropRecallCache(store: MemoryStore): Promise<void> {
  await rm(recallCacheFile(store.root), { force: true })
  await rm(join(recallCacheDir(store.root), 'keeper.json'), { force: true })
}
