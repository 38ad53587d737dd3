import { promises as fs } from 'node:fs'
import { resolve } from 'node:path'
import { atomicWrite } from '../durable/atomic-write.ts'
import { CliError, type CliIO } from './io.ts'
import { CyreneCommand, repeated } from './command.ts'
import { entryJson, guarded, oneLine, openStore, out, ownerLine, progress, readStdinText, storeOptions, type StoreOptions } from './memory-shared.ts'
import { marksCommand, type MarksOptions } from './memory-marks.ts'
import { safeJson } from './terminal.ts'
import { describeSystemFailure } from './failures.ts'
import { dropRecallCache, loadRecall } from '../memory/recall-store.ts'
import {
  checkStore,
  importItems,
  isForgedClaim,
  isPersonBase,
  ownerOf,
  type PersonMarks,
  parseImportJsonl,
  searchEntries,
  listPending,
  recheckPending,
  restoreTombstone,
  readAllAnchors,
  writeAnchor,
  ANCHOR_KEYS,
  resolveDshHome,
  type AnchorKey,
  type NewEntry,
  type StoredEntry,
  type CheckReport,
  type Finding,
} from '../memory/index.ts'
import { recallCommand, resemblingEntry, RECALL_OPTION_DEFAULTS, type RecallOptions } from './memory-recall.ts'
export { backupFamily, restoreFamily, volumeFamily, migrateFamily } from './memory-admin.ts'

const WHEN_HELP = `
--at WHEN: YYYY-MM-DD, or YYYY-MM-DDTHH:MM[:SS[.sss]] with optional Z or ±HH:MM
  (local time without one); years 1000–9999.`

/** `cyrene memory …`: every sub-command, its options and its help. */
export function memoryFamily(io: CliIO): CyreneCommand {
  const memory = new CyreneCommand('memory', io)
    .description('the memory store (<DSH_HOME>/cyrene-philia093-0/)')
    .addHelpText(
      'after',
      "\nEvery command: --json (machine output), --root DIR (instead of DSH_HOME), --quiet (no progress).\nWrites from this command line are a person's writes.",
    )
  const sub = (name: string, about: string): CyreneCommand => memory.command(name).description(about)

  storeOptions(
    sub('list', 'the newest entries of the day files (or of 余页/待定)')
      .option('--date <D>', 'only this day (YYYY-MM-DD)')
      .option('--from <D>', 'only from this day on')
      .option('--to <D>', 'only up to this day')
      .option('--pending', 'the entries in 余页/待定, with their records')
      .option('--kind <K>', 'only entries of this kind')
      .option('--limit <N>', 'how many', '50'),
  ).act<ListOptions>(async (o) => await list(o, io))
  storeOptions(sub('show', 'one entry: its text, where it is and its metadata; exit 1 when there is none').argument('<id>')).act<StoreOptions>(
    async (o, args) => await show(o, args, io),
  )
  storeOptions(
    sub('write', 'write an entry, as the person')
      .argument('<text...>', 'the text, or - to read it from standard input')
      .option('--kind <K>', 'what kind of entry (fact, preference, …)')
      .option('--axis <AXIS>', 'the virtue it is about: 德, 智, 体, 美 or 劳')
      .option('--reason <R>', 'why it is worth keeping')
      .option('--src-quote <Q>', 'the words it comes from')
      .option('--src-id <ID>', 'an id it comes from (repeatable)', repeated)
      .option('--link <ID|TYPE>', 'an entry it is linked to, which must exist (repeatable)', repeated)
      .option('--consequence <SCALE=TEXT>', 'scale is self, other, relation, world or future (repeatable)', repeated)
      .option('--at <WHEN>', 'when it happened (below)')
      .option('--base', 'a base entry: only a person may write or change it'),
  )
    .addHelpText('after', WHEN_HELP)
    .act<WriteOptions>(async (o, args) => await write(o, args, io))
  storeOptions(
    sub('search', 'entries that match the words').argument('<query...>').option('--limit <N>', 'how many', '20').option('--pending', 'look in 余页/待定 too'),
  ).act<SearchOptions>(async (o, args) => await search(o, args, io))
  storeOptions(
    sub('recall', 'exactly the memory hits a turn would inject for this message, within the budget')
      .argument('<query...>')
      .option('--k <N>', 'how many hits to rank before the budget', RECALL_OPTION_DEFAULTS.k)
      .option('--budget <CHARS>', 'characters of the hit block, frame included', RECALL_OPTION_DEFAULTS.budget),
  ).act<RecallOptions>(async (o, args) => await recallCommand(o, args, io))
  storeOptions(sub('log', 'entries and audit records, newest first').option('--limit <N>', 'how many', '30')).act<LimitOptions>(async (o) => await log(o, io))
  storeOptions(sub('check', 'verify the whole store; exit 1 on a problem').option('--fix', 'repair what can be repaired safely')).act<CheckOptions>(
    async (o) => await check(o, io),
  )
  storeOptions(
    sub('import', 'import entries from JSON lines; a re-run skips what it imported before')
      .option('--jsonl <FILE>', 'lines {"text","at"?,"kind"?,"axis"?,"reason"?,"ref"?} from FILE, or - for standard input')
      .option('--dry-run', 'say what would be imported, write nothing'),
  ).act<ImportOptions>(async (o) => await importLines(o, io))
  storeOptions(
    sub('export', 'JSON lines, one entry each')
      .option('--out <FILE>', 'write them to FILE instead of standard output')
      .option('--pending', 'include 余页/待定'),
  ).act<ExportOptions>(async (o) => await exportLines(o, io))
  storeOptions(sub('reindex', 're-read every file and rebuild the recall index')).act<StoreOptions>(async (o) => await reindex(o, io))
  storeOptions(
    sub('recheck', 're-check 余页/待定 (read-only; promotes what now passes; a failure counts once per month)').option(
      '--scope <SCOPE>',
      'month or year',
      'month',
    ),
  ).act<RecheckOptions>(async (o) => await recheck(o, io))
  storeOptions(sub('untomb', 'bring a tombstoned pending entry back').argument('<id>')).act<StoreOptions>(async (o, args) => await untomb(o, args, io))
  storeOptions(
    sub('marks', 'which entries are yours: the person-marks record (元/person-marks.json) against what the comments claim')
      .option('--confirm <ID>', 'record this entry as yours as it is now, after you wrote or edited it by hand (repeatable)', repeated)
      .option('--drop <ID>', 'remove the record: the entry then counts as the model’s (repeatable)', repeated),
  ).act<MarksOptions>(async (o) => await marksCommand(o, io))
  storeOptions(
    sub('anchor', 'the anchors: anchor [show] | anchor write <self|user|origin|goal> <text>')
      .argument('[verb]', 'show (the default) or write')
      .argument('[key]', 'self, user, origin or goal')
      .argument('[text...]', 'what to write')
      .option('--core', 'replace the core text instead of adding a dated section'),
  ).act<AnchorOptions>(async (o, args) => await anchor(o, args, io))
  return memory
}

