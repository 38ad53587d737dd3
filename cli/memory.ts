import { promises as fs } from 'node:fs'
import { resolve } from 'node:path'
import { atomicWrite } from '../durable/atomic-write.ts'
import { CliError, type CliIO, type SubCommand } from './io.ts'
import { entryJson, guarded, oneLine, openStore, out, parse, progress, readStdinText } from './memory-shared.ts'
import { safeJson } from './terminal.ts'
import { describeSystemFailure } from './failures.ts'
import { dropRecallCache, loadRecall } from '../memory/recall-store.ts'
import {
  checkStore, importItems, parseImportJsonl, searchEntries, listPending, recheckPending, restoreTombstone,
  readAllAnchors, writeAnchor, ANCHOR_KEYS, resolveDshHome, type AnchorKey, type NewEntry, type StoredEntry, type CheckReport, type Finding,
} from '../memory/index.ts'
export { backupCommand, restoreCommand, volumeCommand, migrateCommand } from './memory-admin.ts'

export const MEMORY_HELP = `cyrene memory — the memory store (<DSH_HOME>/cyrene-philia093-0/)

  list [--date D | --from D --to D] [--pending] [--kind K] [--limit N]
  show <id>
  write <text | -> [--kind K] [--axis 德|智|体|美|劳] [--reason R] [--src-quote Q] [--src-id ID]...
        [--link ID|TYPE]... [--consequence scale=text]... [--at WHEN] [--base]
        WHEN: YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS[.sss]] with optional Z or ±HH:MM
        (local time without one); years 1000–9999. --link takes an id that exists.
  search <query> [--limit N] [--pending]
  log [--limit N]                  entries and audit records, newest first
  check [--fix]                    verify the whole store; exit 1 on a problem
  import --jsonl <file | -> [--dry-run]
                                   lines {"text","at"?,"kind"?,"axis"?,"reason"?,"ref"?};
                                   a re-run skips what it imported before
  export [--out FILE] [--pending]  JSON lines, one entry each
  reindex                          re-read every file and rebuild the recall index
  recheck --scope month|year       re-check 余页/待定 (read-only; promotes what now passes)
  untomb <id>                      bring a tombstoned pending entry back
  anchor [show] | anchor write <self|user|origin|goal> <text> [--core]

Every command: --json (machine output), --root DIR (instead of DSH_HOME), --quiet (no progress).
Writes from this command line are a person's writes.
`

type Handler = (argv: string[], io: CliIO) => Promise<number>

