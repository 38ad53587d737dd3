import { promises as fs } from 'node:fs'
import { basename, join, resolve } from 'node:path'
import { audit } from './audit.ts'
import { entriesOf, parseEntryFile } from './entry.ts'
import { decodeLines, importItems, type ImportItem, type Skipped } from './importer.ts'
import { ROOT_NAME, isDateString } from './paths.ts'
import { takeSnapshot } from './snapshots.ts'
import type { MemoryStore } from './store.ts'
import { RefusedError } from './validate.ts'

/**
 * Migration from the retired plugins (CONTRACT#retired-plugins). Reads only — the source is
 * never opened for writing. Sources recognised under `--from`:
 *  * 0.5.x day files: `YYYY-MM-DD.md` holding `<!--cyrene:{…}-->` comments,
 *    anywhere below the folder, read as-is (text and every key kept, gate: imported);
 *  * `cyrene-memory.md` of dsh-cyrene 0.6.x: one `- ` line per memory;
 *  * a whale-persona inbox `memory-inbox.jsonl`: replayed, confirmed entries only.
 * A file path may also be given directly.
 */
type SourceKind = 'day-file' | 'memory-md' | 'inbox'
interface Source {
  kind: SourceKind
  path: string
}

export interface MigrationReport {
  from: string
  dryRun: boolean
  sources: Array<Source & { items: number }>
  imported: number
  /** Refused items: fix them in the source and migrate again. */
  skipped: Skipped[]
  /** Items the store already has from an earlier run (not errors). */
  already: Skipped[]
  snapshot?: string
}

const SKIP_DIRS = new Set(['node_modules', '.git', 'profiles'])

/** The most a source file may hold: as `memory import` reads at once. A bigger one is refused before it is read. */
const MAX_SOURCE_BYTES = 256 * 2 ** 20

/** A source's bytes; one past `MAX_SOURCE_BYTES` (over 2 GiB, node cannot read it whole at all) is refused, nothing read. */
async function readSource(path: string): Promise<Buffer> {
  const { size } = await fs.stat(path)
  if (size > MAX_SOURCE_BYTES) {
    const mb = String(Math.ceil(size / 2 ** 20))
    const max = String(MAX_SOURCE_BYTES / 2 ** 20)
    throw new RefusedError(
      'bad-input',
      `${path} is ${mb} MiB, over the ${max} MiB a migration reads at once; nothing was read or changed. Split it (or move it out of the folder) and migrate again`,
      { variant: 'too-big', file: path, mb, max },
    )
  }
  return await fs.readFile(path)
}

async function looksLikeDayFile(path: string): Promise<boolean> {
  if (!/^\d{4}-\d{2}-\d{2}\.md$/.test(basename(path)) || !isDateString(basename(path, '.md'))) return false
  const head = (await readSource(path)).toString('utf8')
  return head.includes('<!--cyrene:')
}

async function classify(path: string): Promise<SourceKind | undefined> {
  if (path.endsWith('.jsonl')) return 'inbox'
  if (await looksLikeDayFile(path)) return 'day-file'
  if (basename(path) === 'cyrene-memory.md') return 'memory-md'
  return undefined
}

/** Find sources below a folder; skips our own store and its snapshots. */
async function findSources(from: string, depth = 0): Promise<Source[]> {
  const st = await fs.stat(from).catch(() => undefined)
  if (st === undefined)
    throw new RefusedError('not-found', `nothing at ${from}; give the old plugin's data folder, a DSH_HOME, or a file`, { variant: 'source', from })
  // A device or a pipe (/dev/zero never ends) is no source: refused as any other file that is none.
  if (!st.isFile() && !st.isDirectory())
    throw new RefusedError('bad-input', `${from} is not a day file, a cyrene-memory.md, or a memory-inbox.jsonl`, { variant: 'source', from })
  if (st.isFile()) {
    const kind = (await classify(from)) ?? (from.endsWith('.md') ? 'memory-md' : undefined)
    if (kind === undefined)
      throw new RefusedError('bad-input', `${from} is not a day file, a cyrene-memory.md, or a memory-inbox.jsonl`, { variant: 'source', from })
    return [{ kind, path: from }]
  }
  const out: Source[] = []
  const ents = await fs.readdir(from, { withFileTypes: true })
  for (const d of ents.sort((a, b) => (a.name < b.name ? -1 : 1))) {
    const p = join(from, d.name)
    if (d.isDirectory()) {
      if (SKIP_DIRS.has(d.name) || d.name === ROOT_NAME || d.name === `${ROOT_NAME}-snapshots` || depth > 8) continue
      out.push(...(await findSources(p, depth + 1)))
    } else if (d.isFile()) {
      const kind = await classify(p)
      if (kind === 'inbox' && d.name !== 'memory-inbox.jsonl') continue
      if (kind !== undefined) out.push({ kind, path: p })
    }
  }
  return out
}

