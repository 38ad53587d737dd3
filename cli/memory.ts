import { help, say } from './help-text.ts'
import { CliError, type CliIO } from './io.ts'
import { CyreneCommand, repeated } from './command.ts'
import { entryJson, guarded, oneLine, openStore, out, ownerLine, progress, readStdinText, storeOptions, type StoreOptions } from './memory-shared.ts'
import { marksCommand, type MarksOptions } from './memory-marks.ts'
import { dropRecallCache, RecallKeeper, resemblingDayEntry, searchEntries, sourceLabel } from '../recall/index.ts'
import { checkStore, pendingRecordsOrProblem, recheckPending, restoreTombstone, type CheckReport, type Finding } from '../memory/upkeep.ts'
import { resolveConflict } from '../memory/git.ts'
import { isForgedClaim, isPersonBase, ownerOf, type PersonMarks } from '../memory/marks.ts'
import { readAllAnchors, type NewEntry, AXES, gateProblemOf } from '../memory/format.ts'
import { writeAnchor, type StoredEntry, type WriteResult } from '../memory/index.ts'
import { ANCHOR_KEYS, type AnchorKey } from '../memory/person.ts'
import { resolveDshHome } from '../memory/paths.ts'
import { t, DEFAULT_LANG } from '../i18n/index.ts'
import { gateProblemText } from '../i18n/gate.ts'
import { recallCommand, RECALL_OPTION_DEFAULTS, type RecallOptions } from './memory-recall.ts'
import { storeSaidText } from './refusal-text.ts'
import { importLines, exportLines, type ImportOptions, type ExportOptions } from './memory-jsonl.ts'
export { backupFamily, restoreFamily, volumeFamily, migrateFamily } from './memory-admin.ts'

