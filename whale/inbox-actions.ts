import path from 'node:path'
import { configFromText, type WhaleConfig } from './config.ts'
import {
  appendLines,
  appendRaw,
  exists,
  sizeOrNone,
  takeBackTo,
  locationsFor,
  MAX_JSON_BYTES,
  MAX_LOG_BYTES,
  readBounded,
  resolveIn,
  type FsContext,
} from './files.ts'
import { MEMORY_KIND, opLine, replayInbox, splitLines, type HumanOp, type ReplayedEntry } from './inbox.ts'
import { inboxFileOf, sinkLogFileOf, type WhaleLocations } from './paths.ts'
import { appendedText, sinkKey, sinkLine, sinkLogKeys, sinkRoutes, type SinkLogRecord, type SinkRoute } from './sinks.ts'
import { WhaleError } from './said.ts'

/**
 * The human side of the inbox (spec §5.5): the only writer of confirm,
 * reject and drop lines, and the only caller of the sinks. Nothing here is
 * reachable from rendering.
 */
export interface InboxState {
  config: WhaleConfig
  where: WhaleLocations
  /** The inbox file as configured (display form). */
  inboxFile: string
  rawText: string
  entries: ReplayedEntry[]
}

/** A refusal of an inbox command's input (decision 085: a code and its values beside the English). */
export class InboxInputError extends WhaleError {}

export function loadInbox(ctx: FsContext, configOverride?: string): InboxState {
  const where = locationsFor(ctx, configOverride)
  const configRead = readBounded(resolveIn(ctx, where.configFile), MAX_JSON_BYTES)
  const config = configFromText(configRead.kind === 'text' ? configRead.text : null)
  const inboxFile = inboxFileOf(config.memory, where.configDir)
  const inboxRead = readBounded(resolveIn(ctx, inboxFile), MAX_LOG_BYTES)
  if (inboxRead.kind === 'unreadable')
    throw new InboxInputError(`cannot read the inbox ${inboxFile}: ${inboxRead.reason}`, 'inbox.unreadable', {
      file: inboxFile,
      reason: inboxRead.reason,
    })
  const rawText = inboxRead.kind === 'text' ? inboxRead.text : ''
  return { config, where, inboxFile, rawText, entries: replayInbox(splitLines(rawText)) }
}

/** Indices as typed by a person: whole numbers inside the view, each once. */
export function parseIndices(words: readonly string[], viewLength: number): number[] {
  if (!words.length) throw new InboxInputError('give at least one index from `cyrene whale inbox list`', 'inbox.no-index')
  const seen = new Set<number>()
  for (const word of words) {
    if (!/^\d{1,9}$/.test(word))
      throw new InboxInputError(`"${word}" is not an index; use the numbers shown by \`cyrene whale inbox list\``, 'inbox.not-index', {
        word,
      })
    const n = Number(word)
    if (n >= viewLength)
      throw new InboxInputError(
        `index ${n} is outside the inbox (it has ${viewLength} entr${viewLength === 1 ? 'y' : 'ies'})`,
        viewLength === 1 ? 'inbox.outside-one' : 'inbox.outside',
        {
          n,
          count: viewLength,
        },
      )
    if (seen.has(n)) throw new InboxInputError(`index ${n} is given twice`, 'inbox.twice', { n })
    seen.add(n)
  }
  return [...seen]
}

/**
 * Operation lines find their entry by its text, first match. An entry whose
 * text also belongs to an earlier entry cannot be addressed on its own, so
 * such a selection is refused rather than acting on the wrong entry.
 */
function assertAddressable(entries: readonly ReplayedEntry[], indices: readonly number[], op: HumanOp): void {
  const chosen = new Set(indices)
  for (const i of indices) {
    const earlier = entries.findIndex((e) => e.text === entries[i]!.text)
    if (earlier === i) continue
    const earlierAlsoRemoved = op !== 'confirm' && entries.slice(0, i).every((e, j) => e.text !== entries[i]!.text || chosen.has(j))
    if (!earlierAlsoRemoved) {
      throw new InboxInputError(
        `entry ${i} has the same text as entry ${earlier}; operations address entries by text, so select ${earlier} first or drop the duplicate`,
        'inbox.same-text',
        { i, earlier },
      )
    }
  }
}

/** reject / drop: one line per selected entry, in index order. */
export function removeEntries(ctx: FsContext, state: InboxState, op: 'reject' | 'drop', indices: readonly number[], now: Date): string[] {
  const ordered = [...indices].sort((a, b) => a - b)
  assertAddressable(state.entries, ordered, op)
  const lines = ordered.map((i) => opLine(op, state.entries[i]!.text, now.toISOString()))
  appendLines(resolveIn(ctx, state.inboxFile), lines)
  return lines
}

interface ConfirmReport {
  confirmed: number
  sunk: { index: number; kind: string; path: string; bytes: number; text: string }[]
  skipped: { index: number; kind: string; path: string; reason: string }[]
  noRoute: { index: number; kind: string; text: string }[]
  errors: { index: number; kind: string; error: string }[]
}

export interface ConfirmResult {
  report: ConfirmReport
  appendedLines: string[]
}

/**
 * confirm: a confirm line for each selected entry not yet confirmed; then
 * every non-memory entry goes to its sink and, once written now, leaves the
 * inbox with a drop line (in confirmation order). An entry the sink log
 * already holds is skipped and kept, like one without a route (reported).
 */