/** Pure: 0.5.x day file → items, each keeping its whole comment. Entries spanning a line in `badLines` (not UTF-8) are left out. */
function itemsFromDayFile(text: string, path: string, badLines: ReadonlySet<number> = new Set()): { items: ImportItem[]; skipped: Skipped[] } {
  const parsed = parseEntryFile(text, path)
  const skipped: Skipped[] = parsed.problems.map((p) => ({
    origin: `${path}:${p.line}`,
    why: `${p.message} (left in the source, not imported)`,
    said: { code: 'why.left-in-source', params: { problem: p.said } },
  }))
  const readable: typeof parsed.segments = []
  for (const seg of parsed.segments) {
    const span = seg.raw.split('\n').length - (seg.raw.endsWith('\n') ? 1 : 0)
    const first = seg.type === 'entry' ? seg.line - span + 1 : seg.line
    const bad = [...badLines].filter((n) => n >= first && n < first + span)
    if (seg.type === 'entry' && bad.length > 0) {
      skipped.push({
        origin: `${path}#${seg.entry.meta.id}`,
        why: `its lines ${first}–${first + span - 1} include line ${bad.join(', ')}, which is not valid UTF-8; re-save the file as UTF-8 and migrate again`,
        said: { code: 'why.entry-not-utf8', params: { first, last: first + span - 1, bad: bad.join(', ') } },
      })
      continue
    }
    readable.push(seg)
  }
  const items = entriesOf({ ...parsed, segments: readable }).map((e): ImportItem => {
    // A day file's entries stay on that file's day, whatever time zone reads them.
    const date = basename(path, '.md')
    const item: ImportItem = { text: e.text, meta: { ...e.meta }, date, source_ref: `${path}#${e.meta.id}`, origin: `${path}#${e.meta.id}` }
    if (typeof e.meta.at !== 'string') item.at = `${date}T12:00:00`
    return item
  })
  return { items, skipped }
}

/** Pure: dsh-cyrene 0.6.x `cyrene-memory.md`, one `- ` line per memory. */
function itemsFromMemoryMd(text: string, path: string, fileTime: Date): ImportItem[] {
  const items: ImportItem[] = []
  text.split('\n').forEach((line, i) => {
    const m = /^\s*- (.*)$/.exec(line)
    if (m === null || m[1]!.trim() === '') return
    items.push({ text: m[1]!.trim(), at: fileTime.toISOString(), source_ref: `${path}:${i + 1}`, origin: `${path}:${i + 1}` })
  })
  return items
}

interface InboxItem {
  text: string
  at?: string
  status?: string
  tag?: string
  kind?: string
  line: number
}

/**
 * Pure: replay a whale-persona inbox log in line order (spec §5.4) and keep
 * the confirmed entries. Bad lines and unknown ops are skipped, never fatal.
 */
export function itemsFromInbox(text: string, path: string): { items: ImportItem[]; skipped: Skipped[] } {
  const queue: InboxItem[] = []
  const skipped: Skipped[] = []
  text.split('\n').forEach((line, i) => {
    if (line.trim() === '') return
    let o: Record<string, unknown>
    try {
      const v = JSON.parse(line) as unknown
      if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new Error('not an object')
      o = v as Record<string, unknown>
    } catch {
      skipped.push({ origin: `${path}:${i + 1}`, why: 'not a JSON object line', said: { code: 'why.not-object-line' } })
      return
    }
    const str = (k: string): string | undefined => (typeof o[k] === 'string' ? (o[k] as string) : undefined)
    if (o.op === undefined) {
      if (str('text') === undefined) {
        skipped.push({ origin: `${path}:${i + 1}`, why: 'fact line without text', said: { code: 'why.no-fact-text' } })
        return
      }
      queue.push({ text: str('text')!, at: str('at'), status: str('status'), tag: str('tag'), kind: str('kind'), line: i + 1 })
      return
    }
    const ref = str('ref')
    const idx = ref === undefined ? -1 : queue.findIndex((q) => q.text === ref)
    switch (o.op) {
      case 'confirm':
        if (idx >= 0) queue[idx]!.status = 'confirmed'
        break
      case 'reject':
      case 'drop':
        if (idx >= 0) queue.splice(idx, 1)
        break
      case 'supersede': {
        if (idx < 0 || str('text') === undefined) break
        const [old] = queue.splice(idx, 1)
        queue.push({ ...old!, text: str('text')!, at: str('at') ?? old!.at, status: str('status') ?? old!.status, line: i + 1 })
        break
      }
      default:
        skipped.push({
          origin: `${path}:${i + 1}`,
          why: `unknown op ${JSON.stringify(o.op)} (skipped)`,
          said: { code: 'why.unknown-op', params: { op: JSON.stringify(o.op) } },
        })
    }
  })
  const items: ImportItem[] = []
  for (const q of queue) {
    if (q.status !== 'confirmed') {
      skipped.push({
        origin: `${path}:${q.line}`,
        why: `not confirmed (status ${q.status ?? 'legacy'}); confirm it in whale-persona first`,
        said: { code: 'why.not-confirmed', params: { status: q.status ?? 'legacy' } },
      })
      continue
    }
    const item: ImportItem = {
      text: q.text,
      kind: q.kind === undefined || q.kind === 'memory' ? 'fact' : q.kind,
      source_ref: `${path}:${q.line}`,
      origin: `${path}:${q.line}`,
    }
    if (q.at !== undefined) item.at = q.at
    if (q.tag !== undefined) item.extra = { tag: q.tag }
    items.push(item)
  }
  return { items, skipped }
}

