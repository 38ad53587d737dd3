import { lstatSync, readdirSync, type Stats } from 'node:fs'
import { join } from 'node:path'
import { isTempName } from '../durable/atomic-write.ts'
import { readRegularFileSync } from '../durable/read-regular.ts'
import { stampOf } from '../memory/files.ts'
import { parseEntry, type EntrySource, type WorldEntry } from './entry.ts'

/**
 * The worldbook as it is on disk right now: the starter entries shipped in the
 * package, then the person's own folder, where a file of the same name
 * replaces the starter entry (with `enabled: no` it switches it off). Read
 * synchronously, because DSH reads contexts synchronously when it assembles a
 * step; each call looks at the person's folder and the stamp (size + time) of
 * every file in it and re-reads only what changed, so an edit is in the very
 * next step. A folder marked `shipped` (the package's starter) is listed once:
 * its files change only with an upgrade, and an upgrade restarts the host, so
 * looking at its 17 files again on every step was a third of the worldbook's
 * cost per step and could never find a change.
 */

/** A file larger than this is no entry (an entry is a few hundred characters). */
const MAX_ENTRY_BYTES = 64 * 1024

export interface WorldbookFolder {
  source: EntrySource
  dir: string
  /** Files that come with the package: listed and stamped once for the life of the library. */
  shipped?: boolean
}

interface ListedFile {
  folder: WorldbookFolder
  name: string
  path: string
  stat: Stats
}

interface FolderListing {
  files: ListedFile[]
  unreadable?: SkippedFile
}

interface SkippedFile {
  file: string
  why: string
}

export interface LoadedWorldbook {
  /** The entries in force (person over starter), enabled or not, by name. */
  entries: WorldEntry[]
  skipped: SkippedFile[]
  warnings: SkippedFile[]
  /** Starter entries a person's file of the same name replaces (or switches off). */
  overridden: string[]
  /** Folders that could not be listed (other than missing), with why. */
  unreadable: SkippedFile[]
}

type FileResult = { entry: WorldEntry; warnings: string[] } | { skipped: string }

interface CachedFile {
  stamp: string
  result: FileResult
}

function decode(bytes: Buffer): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
}

export class WorldbookLibrary {
  readonly folders: readonly WorldbookFolder[]
  private readonly cache = new Map<string, CachedFile>()
  private readonly shippedListings = new Map<string, FolderListing>()
  private key = ''
  private last: LoadedWorldbook = { entries: [], skipped: [], warnings: [], overridden: [], unreadable: [] }

  constructor(folders: readonly WorldbookFolder[]) {
    this.folders = folders
  }

  /** The worldbook now; never throws (a folder or file that cannot be read is reported). */
  current(): LoadedWorldbook {
    const listed: ListedFile[] = []
    const unreadable: SkippedFile[] = []
    for (const folder of this.folders) {
      const listing = this.listingOf(folder)
      for (const file of listing.files) listed.push(file)
      if (listing.unreadable !== undefined) unreadable.push(listing.unreadable)
    }
    const key = listed.map((f) => `${f.path}=${stampOf(f.stat)}:${f.stat.isFile() ? 'f' : 'x'}`).join('|') + `#${unreadable.map((u) => u.file).join('|')}`
    if (key === this.key) return this.last

    const byName = new Map<string, WorldEntry>()
    const overridden: string[] = []
    const skipped: SkippedFile[] = []
    const warnings: SkippedFile[] = []
    const seen = new Set<string>()
    for (const f of listed) {
      seen.add(f.path)
      const result = this.readOne(f.folder.source, f.name, f.path, f.stat)
      if ('skipped' in result) {
        skipped.push({ file: f.path, why: result.skipped })
        continue
      }
      for (const w of result.warnings) warnings.push({ file: f.path, why: w })
      const earlier = byName.get(f.name)
      if (earlier !== undefined && earlier.source === 'starter' && result.entry.source === 'person') overridden.push(f.name)
      byName.set(f.name, result.entry)
    }
    for (const path of this.cache.keys()) if (!seen.has(path)) this.cache.delete(path)
    this.last = { entries: [...byName.values()], skipped, warnings, overridden, unreadable }
    this.key = key
    return this.last
  }

  private listingOf(folder: WorldbookFolder): FolderListing {
    if (folder.shipped !== true) return listFolder(folder)
    let listing = this.shippedListings.get(folder.dir)
    if (listing === undefined) {
      listing = listFolder(folder)
      // A folder that could not be listed is looked at again next time: the failure may pass.
      if (listing.unreadable === undefined) this.shippedListings.set(folder.dir, listing)
    }
    return listing
  }

  private readOne(source: EntrySource, name: string, path: string, stat: Stats): FileResult {
    const stamp = `${stampOf(stat)}:${stat.isFile() ? 'f' : 'x'}`
    const cached = this.cache.get(path)
    if (cached !== undefined && cached.stamp === stamp) return cached.result
    const result = readEntryFile(source, name, path, stat)
    this.cache.set(path, { stamp, result })
    return result
  }
}

/** A folder's entry files with their stats now; a folder that does not exist has none. */
function listFolder(folder: WorldbookFolder): FolderListing {
  let names: string[]
  try {
    // A person's folder that was never made is the common case: no error built for it every step.
    const st = lstatSync(folder.dir, { throwIfNoEntry: false })
    if (st === undefined) return { files: [] }
    if (st.isSymbolicLink())
      return { files: [], unreadable: { file: folder.dir, why: 'is a symbolic link; the worldbook never follows links (put the folder itself there)' } }
    names = readdirSync(folder.dir).sort()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    return code === 'ENOENT' ? { files: [] } : { files: [], unreadable: { file: folder.dir, why: `cannot be read (${code ?? (error as Error).message})` } }
  }
  const files: ListedFile[] = []
  for (const name of names) {
    if (!name.endsWith('.md') || name.startsWith('.') || isTempName(name)) continue
    const path = join(folder.dir, name)
    try {
      files.push({ folder, name: name.slice(0, -3), path, stat: lstatSync(path) })
    } catch {
      continue // removed while we looked
    }
  }
  return { files }
}

function readEntryFile(source: EntrySource, name: string, path: string, stat: Stats): FileResult {
  if (stat.isSymbolicLink()) return { skipped: 'is a symbolic link; the worldbook never follows links (copy the file itself here)' }
  if (!stat.isFile()) return { skipped: 'is not a plain file' }
  if (stat.size > MAX_ENTRY_BYTES) return { skipped: `is ${stat.size} bytes, over the ${MAX_ENTRY_BYTES} an entry may have` }
  let bytes: Buffer
  try {
    // Opened once, never through a link, never waiting: what the lstat above saw may have been swapped since.
    bytes = readRegularFileSync(path, false, MAX_ENTRY_BYTES)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ELOOP') return { skipped: 'is a symbolic link; the worldbook never follows links (copy the file itself here)' }
    if (code === 'EINVAL') return { skipped: 'is not a plain file' }
    if (code === 'EFBIG') return { skipped: `is over the ${MAX_ENTRY_BYTES} bytes an entry may have` }
    return { skipped: `cannot be read (${code ?? (error as Error).message})` }
  }
  const text = decode(bytes)
  if (text === undefined) return { skipped: 'is not valid UTF-8: save it as UTF-8' }
  return parseEntry(name, text, source, path)
}
