import { promises as fs } from 'node:fs'
import { CliError, saidRefusal, type CliIO } from './io.ts'
import { CyreneCommand } from './command.ts'
import { guarded, openStore, out, progress, storeOptions, type StoreOptions } from './memory-shared.ts'
import { describeSystemFailure } from './failures.ts'
import { help, say } from './help-text.ts'
import { DEFAULT_LANG, t, type Lang } from '../i18n/index.ts'
import { worldNoteText } from '../i18n/worldbook.ts'
import { resolveRoot, safeJoin } from '../memory/paths.ts'
import type { MemoryStore } from '../memory/index.ts'
import { inspectBelow } from '../memory/files.ts'
import {
  ImportFormatError,
  PERSON_FOLDER,
  planImport,
  RAIL_CAP,
  renderRail,
  WorldbookLibrary,
  worldbookFolders,
  type ImportedEntry,
  type NotCarried,
} from '../worldbook/index.ts'
import { readInputFile } from './input-file.ts'
import { looksLikePng, MAX_PNG_BYTES, PngCardError, worldJsonFromPng } from '../whale/png.ts'
import { jsonFileText } from '../whale/json.ts'
import { cardJsonFromCharx, CharxError, isCharx } from '../whale/charx.ts'
import { whaleErrorText } from '../i18n/whale-said.ts'

/**
 * `cyrene worldbook list|import`: the worldbook from the command line
 * (CONTRACT#worldbook). `import` writes SillyTavern World Info into the person's
 * folder `<root>/世界书/`, each file atomically under the store's write lock,
 * and never over a file that is already there.
 */
export function worldbookFamily(io: CliIO): CyreneCommand {
  const worldbook = new CyreneCommand('worldbook', io).description(help(io, 'cli.worldbook')).addHelpText('after', help(io, 'cli.worldbook.after'))
  storeOptions(worldbook.command('list').description(help(io, 'cli.worldbook.list')))
    .act<StoreOptions>(async (o) => await list(o, io))
    .jsonRefusals()
  storeOptions(
    worldbook
      .command('import')
      .description(help(io, 'cli.worldbook.import'))
      .argument('<file>', help(io, 'cli.worldbook.import.file'))
      .option('--dry-run', help(io, 'cli.worldbook.import.dryRun')),
  )
    .act<ImportOptions>(async (o, args, command) => {
      // Without its file the read below would name no file and say what node said about `undefined`.
      if (args[0] === undefined)
        throw saidRefusal((lang) => t('cli.worldbook.giveFile', lang, { usage: `${command.path()} ${command.usage()}` }), io.lang ?? DEFAULT_LANG)
      return await importWorld(o, args[0], io)
    })
    // with --json a refusal is the report of an import that wrote nothing, with ok: false and why (decision 320)
    .jsonRefusals({ entries: [], refused: [] })
  return worldbook
}

interface ImportOptions extends StoreOptions {
  dryRun?: true
}

async function list(o: StoreOptions, io: CliIO): Promise<number> {
  const root = await guarded(async () => resolveRoot({ env: io.env, rootDir: o.root }))
  const folders = worldbookFolders(root)
  const book = new WorldbookLibrary(folders).current()
  const entries = [...book.entries].sort((a, b) => Number(b.constant) - Number(a.constant) || b.priority - a.priority || (a.name < b.name ? -1 : 1))
  const value = {
    folders: folders.map((f) => ({ source: f.source, dir: f.dir })),
    entries: entries.map((e) => ({
      name: e.name,
      title: e.title,
      source: e.source,
      constant: e.constant,
      enabled: e.enabled,
      priority: e.priority,
      keys: e.keys,
      secondaryKeys: e.secondaryKeys,
      logic: e.logic,
      file: e.file,
    })),
    overridden: book.overridden,
    skipped: [...book.unreadable, ...book.skipped],
    warnings: book.warnings,
  }
  out(io, o.json, value, () => {
    const L = io.lang ?? DEFAULT_LANG
    const lines = [t('cli.worldbook.list.yours', L, { dir: folders[1]!.dir }), t('cli.worldbook.list.starter', L, { dir: folders[0]!.dir }), '']
    for (const e of entries) {
      const secondary = e.secondaryKeys.length > 0 ? t('cli.worldbook.list.secondary', L, { logic: e.logic, keys: e.secondaryKeys.join(', ') }) : ''
      const kind = e.constant ? t('cli.worldbook.list.constant', L) : t('cli.worldbook.list.keys', L, { keys: e.keys.join(', '), secondary })
      lines.push(
        t('cli.worldbook.list.entry', L, {
          mark: e.enabled ? ' ' : '-',
          name: e.name,
          source: e.source,
          over: book.overridden.includes(e.name) ? t('cli.worldbook.list.over', L) : '',
          priority: e.priority,
          state: e.enabled ? kind : t('cli.worldbook.list.off', L),
        }),
      )
    }
    // Why a file was skipped is the entry parser's (worldbook/entry.ts), shown as it says it.
    for (const s of value.skipped) lines.push(t('cli.worldbook.list.skipped', L, { file: s.file, why: s.why }))
    for (const w of book.warnings) lines.push(t('cli.worldbook.list.warning', L, { file: w.file, why: w.why }))
    return `${lines.join('\n')}\n`
  })
  return 0
}

