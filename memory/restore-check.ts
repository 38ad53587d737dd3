import { promises as fs, constants as C, type Dirent } from 'node:fs'
import { join } from 'node:path'
import { parseEntryFile } from './entry.ts'
import { decodeUtf8 } from './fsio.ts'
import { dateOfEntryFile } from './paths.ts'
import { MANIFEST_FILE, MANIFEST_VERSION, isStoreFile, sha256, type SnapshotManifest } from './snapshots.ts'
import { RefusedError } from './validate.ts'

/**
 * Step 1 of a restore (memory/restore.ts): the whole snapshot is checked before anything is
 * touched — no links, no odd file types, every file as its manifest recorded it (or, for a
 * snapshot older than manifests, in the store's format).
 */

export interface TreeEntry {
  kind: 'file' | 'dir' | 'link' | 'other'
  size: number
}

/** Every entry under `dir`, by lstat: links are reported as links, never followed. Lock folders and temp files are left out. */
export async function lstatTree(dir: string): Promise<Map<string, TreeEntry>> {
  const out = new Map<string, TreeEntry>()
  async function walk(rel: string): Promise<void> {
    let names: Dirent[]
    try {
      names = await fs.readdir(rel === '' ? dir : join(dir, rel), { withFileTypes: true })
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return
      throw e
    }
    for (const d of names) {
      const r = rel === '' ? d.name : `${rel}/${d.name}`
      if (!isStoreFile(r)) continue
      const st = await fs.lstat(join(dir, r))
      const kind = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other'
      out.set(r, { kind, size: st.size })
      if (kind === 'dir') await walk(r)
    }
  }
  await walk('')
  return out
}

/** What a format check finds in one file of the store (day/pending files and 元/*.json; other files have no format). */
function formatProblems(rel: string, buf: Buffer): string[] {
  if (dateOfEntryFile(rel) !== undefined) {
    const { text, valid } = decodeUtf8(buf)
    if (!valid) return [`${rel} is not valid UTF-8`]
    const out = parseEntryFile(text, rel).problems.map((p) => `${rel}:${p.line}: ${p.message}`)
    if (text !== '' && !text.endsWith('\n')) out.push(`${rel} ends in the middle of a line (cut short?)`)
    return out
  }
  if (/^元\/[^/]+\.json$/.test(rel)) {
    const { text, valid } = decodeUtf8(buf)
    if (!valid) return [`${rel} is not valid UTF-8`]
    if (text.trim() === '') return []
    try {
      JSON.parse(text)
    } catch (e) {
      return [`${rel} is not valid JSON (${(e as Error).message})`]
    }
  }
  return []
}

function parseManifest(text: string): SnapshotManifest | string {
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch (e) {
    return `it is not valid JSON (${(e as Error).message})`
  }
  const m = v as Partial<SnapshotManifest> | null
  if (m === null || typeof m !== 'object' || m.version !== MANIFEST_VERSION || m.files === null || typeof m.files !== 'object')
    return `it is not a version ${MANIFEST_VERSION} manifest`
  for (const [rel, f] of Object.entries(m.files)) {
    if (f === null || typeof f !== 'object' || typeof f.size !== 'number' || typeof f.sha256 !== 'string') return `its record of ${rel} is damaged`
  }
  return m as SnapshotManifest
}

export interface CheckedSnapshot {
  /** Relative path → SHA-256 of the bytes checked (the staging copy must read the same bytes). */
  files: Map<string, string>
  verified: boolean
  warnings: string[]
}

function refuseSnapshot(name: string, problems: string[]): never {
  const shown = problems.slice(0, 8).map((p) => `  - ${p}`)
  if (problems.length > shown.length) shown.push(`  - … and ${problems.length - shown.length} more`)
  throw new RefusedError(
    'bad-snapshot',
    `snapshot ${name} cannot be restored; nothing was changed:\n${shown.join('\n')}\nA snapshot is restored only whole and as it was taken: choose another one (cyrene restore --list), or put the named files back as they were.`,
  )
}

/** Step 1: the whole snapshot, before anything is touched. */
export async function checkSnapshot(dir: string, name: string): Promise<CheckedSnapshot> {
  const top = await fs.lstat(dir)
  if (!top.isDirectory()) refuseSnapshot(name, [`${dir} is ${top.isSymbolicLink() ? 'a link' : 'not a folder'}`])
  const tree = await lstatTree(dir)
  const problems: string[] = []
  for (const [rel, e] of tree) {
    if (e.kind === 'link') problems.push(`${rel} is a symbolic link (a snapshot holds only plain files)`)
    else if (e.kind === 'other') problems.push(`${rel} is not a plain file or folder`)
    else if (e.kind === 'dir' && /\.(md|json|jsonl)$/.test(rel)) problems.push(`${rel} is a folder where a file should be`)
  }
  const readNoFollow = async (rel: string): Promise<Buffer> => {
    const fh = await fs.open(join(dir, rel), C.O_RDONLY | C.O_NOFOLLOW)
    try {
      return await fh.readFile()
    } finally {
      await fh.close()
    }
  }
  const files = new Map<string, string>()
  const warnings: string[] = []
  const manifestEntry = tree.get(MANIFEST_FILE)
  tree.delete(MANIFEST_FILE)
  if (manifestEntry?.kind === 'file') {
    const manifest = parseManifest((await readNoFollow(MANIFEST_FILE)).toString('utf8'))
    if (typeof manifest === 'string') refuseSnapshot(name, [...problems, `${MANIFEST_FILE} (its list of files and checksums) cannot be read: ${manifest}`])
    for (const [rel, want] of Object.entries(manifest.files)) {
      const e = tree.get(rel)
      if (e === undefined) {
        problems.push(`${rel} is missing (the snapshot had it when it was taken)`)
        continue
      }
      if (e.kind !== 'file') {
        if (e.kind === 'dir') problems.push(`${rel} is a folder where a file should be`)
        continue
      }
      const buf = await readNoFollow(rel)
      const sum = sha256(buf)
      if (buf.length !== want.size) problems.push(`${rel} has ${buf.length} bytes; it had ${want.size} when the snapshot was taken (cut short or edited)`)
      else if (sum !== want.sha256) problems.push(`${rel} was changed after the snapshot was taken (its checksum differs)`)
      else {
        files.set(rel, sum)
        warnings.push(...formatProblems(rel, buf))
      }
    }
    for (const [rel, e] of tree) {
      if (e.kind === 'file' && !Object.hasOwn(manifest.files, rel)) problems.push(`${rel} was added after the snapshot was taken`)
    }
  } else {
    for (const [rel, e] of tree) {
      if (e.kind !== 'file') continue
      const buf = await readNoFollow(rel)
      files.set(rel, sha256(buf))
      problems.push(...formatProblems(rel, buf))
    }
  }
  if (problems.length > 0) refuseSnapshot(name, problems)
  return { files, verified: manifestEntry?.kind === 'file', warnings }
}
