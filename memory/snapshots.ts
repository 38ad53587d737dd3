import { promises as fs } from 'node:fs'
import { join, dirname } from 'node:path'
import { ensureDir, fsyncDir, isTempName, walkFiles, FILE_MODE } from './fsio.ts'
import { localDate } from './paths.ts'
import type { MemoryStore } from './store.ts'
import { RefusedError, type Writer } from './validate.ts'

/**
 * Snapshots: full copies of the root in `<root>-snapshots/<name>/`, beside
 * the root so they never count toward its quota. Seven are kept (names start
 * with a date, so name order is time order). A snapshot is copied under the
 * write lock (a consistent view) into a temp folder and renamed into place, so
 * a listed snapshot is always complete.
 */
export const KEEP_SNAPSHOTS = 7
const NAME_RE = /^\d{4}-\d{2}-\d{2}(?:T\d{6}Z-[a-z-]+)?$/

export type SnapshotKind = 'daily' | 'manual' | 'pre-restore' | 'pre-migrate'

export interface SnapshotInfo { name: string; path: string; files: number }

function isStoreFile(rel: string): boolean {
  const base = rel.split('/').at(-1) ?? ''
  return !isTempName(rel) && !base.endsWith('.owner') && !/\.lock\.intent\.\d+$/.test(base) && !rel.split('/').some((p) => p.endsWith('.lock') || p.endsWith('.reaping') || p.includes('.tmp-'))
}

export function snapshotName(kind: SnapshotKind, at: Date): string {
  if (kind === 'daily') return localDate(at)
  const iso = at.toISOString()
  return `${localDate(at)}T${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z-${kind}`
}

function letters(n: number): string {
  let out = ''
  for (let k = n; k > 0; k = Math.floor(k / 26)) out = 'abcdefghijklmnopqrstuvwxyz'[k % 26]! + out
  return out
}

export async function listSnapshots(store: MemoryStore): Promise<string[]> {
  let names: string[] = []
  try { names = await fs.readdir(store.snapshotsDir) } catch { return [] }
  return names.filter((n) => NAME_RE.test(n)).sort()
}

async function copyTree(from: string, to: string, onFile?: (done: number, total: number) => void): Promise<number> {
  const files = (await walkFiles(from)).filter(isStoreFile)
  let done = 0
  for (const rel of files) {
    const target = join(to, rel)
    await ensureDir(dirname(target))
    await fs.copyFile(join(from, rel), target)
    await fs.chmod(target, FILE_MODE).catch(() => undefined)
    onFile?.(++done, files.length)
  }
  return files.length
}

export async function takeSnapshot(store: MemoryStore, kind: SnapshotKind = 'manual', onProgress?: (done: number, total: number) => void): Promise<SnapshotInfo> {
  await ensureDir(store.snapshotsDir)
  let name = snapshotName(kind, store.now())
  const existing = await listSnapshots(store)
  if (existing.includes(name)) {
    if (kind === 'daily') return { name, path: join(store.snapshotsDir, name), files: -1 }
    // Two in the same second: suffix -b, -c, … (letters keep names in time order and in NAME_RE).
    const base = name
    for (let n = 1; existing.includes(name); n++) name = `${base}-${letters(n)}`
  }
  const final = join(store.snapshotsDir, name)
  const tmp = join(store.snapshotsDir, `.tmp-${name}-${process.pid}`)
  const files = await store.withWriteLock(async () => {
    await fs.rm(tmp, { recursive: true, force: true })
    await ensureDir(tmp)
    const n = await copyTree(store.root, tmp, onProgress)
    await fs.rename(tmp, final)
    await fsyncDir(store.snapshotsDir)
    return n
  })
  await pruneSnapshots(store)
  return { name, path: final, files }
}

