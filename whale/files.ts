import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  lstatSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readSync,
  rmSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { withLock } from '../durable/lock.ts'
import { atomicWrite } from '../durable/atomic-write.ts'
import { configFromText } from './config.ts'
import { locate, inboxFileOf, type WhaleLocations } from './paths.ts'
import type { RenderInput } from './render.ts'
import { declareHostWrite } from '../durable/host-writes.ts'
import { notRegularFile, openRegularSync, readRegularFileSync } from '../durable/read-regular.ts'

/**
 * The only place in whale/ that touches the disk for rendering and plain
 * reads/writes. Paths arrive in the form they were configured; each is
 * resolved against the caller's working directory here, never against the
 * process's.
 */

/** Config, preset and card files larger than this are treated as unreadable. */
export const MAX_JSON_BYTES = 4 * 1024 * 1024
/** The inbox and the sink log may grow over years; still bounded. */
export const MAX_LOG_BYTES = 32 * 1024 * 1024

export interface FsContext {
  env: Record<string, string | undefined>
  /** The working directory relative paths resolve against. */
  cwd: string
}

export function resolveIn(ctx: FsContext, file: string): string {
  return path.resolve(ctx.cwd, file)
}

function isFile(absolute: string): boolean {
  try {
    // Looked up every step, and most candidates do not exist: no error built for those.
    return statSync(absolute, { throwIfNoEntry: false })?.isFile() === true
  } catch {
    return false
  }
}

/** Something is at `absolute` (a link counts: a config kept elsewhere may be one); never throws. */
function existsNoFollowOrLink(absolute: string): boolean {
  try {
    return lstatSync(absolute, { throwIfNoEntry: false }) !== undefined
  } catch {
    return true
  }
}

export function locationsFor(ctx: FsContext, configOverride?: string): WhaleLocations {
  const home = ctx.env.HOME || os.homedir()
  const found = locate({ DSH_HOME: ctx.env.DSH_HOME, DSH_WHALE_CONFIG: ctx.env.DSH_WHALE_CONFIG }, home, (f) => isFile(resolveIn(ctx, f)))
  return configOverride ? { ...found, configFile: configOverride } : found
}

export type ReadResult = { kind: 'text'; text: string } | { kind: 'missing' } | { kind: 'unreadable'; reason: string }

/**
 * Reads a UTF-8 text file, refusing anything larger than `maxBytes` or not a regular file. Opened once, without
 * waiting (a link to a regular file is followed, as a config kept elsewhere may be): a FIFO a tool call's process
 * renamed in would otherwise stop the host's thread in the open, and a file swapped in after a check is never the
 * one read.
 */
export function readBounded(absolute: string, maxBytes: number): ReadResult {
  const read = readBytesBounded(absolute, maxBytes)
  if (read.ok) return { kind: 'text', text: read.bytes.toString('utf8') }
  return read.reason === 'no such file' ? { kind: 'missing' } : { kind: 'unreadable', reason: read.reason }
}

export function readBytesBounded(absolute: string, maxBytes: number): { ok: true; bytes: Buffer } | { ok: false; reason: string } {
  // Most assemblies look for a config or an inbox that is not there: no error built for that (the open below still decides).
  if (!existsNoFollowOrLink(absolute)) return { ok: false, reason: 'no such file' }
  try {
    return { ok: true, bytes: readRegularFileSync(absolute, true, maxBytes) }
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') return { ok: false, reason: 'no such file' }
    if (code === 'EINVAL') return { ok: false, reason: 'not a regular file' }
    if (code === 'EFBIG') return { ok: false, reason: `larger than ${maxBytes} bytes` }
    return { ok: false, reason: (error as Error).message }
  }
}

const textOrNull = (r: ReadResult): string | null => (r.kind === 'text' ? r.text : null)

export interface RenderRequest {
  configOverride?: string
  model?: string
  hostCwd?: string
  sessionCapture?: boolean
}

/** The located config file's text (`null` when missing or unreadable) and where things are; never throws. */
export function readConfigText(ctx: FsContext, configOverride?: string): { where: WhaleLocations; configText: string | null } {
  const where = locationsFor(ctx, configOverride)
  return { where, configText: textOrNull(readBounded(resolveIn(ctx, where.configFile), MAX_JSON_BYTES)) }
}

/** Reads the config (unless the caller read it already, `read`) and the inbox it names into a RenderInput; never throws. */
export function loadRenderInput(
  ctx: FsContext,
  request: RenderRequest,
  read: ReturnType<typeof readConfigText> = readConfigText(ctx, request.configOverride),
): RenderInput {
  const { where, configText } = read
  const config = configFromText(configText)
  const inboxText = textOrNull(readBounded(resolveIn(ctx, inboxFileOf(config.memory, where.configDir)), MAX_LOG_BYTES))
  return {
    configText,
    inboxText,
    configDir: where.configDir,
    model: request.model ?? '',
    cwd: request.hostCwd ?? ctx.cwd,
    sessionCapture: request.sessionCapture === true,
  }
}