/** `cyrene memory …`: every sub-command, its options and its help. */
export function memoryFamily(io: CliIO): CyreneCommand {
  const memory = new CyreneCommand('memory', io).description(help(io, 'cli.memory')).addHelpText('after', help(io, 'cli.memory.after'))
  const sub = (name: string, about: string): CyreneCommand => memory.command(name).description(about)

  storeOptions(
    sub('list', help(io, 'cli.memory.list'))
      .option('--date <D>', help(io, 'cli.memory.list.date'))
      .option('--from <D>', help(io, 'cli.memory.list.from'))
      .option('--to <D>', help(io, 'cli.memory.list.to'))
      .option('--pending', help(io, 'cli.memory.list.pending'))
      .option('--kind <K>', help(io, 'cli.memory.list.kind'))
      .option('--limit <N>', help(io, 'cli.memory.limit'), '50'),
  ).act<ListOptions>(async (o) => await list(o, io))
  storeOptions(sub('show', help(io, 'cli.memory.show')).argument('<id>')).act<StoreOptions>(async (o, args) => await show(o, args, io))
  storeOptions(
    sub('write', help(io, 'cli.memory.write'))
      .argument('<text...>', help(io, 'cli.memory.write.text'))
      .option('--kind <K>', help(io, 'cli.memory.write.kind'))
      .option('--axis <AXIS>', help(io, 'cli.memory.write.axis'))
      .option('--reason <R>', help(io, 'cli.memory.write.reason'))
      .option('--src-quote <Q>', help(io, 'cli.memory.write.srcQuote'))
      .option('--src-id <ID>', help(io, 'cli.memory.write.srcId'), repeated)
      .option('--link <ID|TYPE>', help(io, 'cli.memory.write.link'), repeated)
      .option('--consequence <SCALE=TEXT>', help(io, 'cli.memory.write.consequence'), repeated)
      .option('--at <WHEN>', help(io, 'cli.memory.write.at'))
      .option('--base', help(io, 'cli.memory.write.base')),
  )
    .addHelpText('after', help(io, 'cli.memory.when'))
    .act<WriteOptions>(async (o, args) => await write(o, args, io))
  storeOptions(
    sub('search', help(io, 'cli.memory.search'))
      .argument('<query...>')
      .option('--limit <N>', help(io, 'cli.memory.limit2'), '20')
      .option('--pending', help(io, 'cli.memory.search.pending')),
  ).act<SearchOptions>(async (o, args) => await search(o, args, io))
  storeOptions(
    sub('recall', help(io, 'cli.memory.recall'))
      .argument('<query...>')
      .option('--k <N>', help(io, 'cli.memory.recall.k'), RECALL_OPTION_DEFAULTS.k)
      .option('--budget <CHARS>', help(io, 'cli.memory.recall.budget'), RECALL_OPTION_DEFAULTS.budget),
  ).act<RecallOptions>(async (o, args) => await recallCommand(o, args, io))
  storeOptions(sub('log', help(io, 'cli.memory.log')).option('--limit <N>', help(io, 'cli.memory.limit3'), '30')).act<LimitOptions>(
    async (o) => await log(o, io),
  )
  storeOptions(sub('check', help(io, 'cli.memory.check')).option('--fix', help(io, 'cli.memory.check.fix'))).act<CheckOptions>(async (o) => await check(o, io))
  storeOptions(
    sub('resolve', help(io, 'cli.memory.resolve'))
      .argument('<id>', help(io, 'cli.memory.resolve.id'))
      .option('--keep <WHICH>', help(io, 'cli.memory.resolve.keep')),
  ).act<ResolveOptions>(async (o, args) => await resolveCommand(o, args, io))
  storeOptions(
    sub('import', help(io, 'cli.memory.import')).option('--jsonl <FILE>', help(io, 'cli.memory.import.jsonl')).option('--dry-run', help(io, 'cli.dryRun')),
  ).act<ImportOptions>(async (o) => await importLines(o, io))
  storeOptions(
    sub('export', help(io, 'cli.memory.export'))
      .option('--out <FILE>', help(io, 'cli.memory.export.out'))
      .option('--force', help(io, 'cli.memory.export.force'))
      .option('--pending', help(io, 'cli.memory.export.pending')),
  ).act<ExportOptions>(async (o) => await exportLines(o, io))
  storeOptions(sub('reindex', help(io, 'cli.memory.reindex'))).act<StoreOptions>(async (o) => await reindex(o, io))
  storeOptions(sub('recheck', help(io, 'cli.memory.recheck')).option('--scope <SCOPE>', help(io, 'cli.memory.recheck.scope'), 'month')).act<RecheckOptions>(
    async (o) => await recheck(o, io),
  )
  storeOptions(sub('untomb', help(io, 'cli.memory.untomb')).argument('<id>')).act<StoreOptions>(async (o, args) => await untomb(o, args, io))
  storeOptions(
    sub('marks', help(io, 'cli.memory.marks'))
      .option('--confirm <ID>', help(io, 'cli.memory.marks.confirm'), repeated)
      .option('--drop <ID>', help(io, 'cli.memory.marks.drop'), repeated),
  ).act<MarksOptions>(async (o) => await marksCommand(o, io))
  storeOptions(
    sub('anchor', help(io, 'cli.memory.anchor'))
      .argument('[verb]', help(io, 'cli.memory.anchor.verb'))
      .argument('[key]', help(io, 'cli.memory.anchor.key'))
      .argument('[text...]', help(io, 'cli.memory.anchor.text'))
      .option('--core', help(io, 'cli.memory.anchor.core')),
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
interface ResolveOptions extends StoreOptions {
  keep?: string
}
interface CheckOptions extends StoreOptions {
  fix?: true
}
interface RecheckOptions extends StoreOptions {
  scope: string
}
interface AnchorOptions extends StoreOptions {
  core?: true
}

/** A calendar day as YYYY-MM-DD that exists (2026-02-30 does not); anything else is refused with the form to use. */
function dayOption(value: string | undefined, option: string, io: CliIO): string | undefined {
  if (value === undefined) return undefined
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value)
  const d = m === null ? undefined : new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  if (m === null || d === undefined || d.toISOString().slice(0, 10) !== value)
    throw new CliError(t('cli.date.bad', io.lang ?? DEFAULT_LANG, { option, value: JSON.stringify(value) }), 2)
  return value
}

async function list(o: ListOptions, io: CliIO): Promise<number> {
  o.date = dayOption(o.date, '--date', io)
  o.from = dayOption(o.from, '--from', io)
  o.to = dayOption(o.to, '--to', io)
  if (o.from !== undefined && o.to !== undefined && o.from > o.to)
    throw new CliError(t('cli.date.order', io.lang ?? DEFAULT_LANG, { from: o.from, to: o.to }), 2)
  const store = await openStore(io, o.root)
  const limit = positiveInt(o.limit, 'limit', io)
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
  const pending = o.pending ? await pendingRecordsOrProblem(store) : { records: {} }
  const recordProblem = pending.problem === undefined ? undefined : storeSaidText(pending.problem.said, pending.problem.en, io)
  // The entries are the person's; the re-check counts beside them are the night's bookkeeping: shown without them, and said why.
  if (recordProblem !== undefined) io.stderr(`${t('cli.list.pendingRecord', io.lang ?? DEFAULT_LANG, { problem: recordProblem })}\n`)
  const recordOf = (e: StoredEntry) => (pending.records as Record<string, unknown>)[e.id] ?? (recordProblem === undefined ? { fails: 0 } : undefined)
  out(
    io,
    o.json,
    {
      entries: list.map((e) => ({ ...entryJson(e, marks), ...(o.pending ? { record: recordOf(e) } : {}) })),
      problems,
      ...(recordProblem === undefined ? {} : { recordProblem }),
    },
    () =>
      `${list.map((e) => `${e.id}  ${dateOf(e)}  ${whoMark(e, marks)} ${(e.meta.kind ?? '-').padEnd(10)} ${e.meta.axis ?? '·'} ${(e.meta.gate ?? '').padEnd(8)} ${oneLine(e.text)}`).join('\n')}${list.length > 0 ? '\n' : ''}` +
      `${t(list.length === 1 ? 'cli.list.one' : 'cli.list.count', io.lang ?? DEFAULT_LANG, { n: list.length })}${problems.length > 0 ? t('cli.list.problems', io.lang ?? DEFAULT_LANG, { n: problems.length }) : ''}\n`,
  )
  return 0
}

async function show(o: StoreOptions, args: string[], io: CliIO): Promise<number> {
  const id = args[0]
  if (id === undefined) throw new CliError(say(io, 'store.show.noId'), 2)
  const store = await openStore(io, o.root)
  const e = await store.get(id)
  if (e === undefined) throw new CliError(say(io, 'store.show.notFound', { id: JSON.stringify(id) }), 1)
  const marks = store.marks().marks
  out(io, o.json, entryJson(e, marks), () => `${e.text}\n\n${e.file}:${e.line}\n${ownerLine(e, marks, io)}\n${JSON.stringify(e.meta, null, 2)}\n`)
  return 0
}

async function write(o: WriteOptions, args: string[], io: CliIO): Promise<number> {
  let text = args.join(' ')
  if (text === '-') text = await readStdinText(io)
  // Node reads bytes of the command line that are not UTF-8 as U+FFFD: that is a text mangled on the way in, not what the person wrote.
  else if (text.includes('\uFFFD') || (o.reason ?? '').includes('\uFFFD')) throw new CliError(say(io, 'store.write.replacementChar'), 2)
  if (text.trim() === '') throw new CliError(say(io, 'store.write.noText'), 2)
  const input: NewEntry = { text }
  if (o.kind !== undefined) input.kind = o.kind
  if (o.axis !== undefined) {
    // The gate would keep an unknown axis in 余页/待定; a person who named one meant one of the five.
    if (!(AXES as readonly string[]).includes(o.axis))
      throw new CliError(t('cli.axis.bad', io.lang ?? DEFAULT_LANG, { value: JSON.stringify(o.axis), axes: AXES.join(io.lang === 'en' ? ', ' : '、') }), 2)
    input.axis = o.axis
  }
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
      if (m === null) throw new CliError(say(io, 'store.write.consequenceBad', { value: JSON.stringify(c) }), 2)
      input.consequence[m[1] as 'self'] = m[2]!
    }
  }
  const store = await openStore(io, o.root)
  const r = await guarded(io, () => store.write(input, { by: 'person' }))
  // A person's write is always kept; they are told when it says what an entry already says (never twice).
  const resembles = await resemblingDayEntry(store.root, text, r.id, r.file).catch(() => undefined)
  out(
    io,
    o.json,
    { ...withoutSaid(r), ...(resembles !== undefined ? { resembles } : {}) },
    () =>
      [
        t(r.gate === 'day' ? 'cli.write.written' : 'cli.write.kept', io.lang ?? DEFAULT_LANG, { id: r.id, file: r.file }),
        ...r.reasons.map((x) => `  · ${gateProblemText(gateProblemOf(x) ?? x, io.lang ?? DEFAULT_LANG)}`),
        ...(r.gate === 'day' ? [] : [`  ${t('cli.write.gateHint', io.lang ?? DEFAULT_LANG, { id: r.id })}`]),
        ...r.notes.map((x, i) => say(io, 'store.write.note', { note: storeSaidText(r.saidNotes[i], x, io) })),
        ...(resembles !== undefined
          ? [`  ${t('cli.write.resembles', io.lang ?? DEFAULT_LANG, { id: resembles.id, date: resembles.date, text: oneLine(resembles.text) })}`]
          : []),
      ].join('\n') + '\n',
  )
  return 0
}

