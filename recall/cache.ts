import { createHash } from 'node:crypto'
import { read } from 'node:fs'
import { lstat, rm, unlink } from 'node:fs/promises'
import { promisify } from 'node:util'
import { join } from 'node:path'
import { ensureDir, readNoFollow, writeAtomic, type FileStamp } from '../memory/files.ts'
import { LAYOUT, recallCacheDir } from '../memory/paths.ts'
import { RecallIndex } from './core/index.ts'
import { bufferSource, descriptorSource, packColumns, readColumns, tokenizerSignature, type ByteSource } from './core/saved.ts'
import { openRegularSync } from '../durable/read-regular.ts'
import { headMarkFromRow, type HeadMark } from './appended.ts'

/**
 * The recall keeper's cache on disk (recall/keeper.ts keeps the index level
 * with the files; this is only where that index is saved and how it is read
 * back): one file, `keeper.bin`, beside the root and outside the quota —
 * the index's binary columns (recall/core/columns.ts) and, per file, its
 * stamp and the documents it holds. Derived data only: a cache that does not
 * check out is `'bad'` and the keeper rebuilds from the files.
 *
 * The cache sits outside the folders the store guard keeps, so a tool call could write one built
 * to match the files' stamps. Its seal — the size and SHA-256 of the bytes the keeper wrote — is
 * kept inside the guarded root (`元/recall-seal.json`), and a cache whose bytes do not match the
 * seal is not used (docs/decisions/283).
 */

/** One file the index was built from: its stamp when read, and the ids of its documents. */
export interface FileState {
  stamp: FileStamp
  ids: string[]
  /** A day file's head as read (recall/appended.ts): when the file only grew, what came after is all that is read. */
  head?: HeadMark
}

const CACHE_FORMAT = 'cyrene-recall-keeper'
/** The keeper's own part of the cache (files and stamps); the index's columns and tokenizer are checked by recall/core/columns.ts. */
const CACHE_VERSION = 4

/** The keeper's cache: the index (binary columns) and the stamp of every file it was built from, in one file. */
export function keeperCacheFile(root: string): string {
  return join(recallCacheDir(root), 'keeper.bin')
}

/** The caches of earlier versions, removed when the keeper saves: `keeper.json` (the keeper's JSON form, decision 031). */
function legacyKeeperCacheFile(root: string): string {
  return join(recallCacheDir(root), 'keeper.json')
}

/**
 * The second index's cache of earlier versions (`cyrene memory search` had an index of its
 * own, decision 030): derived data nobody reads any more, removed when the keeper saves.
 */
export function legacySearchCacheFile(root: string): string {
  return join(recallCacheDir(root), 'recall.json')
}

/** The size and SHA-256 of the cache bytes the keeper last wrote. */
export interface CacheSeal {
  size: number
  sha256: string
}

/** Where the seal is kept: in the store's 元/, which a tool call cannot change (the store guard); machine-local for the git sync. */
export function recallSealFile(root: string): string {
  return join(root, LAYOUT.meta, 'recall-seal.json')
}

/** Write the seal of a cache. The host writes it on DSH's thread for its recall worker, so the store guard knows it as the host's own write. */
export async function writeRecallSeal(root: string, seal: CacheSeal): Promise<void> {
  await writeAtomic(recallSealFile(root), `${JSON.stringify({ size: seal.size, sha256: seal.sha256 })}\n`, { root })
}

async function readSeal(root: string): Promise<CacheSeal | undefined> {
  try {
    const data = JSON.parse((await readNoFollow(recallSealFile(root))).toString('utf8')) as Partial<CacheSeal> | null
    return data !== null && typeof data === 'object' && Number.isSafeInteger(data.size) && typeof data.sha256 === 'string'
      ? { size: data.size!, sha256: data.sha256 }
      : undefined
  } catch {
    return undefined
  }
}

function sealOf(bytes: Uint8Array): CacheSeal {
  return { size: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }
}

/**
 * The cache's bytes, once they are found to be the sealed ones: undefined when there is no cache,
 * 'bad' when it is not a plain file or has no seal or another one. The size is compared first, so
 * a huge forged file is not read. Not `lean`: the file is read whole once, hashed and parsed from
 * that one buffer; `lean`: hashed, then held open and read at offsets. Both through one descriptor.
 */