export function confirmEntries(
  ctx: FsContext,
  state: InboxState,
  indices: readonly number[],
  source: string,
  now: Date,
  refuse: RefuseTarget = () => null,
): ConfirmResult {
  assertAddressable(state.entries, indices, 'confirm')
  const inboxAbs = resolveIn(ctx, state.inboxFile)
  const confirmLines = indices.filter((i) => state.entries[i]!.status !== 'confirmed').map((i) => opLine('confirm', state.entries[i]!.text, now.toISOString()))
  appendLines(inboxAbs, confirmLines)

  const report: ConfirmReport = { confirmed: confirmLines.length, sunk: [], skipped: [], noRoute: [], errors: [] }
  const routes = sinkRoutes(state.config.memory.sinks, state.where.configDir)
  const logFile = sinkLogFileOf(state.config.memory, state.where.configDir)
  const protectedFiles = [state.where.configFile, state.inboxFile, logFile].map((f) => resolveIn(ctx, f))
  const dropLines: string[] = []
  for (const index of indices) {
    const entry = state.entries[index]!
    if (entry.kind === MEMORY_KIND) continue
    const route = routes.get(entry.kind)
    if (route === undefined) {
      report.noRoute.push({ index, kind: entry.kind, text: entry.text })
      continue
    }
    const outcome = sinkOne(ctx, route, entry, { source, now, logFile, protectedFiles, configDir: state.where.configDir, refuse })
    if (outcome.kind === 'error') {
      report.errors.push({ index, kind: entry.kind, error: outcome.error })
      continue
    }
    if (outcome.kind === 'skipped') {
      // written once (spec §6): an entry already in the sink log is not a write of this confirm, so it gets no drop line
      report.skipped.push({ index, kind: entry.kind, path: route.path, reason: 'already-sunk' })
      continue
    }
    report.sunk.push({ index, kind: entry.kind, path: route.path, bytes: outcome.bytes, text: entry.text })
    dropLines.push(opLine('drop', entry.text, now.toISOString()))
  }
  appendLines(inboxAbs, dropLines)
  return { report, appendedLines: [...confirmLines, ...dropLines] }
}

/** The host program's own places a sink must not write (absolute path in, why out; null when it may). */
export type RefuseTarget = (absolute: string) => string | null

interface SinkContext {
  source: string
  now: Date
  logFile: string
  protectedFiles: string[]
  configDir: string
  refuse: RefuseTarget
}

type SinkOutcome = { kind: 'sunk'; bytes: number } | { kind: 'skipped' } | { kind: 'error'; error: string }

/** Why a target is refused, or null when it is acceptable. */
function unsafeTarget(ctx: FsContext, route: SinkRoute, sink: Pick<SinkContext, 'protectedFiles' | 'configDir' | 'refuse' | 'logFile'>): string | null {
  if (route.path.includes('\0')) return 'the sink path contains a NUL character'
  if (process.platform !== 'win32' && /^[A-Za-z]:[\\/]/.test(route.path))
    return 'the sink path is a Windows drive path, which this system cannot write; use a path of this system'
  const target = resolveIn(ctx, route.path)
  if (sink.protectedFiles.includes(target)) return 'the sink path points at the config, the inbox or the sink log'
  const refused = sink.refuse(target) ?? sink.refuse(resolveIn(ctx, sink.logFile))
  if (refused !== null) return refused
  if (!path.isAbsolute(route.path)) {
    const inside = path.relative(resolveIn(ctx, sink.configDir), target)
    if (inside.startsWith('..') || path.isAbsolute(inside))
      return 'a relative sink path must stay inside the config folder; write an absolute path to go elsewhere'
  }
  return null
}

function sinkOne(ctx: FsContext, route: SinkRoute, entry: ReplayedEntry, sink: SinkContext): SinkOutcome {
  try {
    const refusal = unsafeTarget(ctx, route, sink)
    if (refusal !== null) return { kind: 'error', error: refusal }
    const line = sinkLine(route, entry, sink.source, sink.now)
    if (!line.trim()) return { kind: 'error', error: 'the template renders an empty line' }
    const logAbs = resolveIn(ctx, sink.logFile)
    const logRead = readBounded(logAbs, MAX_LOG_BYTES)
    if (logRead.kind === 'unreadable') return { kind: 'error', error: `cannot read the sink log: ${logRead.reason}` }
    // the same target however its path was written (relative, ./, absolute): written once (§6)
    const sameFile = (target: string): string => resolveIn(ctx, target)
    if (sinkLogKeys(logRead.kind === 'text' ? logRead.text : '', sameFile).has(sinkKey(route.kind, line, sameFile(route.path)))) return { kind: 'skipped' }
    const target = resolveIn(ctx, route.path)
    const targetExists = exists(target)
    if (!targetExists && !route.createParents && !exists(path.dirname(target))) {
      return { kind: 'error', error: `the folder of ${route.path} does not exist and createParents is false` }
    }
    const body = appendedText(route, line, targetExists)
    const sizeBefore = sizeOrNone(target)
    appendRaw(target, body, route.createParents)
    // "bytes" counts UTF-16 code units of what was appended, as the sample does
    const record: SinkLogRecord = {
      at: sink.now.toISOString(),
      kind: route.kind,
      path: route.path,
      format: route.format,
      line,
      bytes: body.length,
      source: sink.source,
    }
    try {
      appendLines(logAbs, [JSON.stringify(record)])
    } catch (error) {
      // Written once (§6) rests on the log: a line the log does not hold would be written again by the next
      // confirm. So what was just appended is taken back, and the entry stays in the inbox for that confirm.
      takeBackTo(target, sizeBefore)
      return {
        kind: 'error',
        error: `could not record it in the sink log (${(error as Error).message}), so nothing was written to ${route.path}; make room, then confirm it again`,
      }
    }
    return { kind: 'sunk', bytes: body.length }
  } catch (error) {
    return { kind: 'error', error: (error as Error).message }
  }
}