const handlers: Record<string, Handler> = {
  list: async (argv, io) => {
    const a = parse(argv, { date: { type: 'string' }, from: { type: 'string' }, to: { type: 'string' }, pending: { type: 'boolean', default: false }, kind: { type: 'string' }, limit: { type: 'string', default: '50' } })
    const store = await openStore(io, a.values.root)
    const limit = positiveInt(a.values.limit, 'limit')
    const { entries, problems } = await store.scan()
    const dateOf = (e: StoredEntry): string => /(\d{4}-\d{2}-\d{2})\.md$/.exec(e.file)?.[1] ?? ''
    let list = entries.filter((e) => (a.values.pending ? e.area === 'pending' : e.area === 'day'))
    if (a.values.date !== undefined) list = list.filter((e) => dateOf(e) === a.values.date)
    if (a.values.from !== undefined) list = list.filter((e) => dateOf(e) >= a.values.from!)
    if (a.values.to !== undefined) list = list.filter((e) => dateOf(e) <= a.values.to!)
    if (a.values.kind !== undefined) list = list.filter((e) => e.meta.kind === a.values.kind)
    list = list.slice(-limit)
    let pendingRecords: Record<string, unknown> = {}
    if (a.values.pending) pendingRecords = Object.fromEntries((await guarded(() => listPending(store))).map((p) => [p.id, p.record]))
    out(io, a.values.json, { entries: list.map((e) => ({ ...entryJson(e), ...(a.values.pending ? { record: pendingRecords[e.id] } : {}) })), problems }, () =>
      `${list.map((e) => `${e.id}  ${dateOf(e)}  ${(e.meta.kind ?? '-').padEnd(10)} ${e.meta.axis ?? '·'} ${(e.meta.gate ?? '').padEnd(8)} ${oneLine(e.text)}`).join('\n')}${list.length > 0 ? '\n' : ''}` +
      `${list.length} entr${list.length === 1 ? 'y' : 'ies'}${problems.length > 0 ? `; ${problems.length} unreadable comment(s) — run \`cyrene memory check\`` : ''}\n`)
    return 0
  },

  show: async (argv, io) => {
    const a = parse(argv, {})
    const id = a.positionals[0]
    if (id === undefined) throw new CliError('give the id: cyrene memory show <id>', 2)
    const store = await openStore(io, a.values.root)
    const e = await store.get(id)
    if (e === undefined) throw new CliError(`no entry with id ${JSON.stringify(id)}; find ids with \`cyrene memory list\` or \`search\``, 1)
    out(io, a.values.json, entryJson(e), () => `${e.text}\n\n${e.file}:${e.line}\n${JSON.stringify(e.meta, null, 2)}\n`)
    return 0
  },

  write: async (argv, io) => {
    const a = parse(argv, {
      kind: { type: 'string' }, axis: { type: 'string' }, reason: { type: 'string' }, 'src-quote': { type: 'string' },
      'src-id': { type: 'string', multiple: true }, link: { type: 'string', multiple: true }, consequence: { type: 'string', multiple: true },
      at: { type: 'string' }, base: { type: 'boolean', default: false },
    })
    let text = a.positionals.join(' ')
    if (text === '-') text = await readStdinText(io)
    if (text.trim() === '') throw new CliError('give the text: cyrene memory write "…" (or - to read standard input)', 2)
    const input: NewEntry = { text }
    const v = a.values
    if (v.kind !== undefined) input.kind = v.kind
    if (v.axis !== undefined) input.axis = v.axis
    if (v.reason !== undefined) input.reason = v.reason
    if (v['src-quote'] !== undefined) input.src_quote = v['src-quote']
    if (v['src-id'] !== undefined) input.src_ids = v['src-id']
    if (v.link !== undefined) input.links = v.link
    if (v.at !== undefined) input.at = v.at
    if (v.base) input.base = true
    if (v.consequence !== undefined) {
      input.consequence = {}
      for (const c of v.consequence) {
        const m = /^(self|other|relation|world|future)=(.+)$/s.exec(c)
        if (m === null) throw new CliError(`--consequence takes scale=text with scale one of self, other, relation, world, future; got ${JSON.stringify(c)}`, 2)
        input.consequence[m[1] as 'self'] = m[2]!
      }
    }
    const store = await openStore(io, v.root)
    const r = await guarded(() => store.write(input, { by: 'person' }))
    out(io, v.json, r, () => [
      r.gate === 'day' ? `written ${r.id} → ${r.file}` : `kept ${r.id} in ${r.file}: it did not pass the five-virtue gate yet`,
      ...r.reasons.map((x) => `  · ${x}`),
      ...r.notes.map((x) => `  note: ${x}`),
    ].join('\n') + '\n')
    return 0
  },

  search: async (argv, io) => {
    const a = parse(argv, { limit: { type: 'string', default: '20' }, pending: { type: 'boolean', default: false } })
    const q = a.positionals.join(' ')
    if (q.trim() === '') throw new CliError('give words to look for: cyrene memory search <query>', 2)
    const store = await openStore(io, a.values.root)
    const hits = await searchEntries(store, q, { limit: positiveInt(a.values.limit, 'limit'), includePending: a.values.pending })
    out(io, a.values.json, hits.map((h) => ({ score: h.score, ...entryJson(h.entry) })), () =>
      hits.length === 0 ? `nothing found for ${JSON.stringify(q)}\n` : `${hits.map((h) => `${h.entry.id}  ${oneLine(h.entry.text, 70)}`).join('\n')}\n`)
    return 0
  },

  log: async (argv, io) => {
    const a = parse(argv, { limit: { type: 'string', default: '30' } })
    const store = await openStore(io, a.values.root)
    const limit = positiveInt(a.values.limit, 'limit')
    const { entries } = await store.scan()
    const items: Array<{ at: string; what: string; record: Record<string, unknown> }> = []
    for (const e of entries) items.push({ at: String(e.meta.at ?? ''), what: `${e.meta.by ?? '?'} wrote ${e.id} (${e.meta.gate ?? '-'}) ${oneLine(e.text, 40)}`, record: { op: 'write', ...entryJson(e) } })
    for (const r of await store.auditLog()) items.push({ at: String(r.at ?? ''), what: `${String(r.by ?? '?')} ${String(r.op)} ${JSON.stringify({ ...r, at: undefined, op: undefined, by: undefined })}`, record: r })
    items.sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0))
    const shown = items.slice(0, limit)
    out(io, a.values.json, shown.map((x) => x.record), () => `${shown.map((x) => `${x.at}  ${x.what}`).join('\n')}${shown.length > 0 ? '\n' : 'nothing yet\n'}`)
    return 0
  },

  check: async (argv, io) => {
    const a = parse(argv, { fix: { type: 'boolean', default: false } })
    const store = await openStore(io, a.values.root)
    let dshHome: string | undefined
    if (a.values.root === undefined) dshHome = resolveDshHome({ env: io.env })
    const report = await guarded(() => checkStore(store, { fix: a.values.fix, dshHome, onProgress: progress(io, 'check: files', a.values.quiet) }))
    out(io, a.values.json, report, () => renderCheck(report))
    return report.errors.length > 0 ? 1 : 0
  },

  import: async (argv, io) => {
    const a = parse(argv, { jsonl: { type: 'string' }, 'dry-run': { type: 'boolean', default: false } })
    const file = a.values.jsonl
    if (file === undefined) throw new CliError('give the file: cyrene memory import --jsonl <file | ->', 2)
    // Bytes, not text: a line of invalid UTF-8 is reported with its number, never imported as U+FFFD.
    let bytes: string | Uint8Array
    if (file === '-') {
      if (io.readStdin === undefined) throw new CliError('standard input is not available here', 2)
      bytes = await io.readStdin()
    } else {
      try { bytes = await fs.readFile(resolve(io.cwd, file)) } catch (e) {
        // An unreadable input file is the system refusing (exit 3); a missing one is bad input (exit 2).
        const system = describeSystemFailure(e, { command: 'memory import', argv, nothingChanged: true })
        if (system !== undefined && (e as NodeJS.ErrnoException).code !== 'EISDIR') throw new CliError(system.message, system.exit)
        throw new CliError(`cannot read ${file}: ${(e as Error).message}`, 2)
      }
    }
    const store = await openStore(io, a.values.root)
    const parsed = parseImportJsonl(bytes, file)
    const r = await guarded(() => importItems(store, parsed.items, { dryRun: a.values['dry-run'], onProgress: progress(io, 'import', a.values.quiet) }))
    r.skipped.unshift(...parsed.skipped)
    r.skipped.sort((x, y) => lineOf(x.origin) - lineOf(y.origin))
    out(io, a.values.json, r, () => [
      `${r.dryRun ? 'would import' : 'imported'} ${r.imported} entr${r.imported === 1 ? 'y' : 'ies'} into ${r.files.length} day file(s)` +
        `${r.already.length > 0 ? `; ${r.already.length} line(s) already imported before, skipped` : ''}` +
        `${r.skipped.length > 0 ? `; ${r.skipped.length} line(s) refused — fix them and import again` : ''}`,
      ...r.skipped.map((s) => `  refused ${s.origin}: ${s.why}`),
    ].join('\n') + '\n')
    return 0
  },

  export: async (argv, io) => {
    const a = parse(argv, { out: { type: 'string' }, pending: { type: 'boolean', default: false } })
    const store = await openStore(io, a.values.root)
    const { entries } = await store.scan()
    const list = entries.filter((e) => a.values.pending || e.area === 'day')
    const lines = list.map((e) => safeJson(entryJson(e))).join('\n') + (list.length > 0 ? '\n' : '')
    if (a.values.out === undefined) { io.stdout(lines); return 0 }
    await atomicWrite(resolve(io.cwd, a.values.out), lines, { mode: 0o600, followLink: true })
    out(io, a.values.json, { exported: list.length, file: a.values.out }, () => `exported ${list.length} entries to ${a.values.out}\n`)
    return 0
  },

  reindex: async (argv, io) => {
    const a = parse(argv, {})
    const store = await openStore(io, a.values.root)
    const { entries, problems, files } = await store.scan(progress(io, 'reindex: files', a.values.quiet))
    await dropRecallCache(store)
    const recall = await loadRecall(store, entries)
    const result = { files: files.length, entries: entries.length, indexed: recall.index.size, cacheSaved: recall.saveError === undefined, problems }
    out(io, a.values.json, result, () => `read ${files.length} files, ${entries.length} entries; recall index rebuilt (${recall.index.size} entries${recall.saveError === undefined ? '' : `, not cached: ${recall.saveError}`})${problems.length > 0 ? `; ${problems.length} unreadable comment(s) — see \`cyrene memory check\`` : ''}\n`)
    return 0
  },

  recheck: async (argv, io) => {
    const a = parse(argv, { scope: { type: 'string', default: 'month' } })
    if (a.values.scope !== 'month' && a.values.scope !== 'year') throw new CliError('--scope is month or year', 2)
    const store = await openStore(io, a.values.root)
    const r = await guarded(() => recheckPending(store, { scope: a.values.scope as 'month' | 'year', by: 'person' }))
    out(io, a.values.json, r, () => `promoted ${r.promoted.length}, still pending ${r.stillPending.length}, tombstoned ${r.tombstoned.length}, skipped ${r.skipped.length}\n`)
    return 0
  },

  untomb: async (argv, io) => {
    const a = parse(argv, {})
    const id = a.positionals[0]
    if (id === undefined) throw new CliError('give the id: cyrene memory untomb <id>', 2)
    const store = await openStore(io, a.values.root)
    await guarded(() => restoreTombstone(store, id, { by: 'person' }))
    out(io, a.values.json, { restored: id }, () => `${id} is back in 余页/待定's re-check cycle\n`)
    return 0
  },

  anchor: async (argv, io) => {
    const a = parse(argv, { core: { type: 'boolean', default: false } })
    const [verb = 'show', key, ...rest] = a.positionals
    const store = await openStore(io, a.values.root)
    if (verb === 'show') {
      const all = await readAllAnchors(store)
      out(io, a.values.json, all, () => ANCHOR_KEYS.map((k) => `## ${k} (${all[k].file}, ${all[k].chars}/${all[k].limit})\n${all[k].core}${all[k].sections.map((s) => `\n[卷${s.vol}·${s.date}] ${s.text}`).join('')}`).join('\n\n') + '\n')
      return 0
    }
    if (verb !== 'write') throw new CliError('anchor show | anchor write <self|user|origin|goal> <text> [--core]', 2)
    if (key === undefined || !(ANCHOR_KEYS as readonly string[]).includes(key)) throw new CliError(`anchor key is one of ${ANCHOR_KEYS.join(', ')}`, 2)
    const r = await guarded(() => writeAnchor(store, key as AnchorKey, { text: rest.join(' '), mode: a.values.core ? 'core' : 'section' }, { by: 'person' }))
    out(io, a.values.json, r, () => `wrote ${r.file} (${r.chars} characters${r.archived > 0 ? `, ${r.archived} older section(s) moved to 锚/历史/` : ''})\n`)
    return 0
  },
}

