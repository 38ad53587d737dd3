import { realpathSync } from 'node:fs'
import { basename, dirname, join, resolve, sep } from 'node:path'

/**
 * What this process itself writes into the protected folders, told to the
 * store guard (guard/effects.ts) so it can tell the host's own writes
 * from a tool call's effects. No DSH import: memory/, whale/ and the CLI use it.
 *
 * Two signals. A write names its path (`declareHostWrite`) before it becomes
 * visible; the guard adopts exactly those paths. A write in progress
 * (`beginHostWrite`/`endHostWrite`, the store write lock held in this
 * process, an atomic write's temp file on disk) makes the guard wait before it
 * compares the disk with what it keeps, so it never judges half a write.
 * Nothing here is trusted from the disk or another process.
 */

type Listener = () => void

let depth = 0
let holds = 0
/** The places of the host's folder work running now, each work's own; and every place named since the last look. */
const folderWork = new Map<symbol, { places: string[]; listing?: FolderListing }>()
let folderPlaces = new Set<string>()
/** The places whose work vouches only for the names it listed (a snapshot being taken), by place. */
let folderListings = new Map<string, FolderListing>()
/** Declared paths, with the bytes each write put there ('any': a write that did not say, an append or a removal). */
const declared = new Map<string, Uint8Array[] | 'any'>()
const idle = new Set<Listener>()

/**
 * A path this process is about to write (a file, a folder it creates, a file it removes). `bytes`: the
 * whole new content of a file replaced; the guard then keeps only those bytes as the host's there.
 */
export function declareHostWrite(path: string, bytes?: Uint8Array): void {
  const key = resolve(path)
  const had = declared.get(key)
  // The latest and the one before: writes of one path follow each other under the store's lock, so only
  // those can be there (the one before when the latest fails and is withdrawn); a bulk import piles up no more.
  declared.set(key, bytes === undefined || had === 'any' ? 'any' : [...(had ?? []).slice(-1), bytes])
}

/** Bytes the host appended to a declared path since the last look, in order (decision 300). */
const appended = new Map<string, Uint8Array[]>()

/**
 * The host appended `bytes` to `path` (declared before the write): while a window is open the file must then
 * hold what the guard keeps followed by the host's appends, nothing else. A process of the call that rewrites
 * the head of an append-only log in the same moment must not have its rewrite kept as the host's.
 */
export function declareHostAppend(path: string, bytes: Uint8Array): void {
  const key = resolve(path)
  appended.set(key, [...(appended.get(key) ?? []), bytes])
}

/** A replace that failed before its rename: its bytes never reached the path. */
export function withdrawHostWrite(path: string, bytes: Uint8Array): void {
  const had = declared.get(resolve(path))
  if (!Array.isArray(had)) return
  const at = had.lastIndexOf(bytes)
  if (at >= 0) had.splice(at, 1)
}

type KeptBytes = (path: string) => Uint8Array | null | undefined
/** Every file the guard keeps below a folder (absolute paths). */
type KeptFiles = (folder: string) => string[]
let keeper: KeptBytes | undefined
let keptFiles: KeptFiles | undefined

/**
 * The store guard answers what it keeps at a path (null: no file) and which files it keeps below a folder;
 * returns the unregistering.
 */
export function keepBytesFrom(fn: KeptBytes, files?: KeptFiles): () => void {
  keeper = fn
  keptFiles = files
  return () => {
    if (keeper === fn) keeper = keptFiles = undefined
  }
}

/**
 * While a window is open, the files below `folder` that the host should count as there whether or not
 * the disk still holds them: what the guard keeps and what the host itself last wrote. A call's process
 * may remove a file for a moment; a snapshot taken then must still hold it (its bytes: `vouchedBytes`).
 * Empty with no window open.
 */
export function vouchedFilesUnder(folder: string): string[] {
  if (windows === 0 || keeper === undefined) return []
  const top = resolve(folder)
  const below = (p: string) => p.startsWith(top + sep)
  const out = new Set((keptFiles?.(top) ?? []).filter(below))
  for (const [p, bytes] of declared) if (below(p) && Array.isArray(bytes) && bytes.length > 0) out.add(p)
  return [...out]
}

/**
 * What a file about to be read and written back should hold while a tool call's window is open: the
 * host's own latest write of it not yet looked at, else what the store guard keeps (null: no file).
 * Undefined: the disk stands (no window, no guard, or a path the guard does not keep). A process of
 * the call that swaps the file under the host's read must not get its bytes carried into the host's
 * write, which the guard would keep as the host's.
 */
export function vouchedBytes(path: string): Uint8Array | null | undefined {
  if (windows === 0 || keeper === undefined) return undefined
  const key = resolve(path)
  const mine = declared.get(key)
  if (Array.isArray(mine) && mine.length > 0) return mine[mine.length - 1]
  return keeper(key)
}

export function beginHostWrite(): void {
  depth++
  holds++
}

export function endHostWrite(): void {
  depth = Math.max(0, depth - 1)
  if (depth === 0) for (const fn of idle) fn()
}

/** Run `fn` as one host write: the guard waits for it to end before it looks. */
export async function asHostWrite<T>(fn: () => Promise<T>): Promise<T> {
  beginHostWrite()
  try {
    return await fn()
  } finally {
    endHostWrite()
  }
}

/**
 * Run `fn` as the host's work in its own folders (taking or pruning a snapshot, a git run): what
 * changes meanwhile at or under `places` (a snapshot being taken, one being dropped, the store's
 * .git/), removals included, is the host's. Only those places: a snapshot taken never vouches for
 * what a call's process changes in the snapshots beside it (decision 316). Any other host write (a
 * memory written in the same moment) vouches only for the paths it declares.
 */
