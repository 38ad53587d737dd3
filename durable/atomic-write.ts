import { promises as fs, constants as C } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { basename, dirname, join } from 'node:path'
import { FILE_MODE } from './modes.ts'
import { beginHostWrite, declareHostWrite, endHostWrite, withdrawHostWrite } from './host-writes.ts'

/**
 * The one atomic file writer of this repository (memory/, whale/, the command
 * line and the build use it). Node standard library only.
 *
 * A reader sees either the whole old file or the whole new one, never a mix,
 * and a refusal of the system (disk full, no permission) leaves the old file
 * exactly as it was:
 *   temp file beside the target, opened exclusive and without following links
 *   → write until every byte is written → size check (fstat)
 *   → mode set with fchmod where the umask changed it (0777 cannot make it 000)
 *   → fsync → close → beforeRename() → rename → fsync of the folder.
 */

/** What the writer needs of an open file; node's FileHandle has it. Tests wrap it to inject faults. */
export interface WritableFile {
  write(buffer: Uint8Array, offset: number, length: number, position: number): Promise<{ bytesWritten: number }>
  chmod(mode: number): Promise<void>
  sync(): Promise<void>
  stat(): Promise<{ size: number; mode?: number }>
  close(): Promise<void>
}

export type OpenWritable = (path: string, flags: number, mode: number) => Promise<WritableFile>

export interface AtomicWriteOptions {
  /** Permission bits of the new file (default 0600), set with fchmod so the umask has no say. */
  mode?: number
  /** When the target exists, give the new file the target's permission bits instead of `mode`. */
  keepMode?: boolean
  /**
   * When the target is a symbolic link, replace the file it points to (the
   * link stays). Off by default: the link itself is then replaced by the file.
   * Callers that must never write through a link check for links first.
   */
  followLink?: boolean
  /**
   * Called synchronously right before the rename that makes the write
   * visible; throwing there abandons the write (the old file stays). A lock
   * holder re-checks there that it still owns its lock.
   */
  beforeRename?: () => void
  /** Test seam: how the temp file is opened. The real path uses node:fs. */
  open?: OpenWritable
}

/**
 * A write that did not happen. `code` and `path` are node's (ENOSPC, EACCES, …)
 * so a caller can map them (the command line exits 3 for refusals of the
 * system); the message says what happened and what to do.
 */
export class AtomicWriteError extends Error {
  readonly code: string
  readonly path: string
  readonly syscall: string | undefined
  /** False only when the new version is in place but its folder could not be synced. */
  readonly unchanged: boolean
  constructor(message: string, code: string, path: string, opts: { cause: unknown; syscall?: string | undefined; unchanged?: boolean }) {
    super(message, { cause: opts.cause })
    this.name = 'AtomicWriteError'
    this.code = code
    this.path = path
    this.syscall = opts.syscall
    this.unchanged = opts.unchanged ?? true
  }
}

/** Temp files: `<name>.tmp-<pid>-<8 hex>`, always beside their target. */
export const TEMP_SUFFIX_RE = /\.tmp-\d+-[0-9a-f]{8}$/

/**
 * Any temp suffix this repository's writers leave: ours, and `<name>.<digits>`
 * of write-file-atomic, which wrote the memory store before (its .md/.json/.jsonl files).
 */
const ANY_TEMP_SUFFIX_RE = new RegExp(`(?<=\\.(?:md|json|jsonl))\\.\\d+$|${TEMP_SUFFIX_RE.source}`)

/** Is this (a path ending in) a temp file of an atomic write, current or earlier? */
export function isTempName(name: string): boolean {
  return ANY_TEMP_SUFFIX_RE.test(name)
}

/** The file a temp file was being written for (the path without its temp suffix); other paths unchanged. */
export function withoutTempSuffix(path: string): string {
  return path.replace(ANY_TEMP_SUFFIX_RE, '')
}

export function tempNameFor(file: string): string {
  return join(dirname(file), `${basename(file)}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`)
}

const CREATE_FLAGS = C.O_WRONLY | C.O_CREAT | C.O_EXCL | (C.O_NOFOLLOW ?? 0)

const openReal: OpenWritable = (path, flags, mode) => fs.open(path, flags, mode)

/** Replace `file` with `data` atomically; see the module comment for the steps. */
export async function atomicWrite(file: string, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  beginHostWrite()
  try {
    await atomicWriteUnmarked(file, data, opts)
  } finally {
    endHostWrite()
  }
}

async function atomicWriteUnmarked(file: string, data: string | Uint8Array, opts: AtomicWriteOptions): Promise<void> {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data
  let target = file
  try {
    if (opts.followLink === true) target = await resolveLink(file)
  } catch (e) {
    throw describe(e, file, 'before')
  }
  const mode = opts.keepMode === true ? ((await existingMode(target)) ?? opts.mode ?? FILE_MODE) : (opts.mode ?? FILE_MODE)
  const temp = tempNameFor(target)
  // The store guard adopts this path as the host's own write (durable/host-writes.ts).
  declareHostWrite(target, bytes)
  try {
    await writeTemp(temp, bytes, mode, opts.open ?? openReal)
    opts.beforeRename?.()
    await fs.rename(temp, target)
  } catch (e) {
    withdrawHostWrite(target, bytes)
    await fs.unlink(temp).catch(() => undefined)
    throw describe(e, target, (await targetExists(target)) ? 'before' : 'new')
  }
  try {
    await fsyncDir(dirname(target))
  } catch (e) {
    throw describe(e, target, 'after')
  }
}

