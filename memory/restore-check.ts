import { promises as fs, type Dirent } from 'node:fs'
import { join } from 'node:path'
import { parseEntryFile } from './entry.ts'
import { decodeUtf8, readNoFollow as readStoreFile } from './fsio.ts'
import { dateOfEntryFile } from './paths.ts'
import { isStoreFile } from './fsio.ts'
import { MANIFEST_FILE, MANIFEST_VERSION, sha256, type SnapshotManifest } from './snapshots.ts'
import type { Said } from './said.ts'
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
    const rels = names.map((d) => (rel === '' ? d.name : `${rel}/${d.name}`)).filter(isStoreFile)
    // One folder's entries looked at together: a snapshot of a large store is a thousand files, each a wait.
    const stats = await Promise.all(rels.map(async (r) => await fs.lstat(join(dir, r))))
    for (const [i, r] of rels.entries()) {
      const st = stats[i]!
      const kind = st.isSymbolicLink() ? 'link' : st.isDirectory() ? 'dir' : st.isFile() ? 'file' : 'other'
      out.set(r, { kind, size: st.size })
      if (kind === 'dir') await walk(r)
    }
  }
  await walk('')
  return out
}

/** One thing wrong with a snapshot: its English words and its code (`part.snapshot.<code>`, decision 082). */
export interface SnapshotProblem {
  en: string
  said: Said
}

function problem(en: string, code: string, params: Record<string, string | number | Said>): SnapshotProblem {
  return { en, said: { code: `part.snapshot.${code}`, params } }
}

/** What a format check finds in one file of the store (day/pending files and 元/*.json; other files have no format). */
function formatProblems(rel: string, buf: Buffer): SnapshotProblem[] {
  if (dateOfEntryFile(rel) !== undefined) {
    const { text, valid } = decodeUtf8(buf)
    if (!valid) return [problem(`${rel} is not valid UTF-8`, 'not-utf8', { file: rel })]
    const out = parseEntryFile(text, rel).problems.map((p) => problem(`${rel}:${p.line}: ${p.message}`, 'format', { at: `${rel}:${p.line}`, problem: p.said }))
    if (text !== '' && !text.endsWith('\n')) out.push(problem(`${rel} ends in the middle of a line (cut short?)`, 'cut', { file: rel }))
    return out
  }
  if (/^元\/[^/]+\.json$/.test(rel)) {
    const { text, valid } = decodeUtf8(buf)
    if (!valid) return [problem(`${rel} is not valid UTF-8`, 'not-utf8', { file: rel })]
    if (text.trim() === '') return []
    try {
      JSON.parse(text)
    } catch (e) {
      return [problem(`${rel} is not valid JSON (${(e as Error).message})`, 'json', { file: rel, error: (e as Error).message })]
    }
  }
  return []
}

function parseManifest(text: string): SnapshotManifest | SnapshotProblem {
  let v: unknown
  try {
    v = JSON.parse(text)
  } catch (e) {
    return problem(`it is not valid JSON (${(e as Error).message})`, 'manifest.json', { error: (e as Error).message })
  }
  const m = v as Partial<SnapshotManifest> | null
  if (m === null || typeof m !== 'object' || m.version !== MANIFEST_VERSION || m.files === null || typeof m.files !== 'object')
    return problem(`it is not a version ${MANIFEST_VERSION} manifest`, 'manifest.version', { version: MANIFEST_VERSION })
  for (const [rel, f] of Object.entries(m.files)) {
    if (f === null || typeof f !== 'object' || typeof f.size !== 'number' || typeof f.sha256 !== 'string')
      return problem(`its record of ${rel} is damaged`, 'manifest.record', { file: rel })
  }
  return m as SnapshotManifest
}

export interface CheckedSnapshot {
  /** Relative path → SHA-256 of the bytes checked (the staging copy must read the same bytes). */
  files: Map<string, string>
  verified: boolean
  warnings: string[]
  /** `warnings` as codes, for the person's language; same order. */
  warningsSaid: Said[]
}

/** The first eight problems, then how many more: as English lines and as saids. */
function shownProblems(problems: readonly SnapshotProblem[]): { en: string; said: Said[] } {
  const shown = problems.slice(0, 8)
  const en = shown.map((p) => `  - ${p.en}`)
  const said = shown.map((p) => p.said)
  if (problems.length > shown.length) {
    en.push(`  - … and ${problems.length - shown.length} more`)
    said.push({ code: 'part.snapshot.more', params: { n: problems.length - shown.length } })
  }
  return { en: en.join('\n'), said }
}

function refuseSnapshot(name: string, problems: SnapshotProblem[]): never {
  const shown = shownProblems(problems)
  throw new RefusedError(
    'bad-snapshot',
    `snapshot ${name} cannot be restored; nothing was changed:\n${shown.en}\nA snapshot is restored only whole and as it was taken: choose another one (cyrene restore --list), or put the named files back as they were.`,
    { variant: 'check', name, problems: shown.said },
  )
}

/** Step 1: the whole snapshot, before anything is touched. */
export async function checkSnapshot(dir: string, name: string): Promise<CheckedSnapshot> {
  const r = await inspectSnapshot(dir)
  if (r.problems.length > 0) refuseSnapshot(name, r.problems)
  return { files: r.files, verified: r.verified, warnings: r.warnings.map((w) => w.en), warningsSaid: r.warnings.map((w) => w.said) }
}

