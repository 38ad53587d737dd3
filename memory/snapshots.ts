import { promises as fs } from 'node:fs'
import { createHash } from 'node:crypto'
import { join, dirname, relative, sep } from 'node:path'
import { asKept, ensureDir, fsyncDir, isStoreFile, readNoFollow, walkFiles, FILE_MODE } from './fsio.ts'
import { localDate } from './paths.ts'
import { pidAlive } from '../durable/lock.ts'
import { asHostFolderWork, FolderListing, vouchedBytes, vouchedFilesUnder } from '../durable/host-writes.ts'
import type { StoreCore } from './store-core.ts'

/**
 * Snapshots: full copies of the root in `<root>-snapshots/<name>/`, beside
 * the root so they never count toward its quota. Seven daily ones are kept,
 * and apart from them the five newest manual / pre-restore / pre-migrate ones
 * ("newest" by the order they were taken, `seq` in the manifest, not by name:
 * a daily name is the local date alone, the others end in their kind). A snapshot is copied under the
 * write lock (a consistent view) into a temp folder, a manifest of sizes and
 * SHA-256 sums written last, and the folder renamed into place — so a listed
 * snapshot is complete, and a restore can tell a snapshot that changed since
 * from one that did not. Restore: restore.ts. CONTRACT#snapshots.
 */
export const KEEP_SNAPSHOTS = 7
/** Manual, pre-restore and pre-migrate snapshots are kept apart: they never push a daily one out. */
export const KEEP_OTHER_SNAPSHOTS = 5
const NAME_RE = /^\d{4}-\d{2}-\d{2}(?:T\d{6}Z-[a-z-]+)?$/

/** Written inside every snapshot taken since checksums were introduced; older ones have none ("unverified"). */
export const MANIFEST_FILE = '.manifest.json'
export const MANIFEST_VERSION = 1

export type SnapshotKind = 'daily' | 'manual' | 'pre-restore' | 'pre-migrate'

export interface SnapshotInfo {
  name: string
  path: string
  files: number
}

export interface SnapshotManifest {
  version: number
  taken_at: string
  kind: SnapshotKind
  /**
   * The order snapshots were taken in: one more than any snapshot beside it
   * had. Pruning keeps the most recently taken by this number, so a clock that
   * ran ahead and was put back (names and `taken_at` from the future) never
   * pushes out the snapshot just taken. Absent in older manifests.
   */
  seq?: number
  /** Relative path ('/'-separated) → size in bytes and hex SHA-256 of the bytes. */
  files: Record<string, { size: number; sha256: string }>
}

export function sha256(buf: Uint8Array): string {
  return createHash('sha256').update(buf).digest('hex')
}

function snapshotName(kind: SnapshotKind, at: Date): string {
  if (kind === 'daily') return localDate(at)
  const iso = at.toISOString()
  return `${localDate(at)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z-${kind}`
}

function letters(n: number): string {
  let out = ''
  for (let k = n; k > 0; k = Math.floor(k / 26)) out = 'abcdefghijklmnopqrstuvwxyz'[k % 26]! + out
  return out
}

export async function listSnapshots(store: StoreCore): Promise<string[]> {
  let names: string[] = []
  try {
    names = await fs.readdir(store.snapshotsDir)
  } catch {
    return []
  }
  return names.filter((n) => NAME_RE.test(n)).sort()
}

/** Each snapshot, oldest first, and whether it carries a manifest (verified) or predates them (checked by format only). */
export async function describeSnapshots(store: StoreCore): Promise<Array<{ name: string; verified: boolean }>> {
  const out: Array<{ name: string; verified: boolean }> = []
  for (const name of await listSnapshots(store)) {
    const verified = await fs.lstat(join(store.snapshotsDir, name, MANIFEST_FILE)).then(
      (s) => s.isFile(),
      () => false,
    )
    out.push({ name, verified })
  }
  return out
}

/** Write a new file (fsynced unless told not to); never follows a link: the name must not exist yet. */
export async function writeNewFile(file: string, data: Uint8Array | string, mode: number = FILE_MODE, sync = true): Promise<void> {
  const fh = await fs.open(file, 'wx', mode)
  try {
    await fh.writeFile(data)
    if (sync) await fh.sync()
  } finally {
    await fh.close()
  }
}

/**
 * Files of a daily snapshot are not fsynced one by one: that would cost DSH's
 * start seconds on a large store, and a power cut can then cost only that
 * snapshot (its manifest no longer matches, so restore refuses it) — never the
 * store. Snapshots taken right before a restore or an import, and the ones the
 * person asks for, are the way back: those are fsynced.
 */
