import { promises as fs } from 'node:fs'
import { resolve } from 'node:path'
import { atomicWrite } from '../durable/atomic-write.ts'
import { CliError, type CliIO } from './io.ts'
import { entryJson, guarded, openStore, out, progress, type StoreOptions } from './memory-shared.ts'
import { safeJson } from './terminal.ts'
import { describeSystemFailure } from './failures.ts'
import { importItems, parseImportJsonl } from '../memory/index.ts'

// `cyrene memory import --jsonl` and `cyrene memory export`: entries in and out as JSON lines.

export interface ImportOptions extends StoreOptions {
  jsonl?: string
  dryRun?: true
}
export interface ExportOptions extends StoreOptions {
  out?: string
  pending?: true
}
export async function importLines(o: ImportOptions, io: CliIO): Promise<number> {
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

export async function exportLines(o: ExportOptions, io: CliIO): Promise<number> {
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

/** The line number at the end of an origin `file:N` (0 when there is none), to list refusals in file order. */
function lineOf(origin: string): number {
  const m = /:(\d+)$/.exec(origin)
  return m === null ? 0 : Number(m[1])
}