/** `--json` keeps the write's fields as they were: the notes' codes are for the person's language (decision 082). */
function withoutSaid(r: WriteResult): Omit<WriteResult, 'saidNotes'> {
  const { saidNotes: _said, ...rest } = r
  return rest
}

async function search(o: SearchOptions, args: string[], io: CliIO): Promise<number> {
  const q = args.join(' ')
  if (q.trim() === '') throw new CliError(say(io, 'store.search.noQuery'), 2)
  const store = await openStore(io, o.root)
  const hits = await guarded(io, () => searchEntries(store, q, { limit: positiveInt(o.limit, 'limit', io), includePending: o.pending }))
  // The recall index's hits, as the turn and memory_search rank them: entries, anchors, dream journals, rollups.
  out(
    io,
    o.json,
    hits.map((h) => ({
      score: h.score,
      id: h.id,
      text: h.text,
      area: h.area,
      date: h.date,
      file: h.file,
      ...(h.sourceRef !== undefined ? { source_ref: h.sourceRef } : {}),
    })),
    () =>
      hits.length === 0
        ? `${say(io, 'store.search.nothing', { query: JSON.stringify(q) })}\n`
        : `${hits.map((h) => `${h.id}  ${sourceLabel(h.area, h.date, h.id)}  ${oneLine(h.text, 70)}`).join('\n')}\n`,
  )
  return 0
}