/** Keep the newest seven; also clear temp folders of snapshots that were cut off. */
export async function pruneSnapshots(store: MemoryStore): Promise<string[]> {
  const names = await listSnapshots(store)
  const drop = names.slice(0, Math.max(0, names.length - KEEP_SNAPSHOTS))
  for (const n of drop) await fs.rm(join(store.snapshotsDir, n), { recursive: true, force: true })
  let all: string[] = []
  try { all = await fs.readdir(store.snapshotsDir) } catch { /* none */ }
  for (const n of all) {
    const m = /^\.tmp-.*-(\d+)$/.exec(n)
    if (m !== null && !pidIsAlive(Number(m[1]))) await fs.rm(join(store.snapshotsDir, n), { recursive: true, force: true })
  }
  return drop
}

function pidIsAlive(pid: number): boolean {
  try { process.kill(pid, 0); return true } catch (e) { return (e as NodeJS.ErrnoException).code === 'EPERM' }
}

const VOLUME_SNAPSHOTS = '元/卷/'

/** Volume persona snapshots are read-only and immutable: bring back a missing one, never overwrite. */
async function restoreVolumeFile(store: MemoryStore, from: string, rel: string): Promise<void> {
  const target = store.path(rel)
  if (await fs.stat(target).then(() => true, () => false)) return
  const dir = dirname(target)
  const existed = await fs.stat(dir).then(() => true, () => false)
  if (existed) await fs.chmod(dir, 0o700)
  await ensureDir(dir)
  await fs.copyFile(join(from, rel), target)
  await fs.chmod(target, 0o400)
  await fs.chmod(dir, 0o500)
}

/** The daily snapshot, if today's is not there yet. */
export async function snapshotIfDue(store: MemoryStore): Promise<SnapshotInfo | undefined> {
  const today = snapshotName('daily', store.now())
  if ((await listSnapshots(store)).includes(today)) return undefined
  return await takeSnapshot(store, 'daily')
}

/**
 * Restore the root from a snapshot, file by file (each atomically), after
 * taking a `pre-restore` snapshot of what is there now — so a restore can
 * itself be undone. Refused while another process runs the engine.
 */
export async function restoreSnapshot(store: MemoryStore, name: string, ctx: { by: Writer }, onProgress?: (done: number, total: number) => void): Promise<{ restored: number; removed: number; safety: string }> {
  if (ctx.by !== 'person') throw new RefusedError('person-only', 'only the person may restore a snapshot')
  const names = await listSnapshots(store)
  if (typeof name !== 'string' || !names.includes(name)) {
    throw new RefusedError('not-found', `no snapshot named ${JSON.stringify(name)}. Available: ${names.join(', ') || '(none — run `cyrene backup`)'}`)
  }
  const engine = await store.engineStatus()
  if (engine.held && engine.alive === true && !engine.mine) {
    throw new RefusedError('engine-running', `the memory engine is running (process ${engine.owner?.pid}); quit DSH first, then restore`)
  }
  const safety = await takeSnapshot(store, 'pre-restore')
  const from = join(store.snapshotsDir, name)
  return await store.withWriteLock(async (lock) => {
    const want = (await walkFiles(from)).filter(isStoreFile)
    const wantSet = new Set(want)
    let done = 0
    for (const rel of want) {
      if (rel.startsWith(VOLUME_SNAPSHOTS)) await restoreVolumeFile(store, from, rel)
      // Bytes, not text: a file that is not valid UTF-8 comes back exactly as it was.
      else await store.replaceFile(rel, await fs.readFile(join(from, rel)), lock)
      onProgress?.(++done, want.length)
    }
    let removed = 0
    for (const rel of (await walkFiles(store.root)).filter(isStoreFile)) {
      // The audit log and the read-only persona snapshots of volumes are only ever added to.
      if (wantSet.has(rel) || rel.startsWith('元/审计/') || rel.startsWith(VOLUME_SNAPSHOTS)) continue
      await fs.unlink(join(store.root, rel))
      removed++
    }
    await store.audit({ op: 'restore', snapshot: name, safety: safety.name, by: ctx.by })
    return { restored: want.length, removed, safety: safety.name }
  })
}