/** The line number at the end of an origin `file:N` (0 when there is none), to list refusals in file order. */
function lineOf(origin: string): number {
  const m = /:(\d+)$/.exec(origin)
  return m === null ? 0 : Number(m[1])
}

function positiveInt(v: string | undefined, name: string): number {
  const n = Number(v)
  if (!Number.isInteger(n) || n <= 0) throw new CliError(`--${name} must be a positive whole number`, 2)
  return n
}

function where(f: Finding): string { return f.file === undefined ? '' : `${f.file}${f.line === undefined ? '' : `:${f.line}`}: ` }

export function renderCheck(r: CheckReport): string {
  const lines = [
    `${r.stats.entries} entries (${r.stats.day} in day files, ${r.stats.pending} pending) in ${r.stats.files} files; ${(r.stats.bytes / 1024 / 1024).toFixed(2)} MB used, 余页 ${(r.stats.marginBytes / 1024 / 1024).toFixed(2)} MB`,
    ...r.errors.map((f) => `error   ${where(f)}${f.message} [${f.code}]`),
    ...r.warnings.map((f) => `warning ${where(f)}${f.message} [${f.code}]`),
    ...r.notes.map((f) => `note    ${where(f)}${f.message} [${f.code}]`),
    ...r.fixed.map((x) => `fixed   ${x}`),
    r.errors.length === 0 ? 'the store checks clean' : `${r.errors.length} problem(s) found; nothing was changed`,
  ]
  return `${lines.join('\n')}\n`
}

export const memoryCommand: SubCommand = async (argv, io) => {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') { io.stdout(MEMORY_HELP); return name === undefined ? 2 : 0 }
  const h = handlers[name]
  if (h === undefined) throw new CliError(`unknown sub-command "${name}". Run \`cyrene memory --help\`.`, 2)
  if (rest.includes('--help') || rest.includes('-h')) { io.stdout(MEMORY_HELP); return 0 }
  return await h(rest, io)
}
