import { existsSync, readdirSync } from 'node:fs'
import { isAbsolute, join, resolve } from 'node:path'
import { help, say } from './help-text.ts'
import { refusalText } from './refusal-text.ts'
import { CliError, type CliIO } from './io.ts'
import { sayWaiting } from './guard-wait.ts'
import type { CyreneCommand } from './command.ts'
import { isForgedClaim, isPersonBase, migrateMarks, ownerOf, type PersonMarks } from '../memory/marks.ts'
import { MemoryStore, LockBusyError, EngineBusyError, LockLostError, type StoredEntry } from '../memory/index.ts'
import { RefusedError } from '../memory/format.ts'
import { LAYOUT_DIRS, resolveRoot, ROOT_NAME, RootError } from '../memory/paths.ts'
import { clip } from '../prompt/index.ts'
import { PERSON_FOLDER } from '../worldbook/index.ts'
import { firstBadByte } from '../memory/upkeep.ts'
import { linkTarget } from '../memory/files.ts'
import { safeJson, visibleControls } from './terminal.ts'

/** Options every memory-family command takes. */
export interface StoreOptions {
  json?: true
  root?: string
  quiet?: true
}

/** Adds the options every memory-family command takes (after its own, so its own come first in help). */
export function storeOptions(command: CyreneCommand): CyreneCommand {
  return command
    .option('--json', help(command.io, 'cli.json'))
    .option('--root <DIR>', help(command.io, 'cli.root'))
    .option('--quiet', help(command.io, 'cli.quiet'))
}

/** The top folders of a store (CONTRACT#layout): a folder holding one of them is a store, maybe half made. */
const STORE_TOPS = new Set([...LAYOUT_DIRS.map((d) => d.split('/')[0]!), PERSON_FOLDER])

/**
 * Where the command's store is, refused when it is no place for one: `--root ''`, a file, or a
 * folder that holds other things and no store (a DSH home given as `--root`, a notes folder). A
 * store is never laid out among someone's files; a missing or empty folder is fine (a write makes
 * the store there, a read finds nothing).
 */
export function storeRoot(io: CliIO, root: string | undefined): string {
  if (root !== undefined && root.trim() === '') throw new CliError(say(io, 'store.root.empty'), 2)
  // Never taken from the working folder: a command run from another folder would find another store, or make one.
  if (root !== undefined && !isAbsolute(root)) throw new CliError(say(io, 'store.root.relative', { root, absolute: resolve(io.cwd, root) }), 2)
  let resolved: string
  try {
    resolved = resolveRoot({ env: io.env, rootDir: root })
  } catch (e) {
    throw asCliError(e, io)
  }
  let names: string[]
  try {
    names = readdirSync(resolved)
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') {
      // A link to a disk that is not mounted: the store is out of reach, not missing; a write must not make one beside it.
      const target = linkTarget(resolved)
      if (target !== undefined) throw new CliError(say(io, 'store.root.danglingLink', { root: resolved, target }), 3)
      return resolved
    }
    if (code === 'ENOTDIR') throw new CliError(say(io, 'store.root.notFolder', { root: resolved }), 2)
    // Any other failure (a folder it may not read) is the store's to report, with the owner and the fix.
    return resolved
  }
  if (names.length === 0 || names.some((name) => STORE_TOPS.has(name))) return resolved
  const inner = join(resolved, ROOT_NAME)
  const hint = names.includes(ROOT_NAME) ? say(io, 'store.root.isHome', { root: resolved, store: inner }) : ''
  throw new CliError(say(io, 'store.root.foreign', { root: resolved, hint }), 2)
}

export async function openStore(io: CliIO, root: string | undefined): Promise<MemoryStore> {
  return await openStoreAt(io, storeRoot(io, root))
}

/** `openStore` at a root `storeRoot` has already checked. */
export async function openStoreAt(io: CliIO, rootDir: string): Promise<MemoryStore> {
  let store: MemoryStore
  try {
    store = await MemoryStore.open({
      env: io.env,
      rootDir,
      layOut: 'on-write',
      waitForGuardWindows: sayWaiting(io),
    })
  } catch (e) {
    throw asCliError(e, io)
  }
  // A home without a store is left without one until a write (a read or a refusal makes nothing).
  if (!existsSync(store.root)) return store
  // A store older than the person-marks record takes its claims over once (CONTRACT#person-marks); a busy lock leaves it to the next run.
  const migrated = await migrateMarks(store).catch(() => undefined)
  if (migrated !== undefined && migrated > 0)
    io.stderr(`${migrated === 1 ? say(io, 'store.marks.migratedOne') : say(io, 'store.marks.migrated', { n: migrated })}\n`)
  return store
}