/** The largest World Info or card file read (big public lorebooks are a few MB). */
const MAX_WORLD_BYTES = 64 * 2 ** 20

async function readJson(file: string, io: CliIO): Promise<unknown> {
  let text: string
  try {
    const bytes = await readInputFile(io, file, MAX_WORLD_BYTES)
    const lang = io.lang ?? DEFAULT_LANG
    text = looksLikePng(bytes) ? pngCard(bytes, file, lang) : jsonText(isCharx(bytes, file) ? charxCard(bytes, file, lang) : bytes, file, lang)
  } catch (e) {
    if (e instanceof CliError) throw e
    const L = io.lang ?? DEFAULT_LANG
    // An unreadable input file is the system refusing (exit 3); a missing one is bad input (exit 2).
    const system = (lang: Lang) => describeSystemFailure(e, { command: 'worldbook import', argv: [], nothingChanged: true, lang })
    const said = system(L)
    if (said !== undefined && (e as NodeJS.ErrnoException).code !== 'EISDIR') throw new CliError(said.message, said.exit, system('en')?.message)
    throw saidRefusal((lang) => t('cli.worldbook.cannotRead', lang, { file, error: (e as Error).message }), L)
  }
  try {
    return JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (e) {
    throw saidRefusal((lang) => t('cli.worldbook.notJson', lang, { file, error: (e as Error).message }), io.lang ?? DEFAULT_LANG)
  }
}

/**
 * A JSON file's text: UTF-8, or UTF-16 when it starts with a byte-order mark (Windows Notepad's "Unicode");
 * any other file with a NUL byte is an image or other binary (a JPEG or WebP card renamed .png), refused as such.
 */
function jsonText(bytes: Buffer, file: string, lang: Lang): string {
  const text = jsonFileText(bytes)
  if (text === undefined) throw saidRefusal((l) => t('cli.worldbook.binary', l, { file }), lang)
  return text
}

/** A PNG character card's JSON (the same reader as `whale presets import`), or a NovelAI lorebook PNG's. */
function pngCard(bytes: Buffer, file: string, lang: Lang): string {
  if (bytes.length > MAX_PNG_BYTES) throw saidRefusal((l) => t('cli.worldbook.pngTooBig', l, { file, max: MAX_PNG_BYTES }), lang)
  try {
    return worldJsonFromPng(bytes)
  } catch (e) {
    // What the PNG reader found wrong (whale/png.ts), worded from its said (decision 085).
    if (e instanceof PngCardError) throw saidRefusal((l) => t('cli.worldbook.pngUnreadable', l, { file, error: whaleErrorText(e, l) }), lang)
    throw e
  }
}

/** A CharX card's card.json (the same reader as `whale presets import`). */
function charxCard(bytes: Buffer, file: string, lang: Lang): Buffer {
  try {
    return cardJsonFromCharx(bytes)
  } catch (e) {
    if (e instanceof CharxError) throw saidRefusal((l) => t('cli.worldbook.charxUnreadable', l, { file, error: whaleErrorText(e, l) }), lang)
    throw e
  }
}

/** Worlds this big show their progress. */
const PROGRESS_FROM = 500

/** Where a store's files are, for a dry run: the same joins as the store's own, with nothing opened. */
function storeAt(root: string): Pick<MemoryStore, 'root' | 'path'> {
  return { root, path: (rel) => safeJoin(root, rel) }
}

const show = (v: unknown) => (v === undefined ? '' : ` ${JSON.stringify(v)}`)
const carriedJson = (d: NotCarried) => ({ field: d.field, value: d.value, why: worldNoteText(d.why, 'en'), code: d.why.code })

/** Why a file of the person's folder was not written: a link or something not a plain file where it would go. */
type Refusal = { code: 'link' | 'not-file'; rel: string }
type Outcome = { entry: ImportedEntry; file: string; result: 'written' | 'would-write' | 'unchanged' | 'kept' | 'refused'; why?: Refusal }

const refusalText = (r: Refusal, lang: Lang): string => t(r.code === 'link' ? 'cli.worldbook.isLink' : 'cli.worldbook.notPlain', lang, { rel: r.rel })

async function importWorld(o: ImportOptions, file: string, io: CliIO): Promise<number> {
  const json = await readJson(file, io)
  let plan
  try {
    plan = planImport(json)
  } catch (e) {
    if (e instanceof ImportFormatError)
      throw saidRefusal((lang) => t('cli.worldbook.notWorld', lang, { file, why: worldNoteText(e.note, lang) }), io.lang ?? DEFAULT_LANG)
    throw e
  }
  // A world with no entry to write (empty, or every entry without text) is refused before any store is made.
  if (plan.entries.length === 0) {
    const said = (lang: Lang) =>
      [
        t('cli.worldbook.nothing', lang, { file, n: plan.refused.length }),
        ...plan.refused.map((r) => t('cli.worldbook.refusedEntry', lang, { origin: r.origin, why: worldNoteText(r.why, lang) })),
      ].join('\n')
    throw saidRefusal(said, io.lang ?? DEFAULT_LANG)
  }
  // A dry run lays out nothing: it reads where the store would be, and opens (creates) no store there.
  const opened = o.dryRun === true ? undefined : await openStore(io, o.root)
  const store = opened ?? (await guarded(async () => storeAt(resolveRoot({ env: io.env, rootDir: o.root }))))
  const starter = new Set(new WorldbookLibrary(worldbookFolders(undefined)).current().entries.map((e) => e.name))
  // The folder itself a link: every entry would be refused; say once what to do, and exit 2 (nothing written).
  if ((await inspectBelow(store.root, store.path(PERSON_FOLDER))).kind === 'link')
    throw saidRefusal((lang) => t('cli.worldbook.folderLink', lang, { folder: store.path(PERSON_FOLDER) }), io.lang ?? DEFAULT_LANG)
  const outcomes: Outcome[] = []
  // A big world (thousands of entries) takes minutes under the write lock: a line every 500 on stderr.
  const tick = progress(io, say(io, 'store.progress.worldbook'), o.quiet)
  const run = async (write: (rel: string, text: string) => Promise<void>) => {
    let done = 0
    for (const entry of plan.entries) {
      done++
      if (plan.entries.length >= PROGRESS_FROM) tick(done, plan.entries.length)
      const rel = `${PERSON_FOLDER}/${entry.name}.md`
      const full = store.path(rel)
      const found = await inspectBelow(store.root, full)
      if (found.kind === 'link' || found.kind === 'not-file') {
        outcomes.push({ entry, file: full, result: 'refused', why: { code: found.kind === 'link' ? 'link' : 'not-file', rel: found.rel } })
        continue
      }
      if (found.kind === 'file') {
        const existing = await fs.readFile(full, 'utf8').catch(() => '')
        outcomes.push({ entry, file: full, result: existing === entry.text ? 'unchanged' : 'kept' })
        continue
      }
      if (o.dryRun === true) {
        outcomes.push({ entry, file: full, result: 'would-write' })
        continue
      }
      await write(rel, entry.text)
      outcomes.push({ entry, file: full, result: 'written' })
    }
  }
  if (opened === undefined) await run(async () => {})
  else
    await guarded(() =>
      opened.withWriteLock(async (lock) => {
        const bytes = plan.entries.reduce((n, e) => n + Buffer.byteLength(e.text), 0)
        await opened.checkQuota(bytes, false)
        await run((rel, text) => opened.replaceFile(rel, text, lock))
      }),
    )
  const count = (r: Outcome['result']) => outcomes.filter((x) => x.result === r).length
  const value = {
    dryRun: o.dryRun === true,
    folder: store.path(PERSON_FOLDER),
    entries: outcomes.map((x) => ({
      name: x.entry.name,
      file: x.file,
      result: x.result,
      why: x.why === undefined ? undefined : refusalText(x.why, 'en'),
      origin: x.entry.origin,
      enabled: x.entry.fields.enabled,
      part: x.entry.part,
      kept: x.entry.kept,
      // --json keeps the English words a script reads (as before the codes), and the codes beside them.
      matching: worldNoteText(x.entry.matching, 'en'),
      notes: x.entry.notes.map((n) => worldNoteText(n, 'en')),
      noteCodes: x.entry.notes.map((n) => n.code),
      notCarried: x.entry.notCarried.map(carriedJson),
    })),
    refused: plan.refused.map((r) => ({ origin: r.origin, why: worldNoteText(r.why, 'en'), code: r.why.code })),
    book: { notCarried: plan.book.map(carriedJson) },
  }
  out(io, o.json, value, () => {
    const written = o.dryRun === true ? count('would-write') : count('written')
    const split = new Set(plan.entries.filter((e) => e.part !== undefined).map((e) => e.origin)).size
    // Of what this run wrote (or would): an entry already there was not written now, off or not.
    const off = outcomes.filter((x) => (x.result === 'written' || x.result === 'would-write') && !x.entry.fields.enabled).length
    const L = io.lang ?? DEFAULT_LANG
    const refused = count('refused') + plan.refused.length
    const head =
      t(o.dryRun === true ? 'cli.worldbook.wouldWrite' : 'cli.worldbook.wrote', L, { n: written, folder: value.folder }) +
      (split > 0 ? t('cli.worldbook.split', L, { n: split }) : '') +
      (off > 0 ? t('cli.worldbook.off', L, { n: off }) : '') +
      (count('unchanged') > 0 ? t('cli.worldbook.same', L, { n: count('unchanged') }) : '') +
      (count('kept') > 0 ? t('cli.worldbook.keptN', L, { n: count('kept') }) : '') +
      (refused > 0 ? t('cli.worldbook.refusedN', L, { n: refused }) : '')
    const lines = [head]
    const told = new Set<string>()
    for (const x of outcomes) {
      const e = x.entry
      lines.push(`  ${e.origin} → ${e.name}.md${e.fields.enabled ? '' : t('cli.worldbook.switchedOff', L)}`)
      if (x.result === 'kept') lines.push(t('cli.worldbook.keptOne', L))
      if (x.result === 'refused' && x.why !== undefined) lines.push(t('cli.worldbook.refusedOne', L, { why: refusalText(x.why, L) }))
      if ((x.result === 'written' || x.result === 'would-write') && starter.has(e.name)) lines.push(t('cli.worldbook.replaces', L))
      // Notes and fields not carried belong to the source entry: said once for all its parts.
      if (told.has(e.origin)) continue
      told.add(e.origin)
      // The field names are the source file's own; the notes and reasons come as codes (worldbook/import-notes.ts).
      lines.push(t('cli.worldbook.keptFields', L, { fields: e.kept.join(', '), matching: worldNoteText(e.matching, L) }))
      for (const n of e.notes) lines.push(`    ${worldNoteText(n, L)}`)
      for (const d of e.notCarried) lines.push(t('cli.worldbook.notCarried', L, { field: d.field, value: show(d.value), why: worldNoteText(d.why, L) }))
    }
    for (const r of plan.refused) lines.push(t('cli.worldbook.refusedEntry', L, { origin: r.origin, why: worldNoteText(r.why, L) }))
    for (const d of plan.book) lines.push(t('cli.worldbook.bookNotCarried', L, { field: d.field, value: show(d.value), why: worldNoteText(d.why, L) }))
    // The rail holds 560 characters for every constant entry together: say at once which ones it now leaves out (the doctor says it too).
    if (count('written') > 0 && plan.entries.some((e) => e.fields.constant && e.fields.enabled)) {
      const rail = renderRail(new WorldbookLibrary(worldbookFolders(store.root)).current().entries)
      if (rail.leftOut.length > 0)
        lines.push(
          t('cli.worldbook.railFull', L, {
            cap: RAIL_CAP,
            n: rail.leftOut.length,
            names: rail.leftOut.map((l) => l.name).join(', '),
          }),
        )
    }
    return `${lines.join('\n')}\n`
  })
  // Every entry the world had to give was stopped by what stands at its place in 世界书/ (a link, a folder):
  // nothing was written, so not a success (an outside fault audit found exit 0 here).
  if (o.dryRun !== true && count('written') === 0 && count('refused') > 0) {
    io.stderr(`cyrene: ${t('cli.worldbook.noneWritten', io.lang ?? DEFAULT_LANG, { n: count('refused') })}\n`)
    return 2
  }
  return 0
}
