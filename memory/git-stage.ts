import { promises as fs } from 'node:fs'
import { dirname, join } from 'node:path'
import { ensureDir } from './fsio.ts'
import { conflictRecord, DRIVERS, mergeBytes, mergeWith, utf8Text, type DriverName, type MergeConflict } from './git-merge.ts'
import { gitOpts, type RepoPaths } from './git-repo.ts'
import { catBlobs, git, gitText, NO_BLOB } from './git-run.ts'
import { LAYOUT } from './paths.ts'

/**
 * The merge commit of ours and theirs, built in git's object store without
 * touching the store's files (CONTRACT#git-switch: staged, then switched). Each
 * path is decided three-way from the merge base; a file both sides changed
 * is merged by the driver `.gitattributes` names for it — the same
 * `mergeWith` git's registered `merge=cyrene-*` drivers run, called here in
 * this process (one node start per file made the bench's merge 12× a sync
 * with nothing to merge; docs/decisions/072). What both changed differently
 * becomes a record in 元/冲突/ inside the same commit.
 */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904'

interface Side {
  mode: string
  sha: string
}

export interface StagedMerge {
  commit: string
  conflicts: number
}

async function treeDiff(paths: RepoPaths, env: NodeJS.ProcessEnv, from: string, to: string): Promise<Map<string, Side | undefined>> {
  const raw = (await git(['diff-tree', '-r', '-z', '--no-renames', from, to], gitOpts(paths, env))).stdout.toString('utf8')
  const parts = raw.split('\0')
  const out = new Map<string, Side | undefined>()
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const head = parts[i]!.replace(/^:/, '').split(' ')
    out.set(parts[i + 1]!, head[4]!.startsWith('D') ? undefined : { mode: head[1]!, sha: head[3]! })
  }
  return out
}

/** Which driver `.gitattributes` (as ours has it) names for each path; one git call. */
export async function driversOf(paths: RepoPaths, env: NodeJS.ProcessEnv, files: string[]): Promise<Map<string, DriverName>> {
  const out = new Map<string, DriverName>()
  if (files.length === 0) return out
  const raw = (await git(['check-attr', '-z', '--stdin', 'merge'], { ...gitOpts(paths, env), input: files.join('\0') + '\0' })).stdout
    .toString('utf8')
    .split('\0')
  for (let i = 0; i + 2 < raw.length; i += 3) {
    const value = raw[i + 2]!.replace(/^cyrene-/, '')
    out.set(raw[i]!, (DRIVERS as readonly string[]).includes(value) ? (value as DriverName) : 'whole')
  }
  return out
}

