import { promises as fs, constants as C, lstatSync, readlinkSync, type Stats } from 'node:fs'
import { isUtf8 } from 'node:buffer'
import { dirname, join, relative, isAbsolute, sep } from 'node:path'
import { atomicWrite, explainSystemError, fsyncDir, isTempName, type OpenWritable } from '../durable/atomic-write.ts'

/** Temp files of atomic writes, current and earlier (`check --fix` and every rewrite clear them). */
export { isTempName } from '../durable/atomic-write.ts'
import { DIR_MODE, FILE_MODE } from '../durable/modes.ts'
import { asHostWrite, declareHostAppend, declareHostWrite, vouchedBytes } from '../durable/host-writes.ts'
import { notRegularFile, readRegularFileSync } from '../durable/read-regular.ts'
import { RefusedError } from './validate.ts'

/** Files the user owns are private (0600 files, 0700 folders): the modes are durable/'s. */
export { DIR_MODE, FILE_MODE, fsyncDir }

const NOFOLLOW = C.O_NOFOLLOW ?? 0

/**
 * mkdir -p with 0700, fsyncing each parent whose listing changed, so a folder
 * made just before a crash does not vanish with the file written into it.
 * Each new folder is chmod'ed to 0700: under umask 0777 mkdir alone makes 000.
 */
export async function ensureDir(dir: string): Promise<void> {
  const missing: string[] = []
  let cur = dir
  for (;;) {
    try {
      const st = await fs.stat(cur)
      if (!st.isDirectory()) throw Object.assign(new Error(`${cur} exists and is not a folder`), { code: 'ENOTDIR', path: cur, syscall: 'mkdir' })
      break
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
      missing.push(cur)
      const up = dirname(cur)
      if (up === cur) break
      cur = up
    }
  }
  for (const d of missing.reverse()) {
    declareHostWrite(d)
    try {
      await fs.mkdir(d, { mode: DIR_MODE })
      await fs.chmod(d, DIR_MODE)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw explainSystemError(e, `creating the folder ${d}`, d, 'nothing was written.')
    }
    await fsyncDir(dirname(d))
  }
}

export interface WriteAtomicOptions {
  /**
   * Called synchronously right before the rename that makes the write visible;
   * throwing there abandons the write (the old file stays). The write lock
   * uses it to re-check that it still owns the lock.
   */
  beforeRename?: () => void
  /**
   * The store root: no path component below it (the root itself may be a
   * link) may be a symbolic link, and an existing target must be a regular
   * file; otherwise the write is refused (RefusedError 'link-in-store').
   */
  root?: string
  /** Test seam, passed on to the writer. */
  open?: OpenWritable
}

/**
 * Atomic replace through durable/'s writer (temp file, write loop, fsync,
 * size check, rename, folder fsync), 0600 whatever the umask. A failure leaves
 * the old file as it was and keeps node's error code (ENOSPC …) and path.
 */
export async function writeAtomic(file: string, data: string | Buffer, opts: WriteAtomicOptions = {}): Promise<void> {
  if (opts.root !== undefined) await refuseLinksBelow(opts.root, file)
  await ensureDir(dirname(file))
  await atomicWrite(file, data, { mode: FILE_MODE, beforeRename: opts.beforeRename, open: opts.open })
}

/** `rel` of `file` below `root`, '/'-separated; throws for a path outside the root (a bug, never input). */
function relBelow(root: string, file: string): string {
  const rel = relative(root, file)
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) throw new Error(`${file} is not below the store root ${root}`)
  return rel.split(sep).join('/')
}

/** What lies at `file` below a store root, looked at without following any link below the root. */
export type BelowRoot =
  | { kind: 'file'; stat: Stats }
  | { kind: 'missing' }
  /** `rel`: the first component that is a link, and where it points. */
  | { kind: 'link'; rel: string; target: string }
  | { kind: 'not-file'; rel: string }

/**
 * Walks from `root` (exclusive: the root itself may be a link) down to `file`
 * with lstat. Missing components end the walk: there is nothing to follow yet.
 */
export async function inspectBelow(root: string, file: string): Promise<BelowRoot> {
  const parts = relBelow(root, file).split('/')
  let cur = root
  for (let i = 0; i < parts.length; i++) {
    cur = join(cur, parts[i]!)
    let st: Stats
    try {
      st = await fs.lstat(cur)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' }
      throw e
    }
    const rel = parts.slice(0, i + 1).join('/')
    if (st.isSymbolicLink()) return { kind: 'link', rel, target: await fs.readlink(cur).catch(() => '?') }
    if (i === parts.length - 1) return st.isFile() ? { kind: 'file', stat: st } : { kind: 'not-file', rel }
  }
  return { kind: 'missing' }
}