/** Turns an inbox file's text into items; the command line passes whale/'s replay, the reference of spec §5.4. */
export type InboxReader = (text: string, path: string) => { items: ImportItem[]; skipped: Skipped[] }

export async function migrate(
  store: MemoryStore,
  fromArg: string,
  opts: { dryRun?: boolean; onProgress?: (done: number, total: number) => void; readInbox?: InboxReader } = {},
): Promise<MigrationReport> {
  const from = resolve(fromArg)
  if (from === store.root || from.startsWith(`${store.root}/`))
    throw new RefusedError('bad-input', "that is this store itself; give the old plugin's folder", { variant: 'self' })
  const sources = await findSources(from)
  const all: ImportItem[] = []
  const skipped: Skipped[] = []
  const counted: MigrationReport['sources'] = []
  for (const src of sources) {
    // Decoded line by line: invalid UTF-8 is reported with its line, never imported as U+FFFD.
    const lines = decodeLines(await readSource(src.path))
    const badLines = new Set<number>()
    lines.forEach((l, i) => {
      if (l.badUtf8 !== undefined) {
        badLines.add(i + 1)
        skipped.push({ origin: `${src.path}:${i + 1}`, why: l.badUtf8, ...(l.badUtf8Said === undefined ? {} : { said: l.badUtf8Said }) })
      }
    })
    // Line-based sources lose only their bad lines; a day file keeps its structure and drops the entries around them.
    const text = lines.map((l) => (l.badUtf8 !== undefined && src.kind !== 'day-file' ? '' : l.text)).join('\n')
    let items: ImportItem[] = []
    if (src.kind === 'day-file') {
      const r = itemsFromDayFile(text, src.path, badLines)
      items = r.items
      for (const line of r.skipped) skipped.push(line)
    } else if (src.kind === 'inbox') {
      const r = (opts.readInbox ?? itemsFromInbox)(text, src.path)
      items = r.items
      for (const line of r.skipped) skipped.push(line)
    } else items = itemsFromMemoryMd(text, src.path, (await fs.stat(src.path)).mtime)
    counted.push({ ...src, items: items.length })
    // One push per item: a spread of a big file's items overflows the stack.
    for (const item of items) all.push(item)
  }
  const report: MigrationReport = { from, dryRun: opts.dryRun === true, sources: counted, imported: 0, skipped, already: [] }
  if (opts.dryRun !== true && all.length > 0) report.snapshot = (await takeSnapshot(store, 'pre-migrate')).name
  const r = await importItems(store, all, { dryRun: opts.dryRun === true, onProgress: opts.onProgress })
  report.imported = r.imported
  for (const line of r.skipped) report.skipped.push(line)
  report.already = r.already
  if (opts.dryRun !== true) {
    const stamp = store.now().toISOString().replace(/[:.]/g, '')
    await store.withWriteLock(async (lock) => {
      await store.writeMetaJson(`迁移报告-${stamp}.json`, report, lock)
    })
    await audit(store, { op: 'migrate', from, imported: report.imported, skipped: report.skipped.length, already: report.already.length, by: 'person' })
  }
  return report
}

/** Retired plugins found installed in a DSH_HOME's profiles (reported by doctor; both must be removed first). */
const RETIRED_PLUGINS = ['dsh-cyrene', 'dsh-cyrene-eternal-page-remembrance'] as const

export async function findRetiredPlugins(dshHome: string): Promise<Array<{ name: string; where: string }>> {
  const found: Array<{ name: string; where: string }> = []
  const profiles = join(dshHome, 'profiles')
  let names: string[] = []
  try {
    names = await fs.readdir(profiles)
  } catch {
    return found
  }
  for (const p of names) {
    for (const name of RETIRED_PLUGINS) {
      const pkg = join(profiles, p, 'node_modules', name, 'package.json')
      if (
        await fs.stat(pkg).then(
          () => true,
          () => false,
        )
      )
        found.push({ name, where: join(profiles, p) })
      else {
        try {
          const manifest = JSON.parse(await fs.readFile(join(profiles, p, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }
          if (manifest.dependencies?.[name] !== undefined) found.push({ name, where: join(profiles, p) })
        } catch {
          /* not a profile */
        }
      }
    }
  }
  return found
}