async function log(o: LimitOptions, io: CliIO): Promise<number> {
  const store = await openStore(io, o.root)
  const limit = positiveInt(o.limit, 'limit', io)
  const { entries } = await store.scan()
  const marks = store.marks().marks
  const items: Array<{ at: string; what: string; record: Record<string, unknown> }> = []
  for (const e of entries)
    items.push({
      at: String(e.meta.at ?? ''),
      what: say(io, 'store.log.wrote', { who: who(io, ownerOf(marks, e)), id: e.id, gate: e.meta.gate ?? '-', text: oneLine(e.text, 40) }),
      record: { op: 'write', ...entryJson(e, marks) },
    })
  for (const r of await store.auditLog())
    items.push({
      at: String(r.at ?? ''),
      what: say(io, 'store.log.event', {
        who: who(io, String(r.by ?? '?')),
        op: String(r.op),
        detail: JSON.stringify({ ...r, at: undefined, op: undefined, by: undefined }),
      }),
      record: r,
    })
  items.sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0))
  const shown = items.slice(0, limit)
  out(
    io,
    o.json,
    shown.map((x) => x.record),
    () => `${shown.map((x) => `${x.at}  ${x.what}`).join('\n')}${shown.length > 0 ? '\n' : `${say(io, 'store.log.none')}\n`}`,
  )
  return 0
}