interface ListOptions extends StoreOptions {
  date?: string
  from?: string
  to?: string
  pending?: true
  kind?: string
  limit: string
}
interface WriteOptions extends StoreOptions {
  kind?: string
  axis?: string
  reason?: string
  srcQuote?: string
  srcId?: string[]
  link?: string[]
  consequence?: string[]
  at?: string
  base?: true
}
interface LimitOptions extends StoreOptions {
  limit: string
}
interface SearchOptions extends LimitOptions {
  pending?: true
}
interface CheckOptions extends StoreOptions {
  fix?: true
}
interface ImportOptions extends StoreOptions {
  jsonl?: string
  dryRun?: true
}
interface ExportOptions extends StoreOptions {
  out?: string
  pending?: true
}
interface RecheckOptions extends StoreOptions {
  scope: string
}
interface AnchorOptions extends StoreOptions {
  core?: true
}

async function list(o: ListOptions, io: CliIO): Promise<number> {
  const store = await openStore(io, o.root)
  const limit = positiveInt(o.limit, 'limit')
  const { entries, problems } = await store.scan()
  const marks = store.marks().marks
  const dateOf = (e: StoredEntry): string => /(\d{4}-\d{2}-\d{2})\.md$/.exec(e.file)?.[1] ?? ''
  let list = entries.filter((e) => (o.pending ? e.area === 'pending' : e.area === 'day'))
  if (o.date !== undefined) list = list.filter((e) => dateOf(e) === o.date)
  if (o.from !== undefined) list = list.filter((e) => dateOf(e) >= o.from!)
  if (o.to !== undefined) list = list.filter((e) => dateOf(e) <= o.to!)
  if (o.kind !== undefined) list = list.filter((e) => e.meta.kind === o.kind)
  // The scan reads day files oldest first; a person looks for what happened lately, so newest first (README, CONTRACT).
  list = list.slice(-limit).reverse()
  let pendingRecords: Record<string, unknown> = {}
  if (o.pending) pendingRecords = Object.fromEntries((await guarded(() => listPending(store))).map((p) => [p.id, p.record]))
  out(
    io,
    o.json,
    { entries: list.map((e) => ({ ...entryJson(e, marks), ...(o.pending ? { record: pendingRecords[e.id] } : {}) })), problems },
    () =>
      `${list.map((e) => `${e.id}  ${dateOf(e)}  ${whoMark(e, marks)} ${(e.meta.kind ?? '-').padEnd(10)} ${e.meta.axis ?? '·'} ${(e.meta.gate ?? '').padEnd(8)} ${oneLine(e.text)}`).join('\n')}${list.length > 0 ? '\n' : ''}` +
      `${list.length} entr${list.length === 1 ? 'y' : 'ies'}${problems.length > 0 ? `; ${problems.length} unreadable comment(s) — run \`cyrene memory check\`` : ''}\n`,
  )
  return 0
}

async function show(o: StoreOptions, args: string[], io: CliIO): Promise<number> {
  const id = args[0]
  if (id === undefined) throw new CliError('give the id: cyrene memory show <id>', 2)
  const store = await openStore(io, o.root)
  const e = await store.get(id)
  if (e === undefined) throw new CliError(`no entry with id ${JSON.stringify(id)}; find ids with \`cyrene memory list\` or \`search\``, 1)
  const marks = store.marks().marks
  out(io, o.json, entryJson(e, marks), () => `${e.text}\n\n${e.file}:${e.line}\n${ownerLine(e, marks)}\n${JSON.stringify(e.meta, null, 2)}\n`)
  return 0
}