export async function asHostFolderWork<T>(places: readonly string[], fn: () => Promise<T>, listing?: FolderListing): Promise<T> {
  // Not a write the guard waits for: a git run may last as long as a fetch does.
  const token = Symbol('folder work')
  const named = places.flatMap(placeForms)
  folderWork.set(token, listing === undefined ? { places: named } : { places: named, listing })
  for (const p of named) {
    folderPlaces.add(p)
    if (listing !== undefined) folderListings.set(p, listing)
  }
  try {
    return await fn()
  } finally {
    folderWork.delete(token)
  }
}

/**
 * The names a folder work makes inside each of its places, relative to the place ('/'-separated), listed before
 * each is made: the work vouches for those and the folders above them, and for nothing else there (decision 332).
 * A snapshot is copied into a temporary folder and renamed, so one listing serves both places.
 */
export class FolderListing {
  private readonly files = new Map<string, Uint8Array | undefined>()
  private readonly folders = new Set<string>()

  /** `bytes`: what the work writes there, kept while a tool call's window is open so the guard can write it back. */
  add(rel: string, bytes?: Uint8Array): void {
    this.files.set(rel, bytes !== undefined && windows > 0 ? bytes : undefined)
    for (let at = rel.lastIndexOf('/'); at > 0; at = rel.lastIndexOf('/', at - 1)) this.folders.add(rel.slice(0, at))
  }

  /** The bytes the work wrote at `rel`, when they were kept. */
  bytesAt(rel: string): Uint8Array | undefined {
    return this.files.get(rel)
  }

  /** The files whose bytes were kept. */
  keptFiles(): string[] {
    return [...this.files].flatMap(([rel, bytes]) => (bytes === undefined ? [] : [rel]))
  }

  /** What the work made at `rel`: a file, a folder above one, or nothing ('' is the place itself). */
  holds(rel: string): 'file' | 'folder' | undefined {
    if (rel === '' || this.folders.has(rel)) return 'folder'
    return this.files.has(rel) ? 'file' : undefined
  }
}

/** A place as named and through its folder's real path: the guard may record a linked snapshots folder by either. */
function placeForms(place: string): string[] {
  const named = resolve(place)
  try {
    const real = join(realpathSync.native(dirname(named)), basename(named))
    return real === named ? [named] : [named, real]
  } catch {
    return [named]
  }
}

export function hostWriting(): boolean {
  return depth > 0
}

/**
 * The paths declared (with the bytes of each replace, where every write there said them), the number
 * of holds, and the places of the host's folder work since the last call; all start again from empty
 * (the places of a folder work still running stay).
 */
export function takeHostWrites(): {
  paths: Set<string>
  contents: Map<string, Uint8Array[]>
  appends: Map<string, Uint8Array[]>
  holds: number
  folderPlaces: string[]
  folderListings: Map<string, FolderListing>
} {
  const contents = new Map<string, Uint8Array[]>()
  for (const [path, bytes] of declared) if (bytes !== 'any') contents.set(path, bytes)
  const out = { paths: new Set(declared.keys()), contents, appends: new Map(appended), holds, folderPlaces: [...folderPlaces], folderListings }
  declared.clear()
  appended.clear()
  holds = depth > 0 ? 1 : 0
  folderPlaces = new Set([...folderWork.values()].flatMap((w) => w.places))
  folderListings = new Map([...folderWork.values()].flatMap((w) => (w.listing === undefined ? [] : w.places.map((p) => [p, w.listing!] as const))))
  return out
}

/** Called each time the last host write in progress ends. */
export function onHostWritesIdle(fn: Listener): () => void {
  idle.add(fn)
  return () => idle.delete(fn)
}

const processes = new Set<number>()

/**
 * A program this process started for its own work (git for the store's sync): it and what it
 * starts are the host's, not a tool call's, even when started while a tool call runs. Its
 * changes are still judged as the host's writes are (declared paths, or a host folder while the
 * store's write lock is held): this only keeps the guard from taking it for the model's.
 */
export function declareHostProcess(pid: number | undefined): () => void {
  if (pid === undefined) return () => {}
  processes.add(pid)
  return () => processes.delete(pid)
}

export function isHostProcess(pid: number): boolean {
  return processes.has(pid)
}

let windows = 0
const windowsClosed = new Set<Listener>()

/**
 * A store guard's window is open in this process: a tool call runs, or a process one started still
 * lives, so a file that changes now may be the model's, not the person's. The host's own
 * read-then-write work (the git sync's commit and switch) waits for it or does not take such a
 * change as the person's. Returns the close, which only counts once.
 */
export function openCallWindow(): () => void {
  windows++
  let closed = false
  return () => {
    if (closed) return
    closed = true
    windows = Math.max(0, windows - 1)
    if (windows === 0) for (const fn of windowsClosed) fn()
  }
}

export function callWindowOpen(): boolean {
  return windows > 0
}

/** Resolves true once no window is open, or false after `maxMs`. */
export async function callWindowsClosed(maxMs: number): Promise<boolean> {
  if (windows === 0) return true
  return await new Promise<boolean>((resolve) => {
    const done = (ok: boolean): void => {
      clearTimeout(timer)
      windowsClosed.delete(onClosed)
      resolve(ok)
    }
    const onClosed = (): void => done(true)
    windowsClosed.add(onClosed)
    const timer = setTimeout(() => done(windows === 0), maxMs)
    timer.unref?.()
  })
}
