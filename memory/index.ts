/**
 * The store's door: the engine, its writes and what the turn reads. Light readers take a
 * smaller door instead (format.ts, paths.ts, files.ts, near-duplicate.ts), and the store's
 * upkeep, git sync, the person's settings and the ownership marks have a door each
 * (upkeep.ts, git.ts, person.ts, marks.ts): each door loads only what it names
 * (docs/decisions/281). Nothing here imports DSH.
 */
export { MemoryStore, type StoredEntry, type WriteResult } from './store.ts'
export { EngineBusyError } from './engine-lock.ts'
export { startEngine } from './engine.ts'
export { LockBusyError, LockLostError } from '../durable/lock.ts'
export { writeAnchor } from './anchors.ts'
export { linkEntries, type LinkInput, type LinkResult } from './entry-links.ts'
export { recentFiles, readRecent, insideReader, NEWEST_OF_A_DAY, type AnchorView, type RecentEntry } from './recent.ts'