async function write(o: WriteOptions, args: string[], io: CliIO): Promise<number> {
  let text = args.join(' ')
  if (text === '-') text = await readStdinText(io)
  if (text.trim() === '') throw new CliError('give the text: cyrene memory write "…" (or - to read standard input)', 2)
  const input: NewEntry = { text }
  if (o.kind !== undefined) input.kind = o.kind
  if (o.axis !== undefined) input.axis = o.axis
  if (o.reason !== undefined) input.reason = o.reason
  if (o.srcQuote !== undefined) input.src_quote = o.srcQuote
  if (o.srcId !== undefined) input.src_ids = o.srcId
  if (o.link !== undefined) input.links = o.link
  if (o.at !== undefined) input.at = o.at
  if (o.base) input.base = true
  if (o.consequence !== undefined) {
    input.consequence = {}
    for (const c of o.consequence) {
      const m = /^(self|other|relation|world|future)=(.+)$/s.exec(c)
      if (m === null) throw new CliError(`--consequence takes scale=text with scale one of self, other, relation, world, future; got ${JSON.stringify(c)}`, 2)
      input.consequence[m[1] as 'self'] = m[2]!
    }
  }
  const store = await openStore(io, o.root)
  const r = await guarded(() => store.write(input, { by: 'person' }))
  // A person's write is always kept; they are told when it says what an entry already says (never twice).
  const resembles = await resemblingEntry(store.root, text, r.id).catch(() => undefined)
  out(
    io,
    o.json,
    { ...r, ...(resembles !== undefined ? { resembles } : {}) },
    () =>
      [
        r.gate === 'day' ? `written ${r.id} → ${r.file}` : `kept ${r.id} in ${r.file}: it did not pass the five-virtue gate yet`,
        ...r.reasons.map((x) => `  · ${x}`),
        ...r.notes.map((x) => `  note: ${x}`),
        ...(resembles !== undefined
          ? [`  resembles ${resembles.id} (${resembles.date}): ${oneLine(resembles.text)} — both are kept; see \`cyrene memory show ${resembles.id}\``]
          : []),
      ].join('\n') + '\n',
  )
  return 0
}

async function search(o: SearchOptions, args: string[], io: CliIO): Promise<number> {
  const q = args.join(' ')
  if (q.trim() === '') throw new CliError('give words to look for: cyrene memory search <query>', 2)
  const store = await openStore(io, o.root)
  const hits = await searchEntries(store, q, { limit: positiveInt(o.limit, 'limit'), includePending: o.pending })
  out(
    io,
    o.json,
    hits.map((h) => ({ score: h.score, ...entryJson(h.entry, store.marks().marks) })),
    () => (hits.length === 0 ? `nothing found for ${JSON.stringify(q)}\n` : `${hits.map((h) => `${h.entry.id}  ${oneLine(h.entry.text, 70)}`).join('\n')}\n`),
  )
  return 0
}