/**
 * Atomic replace through durable/'s writer, so readers never see half a file
 * and a full disk leaves the old file as it was. A file the person keeps as a
 * link (a dotfile folder) is written where the link points; an existing
 * file keeps its mode, a new one is private (0600).
 */
export async function writeTextAtomic(absolute: string, text: string): Promise<void> {
  mkdirSync(path.dirname(absolute), { recursive: true })
  await atomicWrite(absolute, text, { followLink: true, keepMode: true, mode: 0o600 })
}

/** Appends whole lines in one write; the inbox and the sink log are append-only. */
export function appendLines(absolute: string, lines: readonly string[]): void {
  if (!lines.length) return
  declareHostWrite(path.dirname(absolute))
  mkdirSync(path.dirname(absolute), { recursive: true })
  // a file whose last line has no newline would otherwise swallow our first line
  const lead = endsWithoutNewline(absolute) ? '\n' : ''
  declareHostWrite(absolute)
  appendWhole(absolute, lead + lines.map((l) => l + '\n').join(''))
}

/**
 * Appends text all or nothing: when the system stops the write part way (a full disk, a size
 * limit), what was written of it is cut off again, so no half line stays for the next append (or a
 * retry) to follow. The error is thrown as it came.
 */
function appendWhole(absolute: string, text: string): void {
  // Never waiting: a FIFO renamed in under the inbox's name would hold the open until something read it.
  const fd = openSync(absolute, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | constants.O_NONBLOCK, 0o666)
  let size = -1
  try {
    const st = fstatSync(fd)
    if (!st.isFile()) throw notRegularFile(absolute)
    size = st.size
    const bytes = Buffer.from(text, 'utf8')
    let done = 0
    while (done < bytes.length) done += writeSync(fd, bytes, done, bytes.length - done)
  } catch (error) {
    if (size >= 0)
      try {
        ftruncateSync(fd, size)
      } catch {
        /* the cut is best effort; the error below is what the person reads */
      }
    // write(2) names no file: the message must say which one.
    if (error instanceof Error && (error as NodeJS.ErrnoException).path === undefined) Object.assign(error, { path: absolute })
    throw error
  } finally {
    closeSync(fd)
  }
}

function endsWithoutNewline(absolute: string): boolean {
  let fd: number | undefined
  try {
    fd = openRegularSync(absolute, true)
    const size = fstatSync(fd).size
    if (size === 0) return false
    const last = Buffer.alloc(1)
    readSync(fd, last, 0, 1, size - 1)
    return last[0] !== 0x0a
  } catch {
    return false
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

export function exists(absolute: string): boolean {
  return existsSync(absolute)
}

/** Appends text as given (sink targets): existing content is never rewritten. */
/** The size of a file, or -1 when there is none (what `takeBackTo` puts back). */
export function sizeOrNone(absolute: string): number {
  try {
    return statSync(absolute).size
  } catch {
    return -1
  }
}

/** Undoes an append: the file cut back to `size`, or removed when it was not there (-1). Best effort. */
export function takeBackTo(absolute: string, size: number): void {
  declareHostWrite(absolute)
  try {
    if (size >= 0) truncateSync(absolute, size)
    else rmSync(absolute, { force: true })
  } catch {
    /* the caller's error still says why */
  }
}

export function appendRaw(absolute: string, text: string, createParents: boolean): void {
  if (createParents) mkdirSync(path.dirname(absolute), { recursive: true })
  declareHostWrite(absolute)
  appendWhole(absolute, text)
}

/**
 * Serialises read-then-write sequences (confirm, apply) between processes:
 * the cross-process lock (durable/lock.ts, the memory store's too) on a `<file>.lock` folder beside
 * the file, waited for up to 5 s. A holder that is alive keeps it however
 * long it takes; a dead one's is taken over at once.
 */
export async function withFileLock<T>(absolute: string, action: () => Promise<T> | T): Promise<T> {
  // no folder yet means nothing to protect; locking would create it, and a refusal must leave no trace
  if (!existsSync(path.dirname(absolute))) return action()
  return withLock({ path: `${absolute}.lock`, purpose: 'whale', waitMs: 5000 }, async () => action())
}

/** Reflex rules (spec §8): DSH_REFLEX_RULES or <config dir>/reflex.json; DSH_REFLEX_OFF=1 switches them off. */
const MAX_REFLEX_BYTES = 256 * 1024

function reflexRulesFile(ctx: FsContext): string {
  const override = ctx.env.DSH_REFLEX_RULES?.trim()
  return override || path.join(locationsFor(ctx).configDir, 'reflex.json')
}

/** `unreadable` says why a rules file that exists could not be read (for the doctor); the rules are then none. */
export function loadReflexText(ctx: FsContext): { off: boolean; file: string; text: string | null; unreadable?: string } {
  const file = reflexRulesFile(ctx)
  if (ctx.env.DSH_REFLEX_OFF === '1') return { off: true, file, text: null }
  const read = readBounded(resolveIn(ctx, file), MAX_REFLEX_BYTES)
  if (read.kind === 'unreadable') return { off: false, file, text: null, unreadable: read.reason }
  return { off: false, file, text: read.kind === 'text' ? read.text : null }
}
