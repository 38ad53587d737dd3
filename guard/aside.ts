import { closeSync, constants as C, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, unlinkSync, type Stats } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { declareHostWrite } from '../durable/host-writes.ts'
import { DIR_MODE, FILE_MODE } from '../durable/modes.ts'
import { writeAllSync } from '../durable/lock.ts'
import { readRegularFileSync } from '../durable/read-regular.ts'

/**
 * What the guard put back is kept aside first (docs/decisions/296). While a window is open the guard
 * cannot tell the person's editor from the model's process, so a file the person saved during a tool
 * call is put back like any other change. Its bytes are copied, one folder per look, into
 * `<root>-put-back/<time>/` under their path from DSH_HOME, before the guard puts the old ones back:
 * nothing the person wrote is lost, and they can copy it back when no call runs. The folder is
 * protected as the store is (a call cannot change what is kept), and its writes are the host's
 * (declared). A file over `MAX_FILE` is not kept, and said so. The folder has no bound of its own: one let a
 * single call fill it, after which the person's save was put back with no copy (decision 327). A copy takes the
 * room its put back freed, so it adds nothing a call could not have written to the disk itself.
 */

/**
 * A file larger than this is not kept aside. A day file of the person's can be tens of MiB (100,000 undated lines
 * imported into one day are 27 MiB), and their editor's save of it must be kept like any other (decision 334).
 */
export const MAX_FILE = 64 * 1024 * 1024
/**
 * What one look reads at most (the copies are in memory until written): the smallest files first, so a call's
 * large dumps cannot push a person's edit out of the look.
 */
const LOOK_BUDGET = 128 * 1024 * 1024
/** Past this the doctor asks the person to clear the folder; nothing stops being kept. */
export const LARGE = 16 * 1024 * 1024

/** `<root>-put-back`, beside the store and its snapshots. */
export function putBackDirOf(root: string): string {
  return `${root}-put-back`
}

export interface Displaced {
  /** Its path from DSH_HOME (where it is kept under the look's folder). */
  rel: string
  bytes: Buffer
}

export interface Aside {
  /** The look's folder, when anything was kept. */
  dir?: string
  kept: number
  /** Files not kept: too large, or a write that failed (the disk full). */
  skipped: number
}

/**
 * A file, or the files in a folder, as they are on disk now (before the put back), with their paths from `from`:
 * the smallest first, each up to `maxFile`, all together up to `budget`; the rest counted as not kept.
 */
export function readDisplaced(
  paths: readonly string[],
  from: string,
  limits: { maxFile: number; budget: number } = { maxFile: MAX_FILE, budget: LOOK_BUDGET },
): { files: Displaced[]; skipped: number } {
  const found: { path: string; size: number }[] = []
  let skipped = 0
  for (const p of paths)
    eachFile(p, (path, st) => {
      if (!st.isFile()) return
      if (st.size > limits.maxFile) return void skipped++
      found.push({ path, size: st.size })
    })
  const files: Displaced[] = []
  let read = 0
  for (const { path, size } of found.sort((a, b) => a.size - b.size)) {
    if (read + size > limits.budget) {
      skipped++
      continue
    }
    try {
      const bytes = readRegularFileSync(path, false, limits.maxFile)
      read += bytes.length
      files.push({ rel: shownPath(path, from), bytes })
    } catch {
      skipped++
    }
  }
  return { files, skipped }
}

/** Writes the displaced files into a new folder of `<putBack>/`; never through a link, never past the bounds. */
export function keepAside(putBack: string, files: readonly Displaced[], now = new Date()): Aside {
  if (files.length === 0) return { kept: 0, skipped: 0 }
  let skipped = 0
  try {
    ensureRealDir(putBack)
    const dir = newLookDir(putBack, now)
    let kept = 0
    for (const f of files) {
      try {
        const target = join(dir, f.rel)
        for (const d of foldersBetween(dir, dirname(target))) ensureRealDir(d)
        writeNew(target, f.bytes)
        declareHostWrite(target, f.bytes)
        kept++
      } catch {
        skipped++
      }
    }
    return { dir, kept, skipped }
  } catch {
    return { kept: 0, skipped: files.length }
  }
}

/**
 * A new file holding `bytes`. 'wx': a name already there (or a link planted there) is never written through.
 * A copy cut short (a full disk) is removed, not left undeclared in a protected folder: the next look would put
 * it back as the call's and say the call made it. Removed only while it is still the file this made.
 */
function writeNew(target: string, bytes: Buffer): void {
  const fd = openSync(target, C.O_WRONLY | C.O_CREAT | C.O_EXCL | (C.O_NOFOLLOW ?? 0), FILE_MODE)
  try {
    writeAllSync(fd, bytes, target)
  } catch (error) {
    try {
      const mine = fstatSync(fd)
      const there = lstatSync(target)
      if (there.ino === mine.ino && there.dev === mine.dev) unlinkSync(target)
    } catch {
      // gone already, or no longer this file's name
    }
    throw error
  } finally {
    closeSync(fd)
  }
}

/** How many looks' folders the put-back folder holds and their size, for the doctor. */
export function putBackUsage(putBack: string): { looks: number; bytes: number } {
  return { looks: readdirOr(putBack).length, bytes: folderBytes(putBack) }
}

function newLookDir(putBack: string, now: Date): string {
  const stamp = now.toISOString().replace(/:/g, '-')
  for (let n = 0; n < 100; n++) {
    const dir = join(putBack, n === 0 ? stamp : `${stamp}-${n}`)
    try {
      mkdirSync(dir, { mode: DIR_MODE })
      declareHostWrite(dir)
      return dir
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
  }
  throw new Error('no free name for a look folder')
}

/** A folder made if missing (and declared), refused when a link or anything else stands there. */
function ensureRealDir(dir: string): void {
  const st = lstatOr(dir)
  if (st === undefined) {
    mkdirSync(dir, { mode: DIR_MODE })
    declareHostWrite(dir)
    return
  }
  if (!st.isDirectory()) throw new Error(`${dir} is not a folder`)
}

/** The folders from just below `top` down to `bottom`, parents first. */
function foldersBetween(top: string, bottom: string): string[] {
  const out: string[] = []
  for (let d = bottom; d !== top && d.startsWith(top + sep); d = dirname(d)) out.unshift(d)
  return out
}

/** Where a path is kept: its path from DSH_HOME, or under `elsewhere/` for a folder kept outside it (a whale-persona folder set apart). */
function shownPath(path: string, from: string): string {
  const rel = relative(from, path)
  return rel.startsWith('..') || rel === '' ? join('elsewhere', path.replace(/^[/\\]+/, '')) : rel
}

function folderBytes(dir: string): number {
  let total = 0
  eachFile(dir, (_, st) => void (total += st.size))
  return total
}

/** Everything below `path` that is not a folder (links and others included), never followed through a link. */
function eachFile(path: string, visit: (path: string, st: Stats) => void, depth = 0): void {
  const st = lstatOr(path)
  if (st === undefined || depth > 32) return
  if (!st.isDirectory()) return visit(path, st)
  for (const name of readdirOr(path)) eachFile(join(path, name), visit, depth + 1)
}

function lstatOr(path: string): Stats | undefined {
  try {
    return lstatSync(path)
  } catch {
    return undefined
  }
}

function readdirOr(path: string): string[] {
  try {
    return readdirSync(path)
  } catch {
    return []
  }
}