export function linkRefusal(rel: string): RefusedError {
  return new RefusedError(
    'link-in-store',
    `${rel} is a symbolic link; the memory store never follows links below its root — replace the link with the file itself, then try again`,
    { path: rel },
  )
}

async function refuseLinksBelow(root: string, file: string): Promise<void> {
  const found = await inspectBelow(root, file)
  if (found.kind === 'link') throw linkRefusal(found.rel)
  if (found.kind === 'not-file')
    throw new RefusedError('not-a-file', `${found.rel} is not a regular file; the memory store only writes plain files — move it away, then try again`, {
      path: found.rel,
    })
}

/**
 * A store file's text, or `fallback` when it is missing — or is reached
 * through a symbolic link (the file itself or a folder below `root`): the
 * store never reads through one (CONTRACT#no-links; `check` reports it).
 */
export async function readTextOr(root: string, file: string, fallback: string): Promise<string> {
  return (await readUtf8Or(root, file, fallback)).text
}

/**
 * `readTextOr`, also saying whether the bytes were UTF-8 (`valid: false`: the text holds
 * replacement characters, and a rewrite from it would change bytes the person did not touch).
 */
export async function readUtf8Or(root: string, file: string, fallback: string): Promise<{ text: string; valid: boolean }> {
  if ((await inspectBelow(root, file)).kind !== 'file') return { text: fallback, valid: true }
  try {
    const bytes = await readNoFollow(file)
    return { text: bytes.toString('utf8'), valid: isUtf8(bytes) }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT' || code === 'ELOOP') return { text: fallback, valid: true }
    throw e
  }
}

/**
 * Append a line to an append-only log (audit). O_APPEND writes of one short
 * line are not interleaved between processes; a torn last line after a crash
 * is skipped by the reader. A new log file is made 0600 with fchmod (umask-proof);
 * a log that is a symbolic link is refused, never followed.
 */
export async function appendLine(file: string, line: string, opts: { root?: string } = {}): Promise<void> {
  await asHostWrite(() => appendLineUnmarked(file, line, opts))
}

async function appendLineUnmarked(file: string, line: string, opts: { root?: string }): Promise<void> {
  declareHostWrite(file)
  if (opts.root !== undefined) await refuseLinksBelow(opts.root, file)
  await ensureDir(dirname(file))
  let fh: fs.FileHandle
  let created = true
  try {
    try {
      fh = await fs.open(file, C.O_RDWR | C.O_APPEND | C.O_CREAT | C.O_EXCL | NOFOLLOW, FILE_MODE)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      created = false
      fh = await fs.open(file, C.O_RDWR | C.O_APPEND | NOFOLLOW)
    }
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw linkRefusal(opts.root === undefined ? file : relBelow(opts.root, file))
    throw explainSystemError(e, `appending to ${file}`, file, 'nothing was appended.')
  }
  let before = -1
  try {
    if (created) await fh.chmod(FILE_MODE)
    before = (await fh.stat()).size
    // A line torn by a crash (or a full disk) has no end: this one starts on a line of its own, or the reader would lose both.
    const torn = before > 0 && (await fh.read(Buffer.alloc(1), 0, 1, before - 1)).buffer[0] !== 0x0a
    const bytes = Buffer.from(`${torn ? '\n' : ''}${line}\n`, 'utf8')
    let done = 0
    while (done < bytes.byteLength) {
      const { bytesWritten } = await fh.write(bytes, done, bytes.byteLength - done)
      if (bytesWritten <= 0) throw Object.assign(new Error('the file system took no bytes'), { code: 'EIO' })
      done += bytesWritten
    }
    await fh.sync()
    declareHostAppend(file, bytes)
  } catch (e) {
    // What this call wrote of its line goes again (best effort): a short write leaves no half line behind.
    if (before >= 0) await fh.truncate(before).catch(() => undefined)
    throw explainSystemError(e, `appending to ${file}`, file, 'earlier lines are unchanged (the reader skips a torn last line).')
  } finally {
    await fh.close()
  }
  if (created) await fsyncDir(dirname(file))
}

/** Where a link at `path` points, when it is one; undefined for anything else (a store folder linked to a disk that is not mounted). */
export function linkTarget(path: string): string | undefined {
  try {
    return lstatSync(path).isSymbolicLink() ? readlinkSync(path) : undefined
  } catch {
    return undefined
  }
}

