import { statSync, type Stats } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { atomicWrite } from '../durable/atomic-write.ts'
import { CliError, type CliIO } from './io.ts'
import { langOf, say } from './help-text.ts'
import { entryJson, guarded, openStore, openStoreAt, out, progress, storeRoot, type StoreOptions } from './memory-shared.ts'
import { lstatOrUndefined, storePlaceHolding } from './store-places.ts'
import { safeJson } from './terminal.ts'
import { describeSystemFailure } from './failures.ts'
import { readInputFile } from './input-file.ts'
import { storeSaidText, withoutSaid } from './refusal-text.ts'
import { importItems, parseImportJsonl } from '../memory/upkeep.ts'

// `cyrene memory import --jsonl` and `cyrene memory export`: entries in and out as JSON lines.

export interface ImportOptions extends StoreOptions {
  jsonl?: string
  dryRun?: true
}
export interface ExportOptions extends StoreOptions {
  out?: string
  pending?: true
  force?: true
}
/** The largest JSON-lines file one import reads (some 400,000 entries): past it, split the file. */
const MAX_IMPORT_BYTES = 256 * 2 ** 20

export async function importLines(o: ImportOptions, io: CliIO): Promise<number> {
  const file = o.jsonl
  if (file === undefined) throw new CliError(say(io, 'store.import.noFile'), 2)
  // Bytes, not text: a line of invalid UTF-8 is reported with its number, never imported as U+FFFD.
  let bytes: string | Uint8Array
  if (file === '-') {
    if (io.readStdin === undefined) throw new CliError(say(io, 'store.stdin.none'), 2)
    bytes = await io.readStdin()
  } else {
    try {
      bytes = await readInputFile(io, file, MAX_IMPORT_BYTES)
    } catch (e) {
      if (e instanceof CliError) throw e
      // An unreadable input file is the system refusing (exit 3); a missing one is bad input (exit 2).
      const system = describeSystemFailure(e, { command: 'memory import', argv: [], nothingChanged: true, lang: io.lang })
      if (system !== undefined && (e as NodeJS.ErrnoException).code !== 'EISDIR') throw new CliError(system.message, system.exit)
      throw new CliError(say(io, 'store.file.unreadable', { file, why: fileProblem(e, io) }), 2)
    }
  }
  const store = await openStore(io, o.root)
  const parsed = parseImportJsonl(bytes, file)
  const r = await guarded(io, () => importItems(store, parsed.items, { dryRun: o.dryRun, onProgress: progress(io, say(io, 'store.progress.import'), o.quiet) }))
  r.skipped.unshift(...parsed.skipped)
  r.skipped.sort((x, y) => lineOf(x.origin) - lineOf(y.origin))
  out(
    io,
    o.json,
    { ...r, skipped: withoutSaid(r.skipped), already: withoutSaid(r.already) },
    () =>
      [
        importedLine(r.dryRun, r.imported, r.files.length, io) +
          (r.already.length > 0 ? say(io, 'store.import.already', { n: r.already.length }) : '') +
          (r.skipped.length > 0 ? say(io, 'store.import.refused', { n: r.skipped.length }) : '') +
          (r.duplicates.length > 0 ? say(io, 'store.import.duplicates', { n: r.duplicates.length }) : ''),
        ...r.skipped.map((s) => say(io, 'store.import.refusedLine', { origin: s.origin, why: storeSaidText(s.said, s.why, io) })),
        ...r.duplicates.map((d) => say(io, 'store.import.duplicate', { origin: d.origin, id: d.id, other: d.resembles, similarity: String(d.similarity) })),
      ].join('\n') + '\n',
  )
  return 0
}

export async function exportLines(o: ExportOptions, io: CliIO): Promise<number> {
  const root = storeRoot(io, o.root)
  const target = o.out === undefined || o.out === '-' ? undefined : exportTarget(io, o.out, root, o.force === true)
  const store = await openStoreAt(io, root)
  const { entries } = await store.scan()
  const list = entries.filter((e) => o.pending || e.area === 'day')
  const lines = list.map((e) => safeJson(entryJson(e, store.marks().marks))).join('\n') + (list.length > 0 ? '\n' : '')
  if (target === undefined) {
    io.stdout(lines)
    return 0
  }
  await atomicWrite(target, lines, { mode: 0o600, followLink: true })
  out(io, o.json, { exported: list.length, file: o.out }, () => `${say(io, 'store.export.done', { n: list.length, file: o.out! })}\n`)
  return 0
}

/**
 * Where an export may write, checked before anything is read: a file, in a folder that exists,
 * not there yet unless `--force`, and never inside the store, its snapshots or its index (through
 * a link or not), where it would replace the person's memories with a copy of them.
 */
function exportTarget(io: CliIO, out: string, root: string, force: boolean): string {
  if (out.trim() === '') throw new CliError(say(io, 'store.export.noFile'), 2)
  const file = resolve(io.cwd, out)
  const folder = dirname(file)
  if (statOrUndefined(folder) === undefined) throw new CliError(say(io, 'store.export.noFolder', { folder }), 2)
  const there = lstatOrUndefined(file)
  if (there !== undefined && statOrUndefined(file)?.isDirectory() === true) throw new CliError(say(io, 'store.export.folder', { file: out }), 2)
  const where = storePlaceHolding(file, root)
  if (where !== undefined) throw new CliError(say(io, 'store.export.inside', { file: out, where }), 2)
  if (there !== undefined && !force) throw new CliError(say(io, 'store.export.exists', { file: out }), 2)
  return file
}

function statOrUndefined(path: string): Stats | undefined {
  try {
    return statSync(path)
  } catch {
    return undefined
  }
}

function importedLine(dryRun: boolean, n: number, files: number, io: CliIO): string {
  if (n === 1) return say(io, dryRun ? 'store.import.wouldOne' : 'store.import.doneOne', { files })
  return say(io, dryRun ? 'store.import.would' : 'store.import.done', { n, files })
}

/** Why a file could not be read, in the person's words where the reason is a common one (else what the system said). */
function fileProblem(e: unknown, io: CliIO): string {
  const code = (e as NodeJS.ErrnoException).code
  if (code === 'ENOENT' || code === 'EISDIR') return say(io, `store.file.${code}`)
  return langOf(io) === 'en' ? (e as Error).message : (code ?? (e as Error).message)
}

/** The line number at the end of an origin `file:N` (0 when there is none), to list refusals in file order. */
function lineOf(origin: string): number {
  const m = /:(\d+)$/.exec(origin)
  return m === null ? 0 : Number(m[1])
}