async function log(o: LimitOptions, io: CliIO): Promise<number> {
  const store = await openStore(io, o.root)
  const limit = positiveInt(o.limit, 'limit')
  const { entries } = await store.scan()
  const marks = store.marks().marks
  const items: Array<{ at: string; what: string; record: Record<string, unknown> }> = []
  for (const e of entries)
    items.push({
      at: String(e.meta.at ?? ''),
      what: `${ownerOf(marks, e)} wrote ${e.id} (${e.meta.gate ?? '-'}) ${oneLine(e.text, 40)}`,
      record: { op: 'write', ...entryJson(e, marks) },
    })
  for (const r of await store.auditLog())
    items.push({
      at: String(r.at ?? ''),
      what: `${String(r.by ?? '?')} ${String(r.op)} ${JSON.stringify({ ...r, at: undefined, op: undefined, by: undefined })}`,
      record: r,
    })
  items.sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0))
  const shown = items.slice(0, limit)
  out(
    io,
    o.json,
    shown.map((x) => x.record),
    () => `${shown.map((x) => `${x.at}  ${x.what}`).join('\n')}${shown.length > 0 ? '\n' : 'nothing yet\n'}`,
  )
  return 0
}

async function check(o: CheckOptions, io: CliIO): Promise<number> {
  const store = await openStore(io, o.root)
  let dshHome: string | undefined
  if (o.root === undefined) dshHome = resolveDshHome({ env: io.env })
  const report = await guarded(() => checkStore(store, { fix: o.fix, dshHome, onProgress: progress(io, 'check: files', o.quiet) }))
  out(io, o.json, report, () => renderCheck(report))
  return report.errors.length > 0 ? 1 : 0
}

async function importLines(o: ImportOptions, io: CliIO): Promise<number> {
  const file = o.jsonl
  if (file === undefined) throw new CliError('give the file: cyrene memory import --jsonl <file | ->', 2)
  // Bytes, not text: a line of invalid UTF-8 is reported with its number, never imported as U+FFFD.
  let bytes: string | Uint8Array
  if (file === '-') {
    if (io.readStdin === undefined) throw new CliError('standard input is not available here', 2)
    bytes = await io.readStdin()
  } else {
    try {
      bytes = await fs.readFile(resolve(io.cwd, file))
    } catch (e) {
      // An unreadable input file is the system refusing (exit 3); a missing one is bad input (exit 2).
      const system = describeSystemFailure(e, { command: 'memory import', argv: [], nothingChanged: true })
      if (system !== undefined && (e as NodeJS.ErrnoException).code !== 'EISDIR') throw new CliError(system.message, system.exit)
      throw new CliError(`cannot read ${file}: ${(e as Error).message}`, 2)
    }
  }
  const store = await openStore(io, o.root)
  const parsed = parseImportJsonl(bytes, file)
  const r = await guarded(() => importItems(store, parsed.items, { dryRun: o.dryRun, onProgress: progress(io, 'import', o.quiet) }))
  r.skipped.unshift(...parsed.skipped)
  r.skipped.sort((x, y) => lineOf(x.origin) - lineOf(y.origin))
  out(
    io,
    o.json,
    r,
    () =>
      [
        `${r.dryRun ? 'would import' : 'imported'} ${r.imported} entr${r.imported === 1 ? 'y' : 'ies'} into ${r.files.length} day file(s)` +
          `${r.already.length > 0 ? `; ${r.already.length} line(s) already imported before, skipped` : ''}` +
          `${r.skipped.length > 0 ? `; ${r.skipped.length} line(s) refused — fix them and import again` : ''}` +
          `${r.duplicates.length > 0 ? `; ${r.duplicates.length} imported line(s) resemble another entry (kept; listed below)` : ''}`,
        ...r.skipped.map((s) => `  refused ${s.origin}: ${s.why}`),
        ...r.duplicates.map((d) => `  likely duplicate ${d.origin}: ${d.id} resembles ${d.resembles} (similarity ${d.similarity})`),
      ].join('\n') + '\n',
  )
  return 0
}