async function check(o: CheckOptions, io: CliIO): Promise<number> {
  const store = await openStore(io, o.root)
  let dshHome: string | undefined
  if (o.root === undefined) dshHome = resolveDshHome({ env: io.env })
  const report = await guarded(io, () => checkStore(store, { fix: o.fix, dshHome, onProgress: progress(io, say(io, 'store.progress.check'), o.quiet) }))
  out(io, o.json, checkJson(report), () => renderCheck(report, io))
  return report.errors.length > 0 ? 1 : 0
}

/** `--json` keeps the report's fields as they were: the codes of its words are for the person's language (decision 082). */
function checkJson(r: CheckReport): Omit<CheckReport, 'fixedSaid'> {
  const bare = (fs: Finding[]): Finding[] => fs.map(({ said: _said, ...f }) => f)
  const { fixedSaid: _fixed, ...rest } = r
  return { ...rest, errors: bare(r.errors), warnings: bare(r.warnings), notes: bare(r.notes) }
}

async function resolveCommand(o: ResolveOptions, args: string[], io: CliIO): Promise<number> {
  const id = args[0]
  if (id === undefined || id === '') throw new CliError(say(io, 'store.resolve.noId'), 2)
  if (o.keep !== 'a' && o.keep !== 'b' && o.keep !== 'both') throw new CliError(say(io, 'store.resolve.badKeep', { value: JSON.stringify(o.keep ?? '') }), 2)
  const keep = o.keep
  const store = await openStore(io, o.root)
  const settled = await guarded(io, () => resolveConflict(store, id, keep, { by: 'person' }))
  out(
    io,
    o.json,
    { resolved: settled.map((c) => c.id), keep },
    () => `${say(io, 'store.resolve.done', { n: settled.length, file: settled[0]!.file, kept: keep === 'both' ? say(io, 'store.resolve.both') : keep })}\n`,
  )
  return 0
}

async function reindex(o: StoreOptions, io: CliIO): Promise<number> {
  const store = await openStore(io, o.root)
  const { entries, problems, files } = await store.scan(progress(io, say(io, 'store.progress.reindex'), o.quiet))
  await dropRecallCache(store.root)
  const keeper = await guarded(io, () => RecallKeeper.open(store.root))
  const counts = keeper.counts()
  const saveError = keeper.opened.saveError
  const result = {
    files: files.length,
    entries: entries.length,
    indexed: counts.entries,
    documents: keeper.size,
    cacheSaved: saveError === undefined,
    problems,
  }
  out(
    io,
    o.json,
    result,
    () =>
      `${say(io, 'store.reindex.done', {
        files: files.length,
        entries: entries.length,
        indexed: counts.entries,
        others: keeper.size - counts.entries,
        cache: saveError === undefined ? '' : say(io, 'store.reindex.notCached', { error: saveError }),
        problems: problems.length > 0 ? say(io, 'store.reindex.problems', { n: problems.length }) : '',
      })}\n`,
  )
  // Saving the index is what reindex is for: a cache the system would not take (a full disk) is exit 3, as any refusal of the system's.
  return saveError === undefined ? 0 : 3
}