/**
 * What a restore would refuse this snapshot for, read-only: empty when it restores. The doctor
 * names a damaged snapshot by this, the restore's own rule (decision 290).
 */
export async function snapshotDamage(dir: string): Promise<SnapshotProblem[]> {
  // The format warnings of files the manifest vouches for change no verdict: not parsed here.
  return (await inspectSnapshot(dir, false)).problems
}

/** How many file reads of a snapshot are under way at once: their waits overlap, their order is kept. */
const READ_AHEAD = 8

/** `fn` over `items`, up to `ahead` at once, each result given in the items' order (a failure where its item is). */
async function* inOrder<T, R>(items: readonly T[], ahead: number, fn: (item: T) => Promise<R>): AsyncGenerator<[T, R]> {
  type Settled = { ok: true; value: R } | { ok: false; error: unknown }
  const started: Promise<Settled>[] = []
  const start = (i: number) =>
    (started[i] = fn(items[i]!).then(
      (value): Settled => ({ ok: true, value }),
      (error: unknown): Settled => ({ ok: false, error }),
    ))
  for (let i = 0; i < items.length; i++) {
    for (let j = started.length; j < Math.min(items.length, i + ahead); j++) start(j)
    const r = await started[i]!
    delete started[i]
    if (!r.ok) throw r.error
    yield [items[i]!, r.value]
  }
}

interface Inspected {
  problems: SnapshotProblem[]
  files: Map<string, string>
  verified: boolean
  warnings: SnapshotProblem[]
}

async function inspectSnapshot(dir: string, formats = true): Promise<Inspected> {
  const files = new Map<string, string>()
  const warnings: SnapshotProblem[] = []
  const top = await fs.lstat(dir)
  if (!top.isDirectory())
    return {
      problems: [
        top.isSymbolicLink() ? problem(`${dir} is a link`, 'top-link', { file: dir }) : problem(`${dir} is not a folder`, 'top-not-folder', { file: dir }),
      ],
      files,
      verified: false,
      warnings,
    }
  const tree = await lstatTree(dir)
  const problems: SnapshotProblem[] = []
  const folderForFile = (rel: string): SnapshotProblem => problem(`${rel} is a folder where a file should be`, 'folder', { file: rel })
  for (const [rel, e] of tree) {
    if (e.kind === 'link') problems.push(problem(`${rel} is a symbolic link (a snapshot holds only plain files)`, 'link', { file: rel }))
    else if (e.kind === 'other') problems.push(problem(`${rel} is not a plain file or folder`, 'other', { file: rel }))
    else if (e.kind === 'dir' && /\.(md|json|jsonl)$/.test(rel)) problems.push(folderForFile(rel))
  }
  const readNoFollow = async (rel: string): Promise<Buffer> => await readStoreFile(join(dir, rel))
  const manifestEntry = tree.get(MANIFEST_FILE)
  tree.delete(MANIFEST_FILE)
  if (manifestEntry?.kind === 'file') {
    const manifest = parseManifest((await readNoFollow(MANIFEST_FILE)).toString('utf8'))
    if ('en' in manifest) {
      problems.push(
        problem(`${MANIFEST_FILE} (its list of files and checksums) cannot be read: ${manifest.en}`, 'manifest', {
          file: MANIFEST_FILE,
          problem: manifest.said,
        }),
      )
      return { problems, files, verified: true, warnings }
    }
    const toRead: [string, { size: number; sha256: string }][] = []
    for (const [rel, want] of Object.entries(manifest.files)) {
      const e = tree.get(rel)
      if (e === undefined) problems.push(problem(`${rel} is missing (the snapshot had it when it was taken)`, 'missing', { file: rel }))
      else if (e.kind === 'file') toRead.push([rel, want])
      else if (e.kind === 'dir') problems.push(folderForFile(rel))
    }
    for await (const [[rel, want], buf] of inOrder(toRead, READ_AHEAD, ([rel]) => readNoFollow(rel))) {
      const sum = sha256(buf)
      if (buf.length !== want.size)
        problems.push(
          problem(`${rel} has ${buf.length} bytes; it had ${want.size} when the snapshot was taken (cut short or edited)`, 'size', {
            file: rel,
            bytes: buf.length,
            was: want.size,
          }),
        )
      else if (sum !== want.sha256) problems.push(problem(`${rel} was changed after the snapshot was taken (its checksum differs)`, 'changed', { file: rel }))
      else {
        files.set(rel, sum)
        if (formats) warnings.push(...formatProblems(rel, buf))
      }
    }
    for (const [rel, e] of tree) {
      if (e.kind === 'file' && !Object.hasOwn(manifest.files, rel))
        problems.push(problem(`${rel} was added after the snapshot was taken`, 'added', { file: rel }))
    }
  } else {
    const plain = [...tree].flatMap(([rel, e]) => (e.kind === 'file' ? [rel] : []))
    for await (const [rel, buf] of inOrder(plain, READ_AHEAD, readNoFollow)) {
      files.set(rel, sha256(buf))
      problems.push(...formatProblems(rel, buf))
    }
  }
  return { problems, files, verified: manifestEntry?.kind === 'file', warnings }
}