export async function stageMerge(
  paths: RepoPaths,
  env: NodeJS.ProcessEnv,
  ours: string,
  theirs: string,
  /** `mergeBase`: the caller's `git merge-base ours theirs` (undefined: unrelated histories). */
  opts: { at: string; message: string; mergeBase: string | undefined },
): Promise<StagedMerge> {
  const o = gitOpts(paths, env)
  const base = opts.mergeBase ?? EMPTY_TREE
  const [mine, other, times] = await Promise.all([
    treeDiff(paths, env, base, ours),
    treeDiff(paths, env, base, theirs),
    gitText(['show', '-s', '--format=%ct', ours, theirs], o),
  ])
  const [oursAt, theirsAt] = times.split('\n').map(Number)
  const newer = theirsAt! > oursAt! ? 'theirs' : 'ours'
  // path → new content (Buffer) or blob side or undefined (removed)
  const updates = new Map<string, Side | Buffer | undefined>()
  const both: string[] = []
  for (const [path, side] of other) {
    if (!mine.has(path)) updates.set(path, side)
    else {
      const m = mine.get(path)
      if (m?.sha === side?.sha) continue
      // Removed on one side, changed on the other: the change stays (a merge never loses what was written).
      if (m === undefined) updates.set(path, side)
      else if (side !== undefined) both.push(path)
    }
  }
  const drivers = await driversOf(paths, env, both)
  const conflicts: Array<{ file: string; c: MergeConflict }> = []
  const notes: Array<Record<string, unknown>> = []
  const specs = both.flatMap((path) => [`${base}:${path}`, mine.get(path)!.sha, other.get(path)!.sha])
  const blobs =
    base === EMPTY_TREE
      ? await catBlobs(
          specs.map((s, i) => (i % 3 === 0 ? NO_BLOB : s)),
          o,
        )
      : await catBlobs(specs, o)
  const text = (b: Buffer | undefined): string => (b === undefined ? '' : b.toString('utf8'))
  both.forEach((path, i) => {
    const [b, a, t] = [utf8Text(blobs[3 * i]), utf8Text(blobs[3 * i + 1]), utf8Text(blobs[3 * i + 2])]
    if (b === undefined || a === undefined || t === undefined) {
      // Not UTF-8 on some side: merged by its bytes, never decoded (decision 288).
      const r = mergeBytes(blobs[3 * i], blobs[3 * i + 1], blobs[3 * i + 2])
      if (r.bytes !== blobs[3 * i + 1]) updates.set(path, r.bytes)
      for (const c of r.conflicts) conflicts.push({ file: path, c })
      return
    }
    const r = mergeWith(drivers.get(path) ?? 'whole', b, a, t, { newer, file: path })
    if (r.text !== a) updates.set(path, Buffer.from(r.text, 'utf8'))
    for (const c of r.conflicts) conflicts.push({ file: path, c })
    notes.push(...r.notes)
  })
  for (const { file, c } of conflicts) {
    const { id, text: record } = conflictRecord(file, c, opts.at)
    updates.set(`${LAYOUT.meta}/冲突/${id}.json`, Buffer.from(record, 'utf8'))
  }
  if (notes.length > 0) {
    const rel = `${LAYOUT.meta}/审计/${opts.at.slice(0, 7)}.jsonl`
    const u = updates.get(rel)
    const had = Buffer.isBuffer(u) ? u.toString('utf8') : text((await catBlobs([updates.has(rel) ? (u?.sha ?? NO_BLOB) : `${ours}:${rel}`], o))[0])
    const lines = notes.map((n) => JSON.stringify({ at: opts.at, by: 'sync', ...n }))
    updates.set(rel, Buffer.from(`${had}${had === '' || had.endsWith('\n') ? '' : '\n'}${lines.join('\n')}\n`, 'utf8'))
  }
  return { commit: await writeCommit(paths, env, ours, theirs, updates, opts.message), conflicts: conflicts.length }
}

/** ours' tree with the updates laid over it, in a private index; the merge commit of both parents. */
async function writeCommit(
  paths: RepoPaths,
  env: NodeJS.ProcessEnv,
  ours: string,
  theirs: string,
  updates: Map<string, Side | Buffer | undefined>,
  message: string,
): Promise<string> {
  const index = join(dirname(paths.stage), 'merge.index')
  await ensureDir(dirname(index))
  await fs.rm(index, { force: true })
  const o = { ...gitOpts(paths, env), indexFile: index }
  try {
    await git(['read-tree', ours], o)
    const lines: string[] = []
    const fresh = [...updates].filter((e): e is [string, Buffer] => Buffer.isBuffer(e[1]))
    const shas = await hashBlobs(
      paths,
      o,
      fresh.map(([, b]) => b),
    )
    fresh.forEach(([path], i) => lines.push(`100644 ${shas[i]}\t${path}`))
    for (const [path, u] of updates) {
      if (u === undefined) lines.push(`0 ${NO_BLOB}\t${path}`)
      else if (!Buffer.isBuffer(u)) lines.push(`${u.mode} ${u.sha}\t${path}`)
    }
    if (lines.length > 0) await git(['update-index', '-z', '--index-info'], { ...o, input: lines.join('\0') + '\0' })
    const tree = await gitText(['write-tree'], o)
    return await gitText(['commit-tree', tree, '-p', ours, '-p', theirs, '-F', '-'], { ...o, input: `${message}\n` })
  } finally {
    await fs.rm(index, { force: true })
  }
}

/** Writes the blobs into git's store in one process (`hash-object --stdin-paths`); their shas in order. */
async function hashBlobs(paths: RepoPaths, o: Parameters<typeof git>[1], blobs: Buffer[]): Promise<string[]> {
  if (blobs.length === 0) return []
  const dir = join(dirname(paths.stage), 'merge-blobs')
  await fs.rm(dir, { recursive: true, force: true })
  await ensureDir(dir)
  try {
    const files = blobs.map((_, i) => join(dir, String(i)))
    // A new file each (`wx`): a link put in the folder meanwhile fails the write instead of being written through.
    for (let i = 0; i < blobs.length; i++) await fs.writeFile(files[i]!, blobs[i]!, { mode: 0o600, flag: 'wx' })
    return (await gitText(['hash-object', '-w', '--no-filters', '--stdin-paths'], { ...o, input: files.join('\n') + '\n' })).split('\n')
  } finally {
    await fs.rm(dir, { recursive: true, force: true })
  }
}