async function recheck(o: RecheckOptions, io: CliIO): Promise<number> {
  if (o.scope !== 'month' && o.scope !== 'year') throw new CliError(say(io, 'store.recheck.badScope'), 2)
  const store = await openStore(io, o.root)
  const r = await guarded(io, () => recheckPending(store, { scope: o.scope as 'month' | 'year', by: 'person' }))
  out(
    io,
    o.json,
    r,
    () =>
      `${say(io, 'store.recheck.done', { promoted: r.promoted.length, pending: r.stillPending.length, tombstoned: r.tombstoned.length, skipped: r.skipped.length })}\n`,
  )
  return 0
}

async function untomb(o: StoreOptions, args: string[], io: CliIO): Promise<number> {
  const id = args[0]
  if (id === undefined) throw new CliError(say(io, 'store.untomb.noId'), 2)
  const store = await openStore(io, o.root)
  await guarded(io, () => restoreTombstone(store, id, { by: 'person' }))
  out(io, o.json, { restored: id }, () => `${say(io, 'store.untomb.done', { id })}\n`)
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
  if (verb !== 'write') throw new CliError(say(io, 'store.anchor.usage'), 2)
  if (key === undefined || !(ANCHOR_KEYS as readonly string[]).includes(key))
    throw new CliError(say(io, 'store.anchor.badKey', { keys: ANCHOR_KEYS.join(', ') }), 2)
  const r = await guarded(io, () => writeAnchor(store, key as AnchorKey, { text: rest.join(' '), mode: o.core ? 'core' : 'section' }, { by: 'person' }))
  out(
    io,
    o.json,
    r,
    () =>
      `${say(io, 'store.anchor.wrote', { file: r.file, chars: r.chars, archived: r.archived > 0 ? say(io, 'store.anchor.archived', { n: r.archived }) : '' })}\n`,
  )
  return 0
}

function positiveInt(v: string | undefined, name: string, io: CliIO): number {
  const n = Number(v)
  if (!Number.isInteger(n) || n <= 0) throw new CliError(say(io, 'store.positiveInt', { name }), 2)
  return n
}

function where(f: Finding): string {
  return f.file === undefined ? '' : `${f.file}${f.line === undefined ? '' : `:${f.line}`}: `
}

function renderCheck(r: CheckReport, io: CliIO): string {
  const finding = (f: Finding) => ({ where: where(f), message: storeSaidText(f.said, f.message, io), code: f.code })
  const lines = [
    say(io, 'store.check.stats', {
      entries: r.stats.entries,
      day: r.stats.day,
      pending: r.stats.pending,
      files: r.stats.files,
      mb: (r.stats.bytes / 1024 / 1024).toFixed(2),
      marginMb: (r.stats.marginBytes / 1024 / 1024).toFixed(2),
    }),
    ...r.errors.map((f) => say(io, 'store.check.error', finding(f))),
    ...r.warnings.map((f) => say(io, 'store.check.warning', finding(f))),
    ...r.notes.map((f) => say(io, 'store.check.note', finding(f))),
    ...r.fixed.map((x, i) => say(io, 'store.check.fixed', { what: storeSaidText(r.fixedSaid[i], x, io) })),
    // After --fix changed something, "nothing was changed" would be false: the count says what is left.
    r.errors.length === 0
      ? say(io, 'store.check.clean')
      : say(io, r.fixed.length > 0 ? 'store.check.problemsLeft' : 'store.check.problems', { n: r.errors.length, fixed: r.fixed.length }),
  ]
  return `${lines.join('\n')}\n`
}

/** Who did it, in the person's words: the person, the model, an import (anything else as recorded). */
function who(io: CliIO, by: string): string {
  return by === 'person' || by === 'model' || by === 'import' ? say(io, `store.who.${by}`) : by
}

/** The list's who column: ★ a base entry of yours, P yours, ? a claim of yours no record backs, · the model's or imported. */
function whoMark(e: StoredEntry, marks: PersonMarks): string {
  if (isPersonBase(marks, e)) return '★'
  if (isForgedClaim(marks, e)) return '?'
  return ownerOf(marks, e) === 'person' ? 'P' : '·'
}