async function exportLines(o: ExportOptions, io: CliIO): Promise<number> {
  const store = await openStore(io, o.root)
  const { entries } = await store.scan()
  const list = entries.filter((e) => o.pending || e.area === 'day')
  const lines = list.map((e) => safeJson(entryJson(e, store.marks().marks))).join('\n') + (list.length > 0 ? '\n' : '')
  if (o.out === undefined) {
    io.stdout(lines)
    return 0
  }
  await atomicWrite(resolve(io.cwd, o.out), lines, { mode: 0o600, followLink: true })
  out(io, o.json, { exported: list.length, file: o.out }, () => `exported ${list.length} entries to ${o.out}\n`)
  return 0
}

async function reindex(o: StoreOptions, io: CliIO): Promise<number> {
  const store = await openStore(io, o.root)
  const { entries, problems, files } = await store.scan(progress(io, 'reindex: files', o.quiet))
  await dropRecallCache(store)
  const recall = await loadRecall(store, entries)
  const result = { files: files.length, entries: entries.length, indexed: recall.index.size, cacheSaved: recall.saveError === undefined, problems }
  out(
    io,
    o.json,
    result,
    () =>
      `read ${files.length} files, ${entries.length} entries; recall index rebuilt (${recall.index.size} entries${recall.saveError === undefined ? '' : `, not cached: ${recall.saveError}`})${problems.length > 0 ? `; ${problems.length} unreadable comment(s) — see \`cyrene memory check\`` : ''}\n`,
  )
  return 0
}

async function recheck(o: RecheckOptions, io: CliIO): Promise<number> {
  if (o.scope !== 'month' && o.scope !== 'year') throw new CliError('--scope is month or year', 2)
  const store = await openStore(io, o.root)
  const r = await guarded(() => recheckPending(store, { scope: o.scope as 'month' | 'year', by: 'person' }))
  out(
    io,
    o.json,
    r,
    () => `promoted ${r.promoted.length}, still pending ${r.stillPending.length}, tombstoned ${r.tombstoned.length}, skipped ${r.skipped.length}\n`,
  )
  return 0
}

async function untomb(o: StoreOptions, args: string[], io: CliIO): Promise<number> {
  const id = args[0]
  if (id === undefined) throw new CliError('give the id: cyrene memory untomb <id>', 2)
  const store = await openStore(io, o.root)
  await guarded(() => restoreTombstone(store, id, { by: 'person' }))
  out(io, o.json, { restored: id }, () => `${id} is back in 余页/待定's re-check cycle\n`)
  return 0
}

async function anchor(o: AnchorOptions, args: string[], io: CliIO): Promise<number> {
  const [verb = 'show', key, ...rest] = args
  const store = await openStore(io, o.root)
  if (verb === 'show') {
    const all = await readAllAnchors(store)
    out(
      io,
      o.json,
      all,
      () =>
        ANCHOR_KEYS.map(
          (k) =>
            `## ${k} (${all[k].file}, ${all[k].chars}/${all[k].limit})\n${all[k].core}${all[k].sections.map((s) => `\n[卷${s.vol}·${s.date}] ${s.text}`).join('')}`,
        ).join('\n\n') + '\n',
    )
    return 0
  }
  if (verb !== 'write') throw new CliError('anchor show | anchor write <self|user|origin|goal> <text> [--core]', 2)
  if (key === undefined || !(ANCHOR_KEYS as readonly string[]).includes(key)) throw new CliError(`anchor key is one of ${ANCHOR_KEYS.join(', ')}`, 2)
  const r = await guarded(() => writeAnchor(store, key as AnchorKey, { text: rest.join(' '), mode: o.core ? 'core' : 'section' }, { by: 'person' }))
  out(io, o.json, r, () => `wrote ${r.file} (${r.chars} characters${r.archived > 0 ? `, ${r.archived} older section(s) moved to 锚/历史/` : ''})\n`)
  return 0
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

function where(f: Finding): string {
  return f.file === undefined ? '' : `${f.file}${f.line === undefined ? '' : `:${f.line}`}: `
}

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

/** The list's who column: ★ a base entry of yours, P yours, ? a claim of yours no record backs, · the model's or imported. */
function whoMark(e: StoredEntry, marks: PersonMarks): string {
  if (isPersonBase(marks, e)) return '★'
  if (isForgedClaim(marks, e)) return '?'
  return ownerOf(marks, e) === 'person' ? 'P' : '·'
}