/** Lock folders, owner and intent records, temp files and temp folders are never part of a snapshot, nor counted toward the quota. */
export function isStoreFile(rel: string): boolean {
  const base = rel.split('/').at(-1) ?? ''
  return (
    !isTempName(rel) &&
    !base.endsWith('.owner') &&
    !/\.lock\.intent\.\d+$/.test(base) &&
    !rel.split('/').some((p) => p.endsWith('.lock') || p.endsWith('.reaping') || p.includes('.tmp-'))
  )
}

/** Every file under dir (relative paths with '/'), skipping lock folders. */
/**
 * Every file under `dir/rel`, relative to `dir`. A folder that cannot be listed throws, unless
 * `unreadable` is given: then a folder below `rel` that this user may not open (EACCES, EPERM)
 * is named there and walked past, so a reader that must go on (a turn's recall) reads the rest.
 */
export async function walkFiles(dir: string, rel = '', unreadable?: string[]): Promise<string[]> {
  let names: import('node:fs').Dirent[]
  try {
    names = await fs.readdir(join(dir, rel), { withFileTypes: true })
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return []
    if (unreadable !== undefined && rel !== '' && (code === 'EACCES' || code === 'EPERM')) {
      unreadable.push(rel)
      return []
    }
    throw e
  }
  const out: string[] = []
  for (const d of names) {
    const r = rel === '' ? d.name : `${rel}/${d.name}`
    if (d.isDirectory()) {
      // A lock is not the store's data; .git/ is the replication's history (counted apart, CONTRACT#git-history).
      if (d.name.endsWith('.lock') || d.name === '.git') continue
      out.push(...(await walkFiles(dir, r, unreadable)))
    } else if (d.isFile()) out.push(r)
  }
  return out
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
const lossyUtf8 = new TextDecoder('utf-8')

/** Decode a file; `valid: false` means some bytes are not UTF-8 and a rewrite would change them. */
export function decodeUtf8(buf: Uint8Array): { text: string; valid: boolean } {
  try {
    return { text: strictUtf8.decode(buf), valid: true }
  } catch {
    return { text: lossyUtf8.decode(buf), valid: false }
  }
}

/**
 * Read a file we are about to rewrite; refuses files whose bytes would not
 * survive a rewrite. With `root`, a link on the way (or the file itself being
 * one) is refused: its content is never read.
 */
export async function readForRewrite(file: string, rel: string, root?: string): Promise<string> {
  if (root !== undefined) await refuseLinksBelow(root, file)
  let buf: Buffer | undefined
  try {
    buf = await readNoFollow(file)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ELOOP') throw linkRefusal(rel)
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
  }
  buf = asKept(file, buf)
  if (buf === undefined) return ''
  const { text, valid } = decodeUtf8(buf)
  if (!valid) {
    const err = new Error(
      `${rel} is not valid UTF-8 (edited with another encoding?); it was left untouched and nothing was written. Re-save it as UTF-8, then try again.`,
    )
    err.name = 'NotUtf8'
    throw Object.assign(err, { rel })
  }
  return text
}

/**
 * A store file's bytes as the host may build on them (undefined: no such file). While a tool call may
 * be writing, that is what the store guard keeps, not what a call's process just put there: the host
 * must not carry it into its own write or a snapshot (durable/host-writes.ts `vouchedBytes`).
 */
export function asKept(file: string, disk: Buffer | undefined): Buffer | undefined {
  const vouched = vouchedBytes(file)
  if (vouched === undefined) return disk
  if (vouched === null) return undefined
  return disk !== undefined && disk.equals(vouched) ? disk : Buffer.from(vouched)
}

/**
 * The bytes of a file, refusing (ELOOP) if the file itself is a symbolic link. Opened without waiting and
 * read only if it is a regular file: a FIFO a tool call's process renames in under a store file's name
 * (after the caller's lstat) would otherwise stop the open until someone writes to it, with the store's
 * write lock held (EINVAL, "not a regular file").
 */
export async function readNoFollow(file: string): Promise<Buffer> {
  const fh = await fs.open(file, C.O_RDONLY | NOFOLLOW | NONBLOCK)
  try {
    if (!(await fh.stat()).isFile()) throw notRegularFile(file)
    return await fh.readFile()
  } finally {
    await fh.close()
  }
}

/** readNoFollow in one blocking call: for a thread that has nothing else to do meanwhile (the recall worker). */
export function readNoFollowSync(file: string): Buffer {
  return readRegularFileSync(file)
}

const NONBLOCK = C.O_NONBLOCK ?? 0