async function writeTemp(temp: string, bytes: Uint8Array, mode: number, open: OpenWritable): Promise<void> {
  const fh = await open(temp, CREATE_FLAGS, mode)
  try {
    await writeAll(fh, bytes)
    const st = await fh.stat()
    if (st.size !== bytes.byteLength) {
      throw Object.assign(new Error(`the temp file holds ${st.size} of ${bytes.byteLength} bytes after writing`), { code: 'EIO' })
    }
    // open() applied the umask (0777 would leave 000): set the mode ourselves
    // whenever it differs — before the fsync, so the mode is as durable as the bytes.
    if (st.mode === undefined || (st.mode & 0o7777) !== mode) await fh.chmod(mode)
    await fh.sync()
  } finally {
    await fh.close()
  }
}

/** A write may take fewer bytes than offered (a disk filling up); go on from where it stopped. */
async function writeAll(fh: WritableFile, bytes: Uint8Array): Promise<void> {
  let done = 0
  while (done < bytes.byteLength) {
    const { bytesWritten } = await fh.write(bytes, done, bytes.byteLength - done, done)
    if (bytesWritten <= 0) {
      throw Object.assign(new Error(`the file system took no bytes after ${done} of ${bytes.byteLength}`), { code: 'EIO' })
    }
    done += bytesWritten
  }
}

/** fsync a folder so a rename or a new entry in it survives a power cut. */
export async function fsyncDir(dir: string): Promise<void> {
  let fh: fs.FileHandle | undefined
  try {
    fh = await fs.open(dir, C.O_RDONLY | (C.O_DIRECTORY ?? 0))
    await fh.sync()
  } catch (e) {
    // Windows cannot open folders and a few file systems cannot sync them; the rename is still atomic there.
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'EISDIR' && code !== 'EPERM' && code !== 'EINVAL') throw e
  } finally {
    await fh?.close()
  }
}

/** The file a chain of links ends at (a dangling link's target too: that is where the file goes). */
async function resolveLink(file: string): Promise<string> {
  let cur = file
  for (let hops = 0; hops < 40; hops++) {
    let st
    try {
      st = await fs.lstat(cur)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return cur
      throw e
    }
    if (!st.isSymbolicLink()) return cur
    const to = await fs.readlink(cur)
    cur = to.startsWith('/') ? to : join(dirname(cur), to)
  }
  throw Object.assign(new Error(`too many symbolic links at ${file}`), { code: 'ELOOP', path: file })
}

async function existingMode(file: string): Promise<number | undefined> {
  try {
    return (await fs.stat(file)).mode & 0o7777
  } catch {
    return undefined
  }
}

/** Only a clear ENOENT means "no previous version"; a file we cannot even look at is assumed there. */
async function targetExists(file: string): Promise<boolean> {
  try {
    await fs.lstat(file)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ENOENT'
  }
}

const SYSTEM_REASONS: Record<string, string> = {
  ENOSPC: 'disk full',
  EDQUOT: 'disk full (quota exceeded)',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'read-only file system',
}

const WHAT_TO_DO: Record<string, string> = {
  ENOSPC: 'Free some space and try again.',
  EDQUOT: 'Free some space and try again.',
  EACCES: 'Check who owns that folder and its permissions, then try again.',
  EPERM: 'Check who owns that folder and its permissions, then try again.',
  EROFS: 'Mount that file system writable, then try again.',
}

/**
 * An error thrown while writing, reworded for a person and keeping node's code
 * and the target path. Errors that are not node's (a lock check in
 * beforeRename, a refusal) pass through unchanged.
 * `stage`: the target existed and is untouched / did not exist and still does
 * not / the new version is already in place (only the folder sync failed).
 */
function describe(e: unknown, target: string, stage: 'before' | 'new' | 'after'): Error {
  if (stage === 'after')
    return explainSystemError(e, `syncing the folder of ${target}`, target, 'the new version is in place but may not survive a power cut.', false)
  return explainSystemError(e, `writing ${target}`, target, stage === 'before' ? 'the previous version is unchanged.' : 'nothing was written.')
}

/**
 * `<reason> while <doing>; <outcome> <what to do>` as an AtomicWriteError that
 * keeps node's code; for other writers of this repository (an append-only
 * log) that fail the same ways. Anything that is not a node error is returned as is.
 */
export function explainSystemError(e: unknown, doing: string, path: string, outcome: string, unchanged = true): Error {
  const err = e as NodeJS.ErrnoException
  if (!(e instanceof Error) || e instanceof AtomicWriteError || typeof err.code !== 'string' || !/^E[A-Z0-9]+$/.test(err.code)) return e as Error
  const reason = SYSTEM_REASONS[err.code] ?? err.message
  const todo = WHAT_TO_DO[err.code] ?? 'Try again once the cause is fixed.'
  return new AtomicWriteError(`${reason} while ${doing}; ${outcome} ${todo}`, err.code, path, { cause: e, syscall: err.syscall, unchanged })
}
