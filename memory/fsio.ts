import { promises as fs, constants as C } from 'node:fs'
import { dirname, basename, join } from 'node:path'
import writeFileAtomic from 'write-file-atomic'

/** Files the user owns are private: 0600 files, 0700 folders. */
export const FILE_MODE = 0o600
export const DIR_MODE = 0o700

/** Write-file-atomic leaves `<name>.<digits>` behind when killed mid-write. */
export const TEMP_RE = /\.md\.\d+$|\.json\.\d+$|\.jsonl\.\d+$/

export async function fsyncDir(dir: string): Promise<void> {
  let fh: fs.FileHandle | undefined
  try {
    fh = await fs.open(dir, C.O_RDONLY)
    await fh.sync()
  } catch (e) {
    // Some platforms (Windows) cannot open folders; the rename is still atomic there.
    if ((e as NodeJS.ErrnoException).code !== 'EISDIR' && (e as NodeJS.ErrnoException).code !== 'EPERM') throw e
  } finally {
    await fh?.close()
  }
}

/**
 * mkdir -p with 0700, fsyncing each parent whose listing changed, so a folder
 * made just before a crash does not vanish with the file written into it.
 */
export async function ensureDir(dir: string): Promise<void> {
  const missing: string[] = []
  let cur = dir
  for (;;) {
    try {
      const st = await fs.stat(cur)
      if (!st.isDirectory()) throw new Error(`${cur} exists and is not a folder`)
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
    try { await fs.mkdir(d, { mode: DIR_MODE }) } catch (e) { if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e }
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
}

/** Atomic replace: temp file + fsync + rename (write-file-atomic) + fsync of the folder. */
export async function writeAtomic(file: string, data: string | Buffer, opts: WriteAtomicOptions = {}): Promise<void> {
  await ensureDir(dirname(file))
  opts.beforeRename?.()
  await writeFileAtomic(file, data, { mode: FILE_MODE, fsync: true, encoding: 'utf8' })
  await fsyncDir(dirname(file))
}

export async function readTextOr(file: string, fallback: string): Promise<string> {
  try { return await fs.readFile(file, 'utf8') } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return fallback
    throw e
  }
}

export async function exists(p: string): Promise<boolean> {
  try { await fs.lstat(p); return true } catch { return false }
}

/**
 * Append a line to an append-only log (audit). O_APPEND writes of one short
 * line are not interleaved between processes; a torn last line after a crash
 * is skipped by the reader.
 */
export async function appendLine(file: string, line: string): Promise<void> {
  await ensureDir(dirname(file))
  const fh = await fs.open(file, 'a', FILE_MODE)
  try {
    await fh.write(`${line}\n`)
    await fh.sync()
  } finally { await fh.close() }
}

/** Every file under dir (relative paths with '/'), skipping lock folders. */
export async function walkFiles(dir: string, rel = ''): Promise<string[]> {
  let names: import('node:fs').Dirent[]
  try { names = await fs.readdir(join(dir, rel), { withFileTypes: true }) } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw e
  }
  const out: string[] = []
  for (const d of names) {
    const r = rel === '' ? d.name : `${rel}/${d.name}`
    if (d.isDirectory()) {
      if (d.name.endsWith('.lock')) continue
      out.push(...await walkFiles(dir, r))
    } else if (d.isFile()) out.push(r)
  }
  return out
}

export async function sizeOf(dir: string, rel = ''): Promise<number> {
  let total = 0
  for (const f of await walkFiles(dir, rel)) {
    try { total += (await fs.stat(join(dir, f))).size } catch { /* removed meanwhile */ }
  }
  return total
}

export function isTempName(name: string): boolean {
  return TEMP_RE.test(basename(name))
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
const lossyUtf8 = new TextDecoder('utf-8')

/** Decode a file; `valid: false` means some bytes are not UTF-8 and a rewrite would change them. */
export function decodeUtf8(buf: Uint8Array): { text: string; valid: boolean } {
  try { return { text: strictUtf8.decode(buf), valid: true } } catch { return { text: lossyUtf8.decode(buf), valid: false } }
}

/** Read a file we are about to rewrite; refuses files whose bytes would not survive a rewrite. */
export async function readForRewrite(file: string, rel: string): Promise<string> {
  let buf: Buffer
  try { buf = await fs.readFile(file) } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return ''
    throw e
  }
  const { text, valid } = decodeUtf8(buf)
  if (!valid) {
    const err = new Error(`${rel} is not valid UTF-8 (edited with another encoding?); it was left untouched and nothing was written. Re-save it as UTF-8, then try again.`)
    err.name = 'NotUtf8'
    throw err
  }
  return text
}