async function sealedSource(file: string, seal: CacheSeal | undefined, lean: boolean): Promise<ByteSource | 'bad' | undefined> {
  let fd: number
  try {
    fd = openRegularSync(file)
  } catch (error) {
    // A link, a FIFO or anything else put under the cache's name is not opened, let alone waited on.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? undefined : 'bad'
  }
  const source = descriptorSource(fd)
  if (seal === undefined || source.size !== seal.size) return bad(source)
  try {
    // Hashed through the descriptor the index reads from: a file renamed in after the check is never read.
    const hash = createHash('sha256')
    const whole = lean ? undefined : Buffer.allocUnsafe(source.size)
    const chunk = Buffer.allocUnsafe(Math.min(CHUNK, Math.max(1, source.size)))
    for (let at = 0; at < source.size;) {
      const { bytesRead } = await readAt(fd, chunk, 0, Math.min(chunk.length, source.size - at), at)
      if (bytesRead === 0) return bad(source)
      hash.update(chunk.subarray(0, bytesRead))
      whole?.set(chunk.subarray(0, bytesRead), at)
      at += bytesRead
    }
    if (hash.digest('hex') !== seal.sha256) return bad(source)
    if (whole === undefined) return source
    source.release()
    return bufferSource(whole)
  } catch {
    return bad(source)
  }
}

const CHUNK = 1 << 20
const readAt = promisify(read)

/** Forget the cache (`cyrene memory reindex`; a restore drops the whole folder, memory/restore.ts): the next open builds from the files alone. */
export async function dropRecallCache(root: string): Promise<void> {
  if (await unlinkedFolderLink(recallCacheDir(root))) return
  await rm(keeperCacheFile(root), { force: true })
  await rm(legacyKeeperCacheFile(root), { force: true })
  await rm(legacySearchCacheFile(root), { force: true })
}

/**
 * Write the cache, or throw (the keeper reports why; a cache only costs the next start): the columns, each file's stamp, and per
 * document the number of its file. Returns the seal of the bytes written; the caller keeps it (`writeRecallSeal`).
 */
export async function writeKeeperCache(root: string, columns: ReturnType<RecallIndex['toColumns']>, files: unknown[][], fileOf: number[]): Promise<CacheSeal> {
  await unlinkedFolderLink(recallCacheDir(root))
  await ensureDir(recallCacheDir(root))
  const bytes = packColumns(columns, { format: CACHE_FORMAT, version: CACHE_VERSION, files, fileOf })
  await writeAtomic(keeperCacheFile(root), bytes)
  for (const old of [legacyKeeperCacheFile(root), legacySearchCacheFile(root)]) await rm(old, { force: true }).catch(() => undefined)
  return sealOf(bytes)
}

/**
 * The cache folder sits beside the store, where a tool call can put a link to a folder of the store in its place:
 * the keeper would then write its cache into the store and remove files by the cache's names there. The folder holds
 * derived data only, so a link under its name is removed (the link, never what it points to) and a folder of its own
 * made in its place. True when a link was removed.
 */
async function unlinkedFolderLink(dir: string): Promise<boolean> {
  try {
    if (!(await lstat(dir)).isSymbolicLink()) return false
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw error
  }
  await unlink(dir)
  return true
}

type CachedKeeper = { index: RecallIndex; files: Map<string, FileState> }

/**
 * The cache, undefined when there is none, 'bad' when it cannot be used (it is rebuilt). `lean`: the
 * file stays open and its lists are read as they are wanted; otherwise they are all read now, from
 * the bytes the seal was checked on.
 */
export async function readKeeperCache(root: string, lean: boolean): Promise<CachedKeeper | 'bad' | undefined> {
  const source = await sealedSource(keeperCacheFile(root), await readSeal(root), lean)
  if (typeof source !== 'object') return source
  try {
    const { columns, extra } = readColumns(source, tokenizerSignature())
    const data = extra as { format?: unknown; version?: unknown; files?: unknown; fileOf?: unknown } | null
    if (data === null || typeof data !== 'object' || data.format !== CACHE_FORMAT || data.version !== CACHE_VERSION) return bad(source)
    if (!Array.isArray(data.files) || !Array.isArray(data.fileOf)) return bad(source)
    const index = RecallIndex.fromColumns(columns)
    if (!lean) index.readAll()
    const states: FileState[] = []
    const files = new Map<string, FileState>()
    for (const row of data.files as unknown[]) {
      if (!Array.isArray(row) || typeof row[0] !== 'string' || typeof row[1] !== 'string' || files.has(row[0])) return bad(source)
      const head = row.length > 2 ? headMarkFromRow(row.slice(2)) : undefined
      const state: FileState = { stamp: row[1], ids: [], ...(head === undefined ? {} : { head }) }
      states.push(state)
      files.set(row[0], state)
    }
    // Each document has the number of its file, or the cache is not one this keeper wrote.
    const fileOf = data.fileOf as unknown[]
    if (fileOf.length !== columns.ids.length || columns.ids.length !== index.size) return bad(source)
    for (let i = 0; i < fileOf.length; i++) {
      const state = states[fileOf[i] as number]
      if (state === undefined) return bad(source)
      state.ids.push(columns.ids[i]!)
    }
    return { index, files }
  } catch {
    return bad(source)
  }
}

function bad(source: { release(): void }): 'bad' {
  source.release()
  return 'bad'
}

export { recallCacheDir }