/**
 * Engine refusals become exit code 2 with their message in the person's
 * language (cli/refusal-text.ts words the coded ones; the rest keep the
 * store's own sentence, which already says what to do); so does a store file
 * that is not UTF-8 (fsio's `NotUtf8`: the write is refused, the file left as
 * it is). System errors (disk full, permission, …) pass through to main.ts,
 * which maps them to exit 3.
 */
export function asCliError(e: unknown, io: Pick<CliIO, 'lang'>): unknown {
  if (
    e instanceof RefusedError ||
    e instanceof RootError ||
    e instanceof LockBusyError ||
    e instanceof EngineBusyError ||
    e instanceof LockLostError ||
    e instanceof RangeError
  )
    return new CliError(refusalText(e, io), 2, refusalText(e, { lang: 'en' }))
  if (e instanceof Error && e.name === 'NotUtf8') {
    const refused = new RefusedError('not-utf8', e.message, { file: String((e as { rel?: unknown }).rel ?? '') })
    return new CliError(refusalText(refused, io), 2, refusalText(refused, { lang: 'en' }))
  }
  return e
}

/** Standard input as text; invalid UTF-8 is refused (exit 2) with where it is, never turned into U+FFFD. */
export async function readStdinText(io: CliIO): Promise<string> {
  if (io.readStdin === undefined) throw new CliError(say(io, 'store.stdin.noneText'), 2)
  const input = await io.readStdin()
  if (typeof input === 'string') return input
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(input)
  } catch {
    const bad = Math.min(firstBadByte(input), input.length - 1)
    const line = input.subarray(0, bad).filter((b) => b === 0x0a).length + 1
    throw new CliError(say(io, 'store.stdin.notUtf8', { line: String(line), byte: `0x${input[bad]!.toString(16).padStart(2, '0')}`, offset: String(bad) }), 2)
  }
}

/** Runs `fn`, its engine refusals as `CliError`s in `io`'s language (without `io`: the store's own words). */
export async function guarded<T>(io: CliIO, fn: () => Promise<T>): Promise<T>
export async function guarded<T>(fn: () => Promise<T>): Promise<T>
export async function guarded<T>(a: CliIO | (() => Promise<T>), b?: () => Promise<T>): Promise<T> {
  const [io, fn] = typeof a === 'function' ? [{ lang: 'en' } as const, a] : [a, b!]
  try {
    return await fn()
  } catch (e) {
    throw asCliError(e, io)
  }
}

/** Everything a memory command prints goes through here: stored text may hold escapes from a hand edit. */
export function out(io: CliIO, json: boolean | undefined, value: unknown, human: () => string): void {
  io.stdout(json ? `${safeJson(value, 2)}\n` : visibleControls(human()))
}

/**
 * Progress for long operations, on stderr so stdout stays clean for --json and
 * pipes: one plain line every 500 items and at the end (plain lines, not \r,
 * so it reads the same in a terminal, a log and CI). --quiet turns it off.
 */
export function progress(io: CliIO, label: string, quiet: boolean | undefined): (done: number, total: number) => void {
  if (quiet) return () => {}
  return (done, total) => {
    if (done === total || done % 500 === 0) io.stderr(`${say(io, 'store.progress.line', { label, done: String(done), total: String(total) })}\n`)
  }
}

export function oneLine(text: string, max = 60): string {
  return clip(text.replace(/\s+/g, ' '), max)
}

/**
 * An entry as the command line shows it. `owner` and `base` are the store's
 * judgement (the person-marks record), not the comment's claim; `unbacked` is
 * set when the comment claims the person and the record does not back it.
 */
export function entryJson(e: StoredEntry, marks: PersonMarks): Record<string, unknown> {
  return {
    id: e.id,
    text: e.text,
    file: e.file,
    line: e.line,
    area: e.area,
    owner: ownerOf(marks, e),
    base: isPersonBase(marks, e),
    ...(isForgedClaim(marks, e) ? { unbacked: true } : {}),
    meta: e.meta,
  }
}

/** One line on who wrote an entry, for the text views. */
export function ownerLine(e: StoredEntry, marks: PersonMarks, io: CliIO): string {
  if (isForgedClaim(marks, e)) return say(io, e.meta.base === true ? 'store.owner.forgedBase' : 'store.owner.forgedPerson')
  return `${say(io, `store.owner.${ownerOf(marks, e)}`)}${isPersonBase(marks, e) ? say(io, 'store.owner.base') : ''}`
}