function durable(kind: SnapshotKind): boolean {
  return kind !== 'daily'
}

/** Copy the store's files into `to` (a fresh folder) and return their manifest entries. */
async function copyStoreTree(
  from: string,
  to: string,
  sync: boolean,
  listing: FolderListing,
  onFile?: (done: number, total: number) => void,
): Promise<SnapshotManifest['files']> {
  // While a tool call's window is open, a file a call's process removed for a moment is still the store's.
  const kept = vouchedFilesUnder(from)
    .map((p) => relative(from, p).split(sep).join('/'))
    .filter((rel) => !rel.split('/').includes('.git'))
  const files = [...new Set([...(await walkFiles(from)), ...kept])].filter(isStoreFile).sort()
  const out: SnapshotManifest['files'] = {}
  const dirs = new Set<string>([to])
  let done = 0
  for (const rel of files) {
    let disk: Buffer | undefined
    try {
      disk = await readNoFollow(join(from, rel))
    } catch (e) {
      // Removed by hand between the listing and the read: it is not part of the store any more. A link or a FIFO
      // renamed in meanwhile is none of the store's files either: never followed, never waited on.
      const code = (e as NodeJS.ErrnoException).code
      if (code !== 'ENOENT' && code !== 'ELOOP' && code !== 'EINVAL') throw e
    }
    const buf = asKept(join(from, rel), disk)
    if (buf === undefined) continue
    const target = join(to, rel)
    listing.add(rel, buf)
    await ensureDir(dirname(target))
    dirs.add(dirname(target))
    await writeNewFile(target, buf, FILE_MODE, sync)
    out[rel] = { size: buf.length, sha256: sha256(buf) }
    onFile?.(++done, files.length)
  }
  if (sync) for (const d of dirs) await fsyncDir(d)
  return out
}

/** A name not yet taken for a snapshot of this kind (undefined: today's daily one exists). */
async function freshName(store: StoreCore, kind: SnapshotKind): Promise<string | undefined> {
  let name = snapshotName(kind, store.now())
  const existing = await listSnapshots(store)
  if (!existing.includes(name)) return name
  if (kind === 'daily') return undefined
  // Two in the same second: suffix -b, -c, … (letters keep names in time order and in NAME_RE).
  const base = name
  for (let n = 1; existing.includes(name); n++) name = `${base}-${letters(n)}`
  return name
}

/**
 * Take a snapshot while the caller holds the write lock. A failure (a full
 * disk, say) removes the half-copied temp folder before the error — with its
 * Node `code` — goes on to the caller: a failed backup must not keep the disk full.
 */
export async function snapshotUnderLock(store: StoreCore, kind: SnapshotKind, onProgress?: (done: number, total: number) => void): Promise<SnapshotInfo> {
  // The folder itself is the host's to make only when there is none yet.
  const made = await fs.lstat(store.snapshotsDir).then(
    () => [],
    () => [store.snapshotsDir],
  )
  await asHostFolderWork(made, async () => await ensureDir(store.snapshotsDir))
  const name = await freshName(store, kind)
  if (name === undefined) {
    const today = snapshotName(kind, store.now())
    return { name: today, path: join(store.snapshotsDir, today), files: -1 }
  }
  const final = join(store.snapshotsDir, name)
  const tmp = join(store.snapshotsDir, `.tmp-${name}-${process.pid}`)
  // Only the new snapshot is the host's work: what changes in the others meanwhile is a call's (decision 316),
  // and in it only what the copy made (decision 332).
  const listing = new FolderListing()
  return await asHostFolderWork([tmp, final], async () => await copyToSnapshot(store, kind, { name, final, tmp, listing }, onProgress), listing)
}

async function copyToSnapshot(
  store: StoreCore,
  kind: SnapshotKind,
  { name, final, tmp, listing }: { name: string; final: string; tmp: string; listing: FolderListing },
  onProgress?: (done: number, total: number) => void,
): Promise<SnapshotInfo> {
  try {
    await fs.rm(tmp, { recursive: true, force: true })
    await ensureDir(tmp)
    const files = await copyStoreTree(store.root, tmp, durable(kind), listing, onProgress)
    const seq = Math.max(0, ...(await takenOrder(store)).map((o) => o.seq)) + 1
    const manifest: SnapshotManifest = { version: MANIFEST_VERSION, taken_at: store.now().toISOString(), kind, seq, files }
    const manifestText = `${JSON.stringify(manifest)}\n`
    listing.add(MANIFEST_FILE, Buffer.from(manifestText))
    await writeNewFile(join(tmp, MANIFEST_FILE), manifestText)
    await fsyncDir(tmp)
    await fs.rename(tmp, final)
    takenHere.set(final, seq)
    await fsyncDir(store.snapshotsDir)
    return { name, path: final, files: Object.keys(files).length }
  } catch (e) {
    await fs.rm(tmp, { recursive: true, force: true }).catch(() => undefined)
    throw e
  }
}

