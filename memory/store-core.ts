import type { HeldLock } from '../durable/lock.ts'
import type { Entry, ParseProblem } from './entry.ts'
import type { CatalogFile } from './file-catalog.ts'
import type { Said } from './said.ts'
import type { Usage } from './store-usage.ts'
import type { Limits } from './validate.ts'

/** A parsed entry and where it is kept. */
export interface StoredEntry extends Entry {
  id: string
  /** Path relative to the root, '/'-separated. */
  file: string
  line: number
  area: 'day' | 'pending'
}

/**
 * What the store's own helpers (audit, anchors, snapshots, restore, volumes, person marks, git
 * switch, settings writes, entry updates) reach the store through. `MemoryStore` (store.ts)
 * implements it and calls those helpers in turn: the helpers name this and not the class, so
 * no file of the store imports the file that imports it (docs/decisions/277).
 */
export interface StoreCore {
  readonly root: string
  readonly snapshotsDir: string
  readonly now: () => Date
  /** How long a lock holder on another host may go quiet; the locks' default when undefined. */
  readonly lockStaleMs: number | undefined
  readonly limits: Limits
  /** The full path of a root-relative path, refused when it leaves the root. */
  path(rel: string): string
  withWriteLock<T>(fn: (lock: HeldLock) => Promise<T>): Promise<T>
  /** Replace a file atomically under the caller's write lock; a link below the root is refused. */
  /** `unchanged`: called right before the rename (after the lock's check); throwing leaves the file as it was. */
  replaceFile(rel: string, text: string | Buffer, lock: HeldLock, unchanged?: () => void): Promise<void>
  /** The text of a file about to be rewritten (UTF-8 only, no links followed). */
  readForRewrite(rel: string): Promise<string>
  /** A record in 元/ (a problem, not a throw, when it is not JSON); `forRewrite`: bytes that are not UTF-8 are a problem too. */
  readMetaJson<T>(name: string, fallback: T, opts?: { forRewrite?: boolean }): Promise<{ value: T; problem?: string; problemSaid?: Said }>
  writeMetaJson(name: string, value: unknown, lock: HeldLock): Promise<void>
  /** Renames a broken record in 元/ to `<name>.corrupt-<time>` before it is written anew; the new name. */
  keepMetaAside(name: string, lock: HeldLock): Promise<string>
  auditLog(fromMonth?: string): Promise<Array<Record<string, unknown>>>
  /** Reads 元/settings.json again; its problems. */
  reloadSettings(): Promise<string[]>
  scan(onFile?: (done: number, total: number) => void): Promise<{ entries: StoredEntry[]; problems: ParseProblem[]; files: CatalogFile[] }>
  get(id: string): Promise<StoredEntry | undefined>
  measureUsage(force?: boolean): Promise<Usage>
  checkQuota(addBytes: number, intoMargin: boolean): Promise<void>
}