export async function takeSnapshot(store: StoreCore, kind: SnapshotKind = 'manual', onProgress?: (done: number, total: number) => void): Promise<SnapshotInfo> {
  const info = await store.withWriteLock(async () => await snapshotUnderLock(store, kind, onProgress))
  if (info.files >= 0) await pruneSnapshots(store)
  return info
}

/** A snapshot's kind from its name: the date alone is a daily one. */
export function kindOfName(name: string): 'daily' | 'other' {
  return /^\d{4}-\d{2}-\d{2}$/.test(name) ? 'daily' : 'other'
}

/**
 * Keep the newest seven daily and the newest five others; also clear temp folders of snapshots that were cut
 * off. `spare` names are never removed (the snapshot a restore is reading), so
 * for a while there may be one more.
 */
/** The order of each snapshot this process took (by its path), as it wrote it: the manifest on disk may be a call's by now (decision 328). */
const takenHere = new Map<string, number>()

/**
 * Every snapshot with the order it was taken in (its manifest's `seq`; 0 for
 * one without, which then ranks below every numbered one, by name), oldest first.
 * While a tool call's window is open, a manifest on disk is not trusted: a call's
 * process can rewrite one for the moment a prune reads it, before the guard puts
 * it back, and the prune would drop another snapshot as the host's work (decision
 * 328). The order is then what this process wrote, or the manifest as the guard
 * keeps it; a snapshot the guard keeps no manifest for (one a call made) is left
 * out: neither counted nor dropped.
 */
async function takenOrder(store: StoreCore): Promise<Array<{ name: string; seq: number }>> {
  const out: Array<{ name: string; seq: number }> = []
  for (const name of await listSnapshots(store)) {
    const mine = takenHere.get(join(store.snapshotsDir, name))
    if (mine !== undefined) {
      out.push({ name, seq: mine })
      continue
    }
    const manifest = join(store.snapshotsDir, name, MANIFEST_FILE)
    const kept = vouchedBytes(manifest)
    if (kept === null) continue
    let seq = 0
    try {
      const m = JSON.parse(Buffer.from(kept ?? (await readNoFollow(manifest))).toString('utf8')) as { seq?: unknown }
      if (typeof m.seq === 'number' && Number.isSafeInteger(m.seq) && m.seq > 0) seq = m.seq
    } catch {
      seq = 0
    }
    out.push({ name, seq })
  }
  return out.sort((a, b) => a.seq - b.seq || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
}

/** A snapshot (or a cut-off temp folder) removed as the host's work: that folder alone (decision 316). */
async function dropFolder(folder: string): Promise<void> {
  await asHostFolderWork([folder], async () => await fs.rm(folder, { recursive: true, force: true }))
  takenHere.delete(folder)
}

export async function pruneSnapshots(store: StoreCore, opts: { spare?: readonly string[] } = {}): Promise<string[]> {
  const spare = new Set(opts.spare ?? [])
  // By the order they were taken, never by name: names carry the clock's date, and a clock can be wrong.
  const names = (await takenOrder(store)).map((o) => o.name)
  const daily = names.filter((n) => kindOfName(n) === 'daily')
  const other = names.filter((n) => kindOfName(n) === 'other')
  const drop = [...daily.slice(0, Math.max(0, daily.length - KEEP_SNAPSHOTS)), ...other.slice(0, Math.max(0, other.length - KEEP_OTHER_SNAPSHOTS))]
    .filter((n) => !spare.has(n))
    .sort()
  for (const n of drop) await dropFolder(join(store.snapshotsDir, n))
  let all: string[] = []
  try {
    all = await fs.readdir(store.snapshotsDir)
  } catch {
    /* none */
  }
  for (const n of all) {
    const m = /^\.tmp-.*-(\d+)$/.exec(n)
    if (m !== null && !pidAlive(Number(m[1]))) await dropFolder(join(store.snapshotsDir, n))
  }
  return drop
}

/** The daily snapshot, if today's is not there yet. */
export async function snapshotIfDue(store: StoreCore): Promise<SnapshotInfo | undefined> {
  const today = snapshotName('daily', store.now())
  if ((await listSnapshots(store)).includes(today)) return undefined
  return await takeSnapshot(store, 'daily')
}
