import { createHash } from 'node:crypto'
import { isRecord } from './json.ts'
import { foldLine } from './text.ts'

/**
 * The memory inbox is an append-only event log (spec §5). Reading it means
 * replaying every line in order; nothing ever looks at "the last line".
 */
type EntryStatus = 'confirmed' | 'proposed' | 'legacy'

export const MEMORY_KIND = 'memory'

export interface InboxEntry {
  text: string
  at: string
  tag: string
  status: EntryStatus
  kind: string
}

/** A replayed entry plus what the view does not show. */
export interface ReplayedEntry extends InboxEntry {
  /**
   * False when the line carried a status other than confirmed/proposed. Such
   * an entry shows as `legacy` but is never let through by `requireConfirm:
   * false`, which only relaxes the gate for lines that had no status at all.
   */
  statusValid: boolean
}

type FactLine = { op: ''; text: string; at: string; tag: string; status: EntryStatus | null; statusValid: boolean; kind: string }
type RefOp = { op: 'confirm' | 'reject' | 'drop'; ref: string }
type SupersedeOp = { op: 'supersede'; ref: string; text: string; at: string; tag: string; status: EntryStatus | null; statusValid: boolean; kind: string }
type InboxLine = FactLine | RefOp | SupersedeOp

/**
 * `kind`: trimmed, lower-cased, reduced to `[a-z0-9_-]`. Absent or blank means
 * memory. A kind that was written but has none of the allowed characters is
 * *not* memory (spec wins): it becomes '' and is neither injected nor routed.
 */
export function normaliseKind(value: unknown): string {
  if (value === undefined || value === null) return MEMORY_KIND
  const raw = String(value).trim().toLowerCase()
  if (!raw) return MEMORY_KIND
  return raw.replace(/[^a-z0-9_-]/g, '')
}

function parseStatus(value: unknown): { status: EntryStatus | null; valid: boolean } {
  if (value === undefined) return { status: null, valid: true }
  const s = typeof value === 'string' ? value.trim().toLowerCase() : ''
  if (s === 'confirmed' || s === 'proposed') return { status: s, valid: true }
  return { status: null, valid: false }
}

const atOf = (value: unknown): string => (typeof value === 'string' ? value : '')

function parseInboxLine(line: string): InboxLine | null {
  const trimmed = line.trim()
  if (!trimmed) return null
  let value: unknown
  try {
    value = JSON.parse(trimmed)
  } catch {
    return null
  }
  if (!isRecord(value)) return null
  try {
    return value.op !== undefined ? parseOpLine(value) : parseFactLine(value)
  } catch {
    // a value String() cannot convert (`"kind": {"toString": 0}`) makes the line a bad line: skipped, the rest still replays (§5.1)
    return null
  }
}

function parseFactLine(value: Record<string, unknown>): FactLine | null {
  const text = foldLine(value.text)
  if (!text) return null
  const status = parseStatus(value.status)
  return { op: '', text, at: atOf(value.at), tag: foldLine(value.tag), status: status.status, statusValid: status.valid, kind: normaliseKind(value.kind) }
}

function parseOpLine(value: Record<string, unknown>): InboxLine | null {
  const ref = foldLine(value.ref)
  if (!ref) return null
  if (value.op === 'confirm' || value.op === 'reject' || value.op === 'drop') return { op: value.op, ref }
  if (value.op !== 'supersede') return null // unknown ops only skip their own line
  const text = foldLine(value.text)
  if (!text) return null
  const status = parseStatus(value.status)
  const kind = value.kind === undefined || value.kind === null || String(value.kind).trim() === '' ? '' : normaliseKind(value.kind)
  return { op: 'supersede', ref, text, at: atOf(value.at), tag: foldLine(value.tag), status: status.status, statusValid: status.valid, kind }
}

export function splitLines(text: string): string[] {
  return text.split(/\r?\n/)
}

/** The key a person's record keeps for one inbox line: SHA-256 of the trimmed line. */
export function inboxLineKey(line: string): string {
  return createHash('sha256').update(line.trim()).digest('hex')
}

/** Whether a line that confirms an entry was written by the person (the host's record); asked once per such line, in order. */
export type ConfirmVouch = (line: string) => boolean

/**
 * A vouch from the person's record (line key → how many such lines the
 * person wrote): the n-th copy of a line is vouched for only while n is
 * within the recorded count.
 */
export function vouchFromRecord(lines: Readonly<Record<string, number>>): ConfirmVouch {
  const seen = new Map<string, number>()
  return (line) => {
    const key = inboxLineKey(line)
    const n = (seen.get(key) ?? 0) + 1
    seen.set(key, n)
    return Object.hasOwn(lines, key) && n <= lines[key]!
  }
}

/** The lines a person's record must vouch for: a confirm op, a fact / rewrite that says it is confirmed, or a rewrite that states no status (it keeps a confirmation). */
export function confirmsSomething(line: string): boolean {
  const parsed = parseInboxLine(line)
  if (parsed === null) return false
  return claimsConfirmation(parsed) || mayKeepConfirmation(parsed)
}

function claimsConfirmation(parsed: InboxLine): boolean {
  if (parsed.op === 'confirm') return true
  return (parsed.op === '' || parsed.op === 'supersede') && parsed.status === 'confirmed'
}

/** A rewrite that states no status keeps the old entry's: of a confirmed entry, that confirms its new text. */
function mayKeepConfirmation(parsed: InboxLine): boolean {
  return parsed.op === 'supersede' && parsed.status === null && parsed.statusValid
}

/**
 * Replays the log in line order into the current view, oldest first. With a
 * `vouch` (the host), a confirmation the person did not record is not one: a
 * confirm op is skipped, a line that says `"status":"confirmed"` counts as
 * proposed, and so does a rewrite without a status of a confirmed entry.
 */
export function replayInbox(lines: readonly string[], vouch?: ConfirmVouch): ReplayedEntry[] {
  const entries: ReplayedEntry[] = []
  for (const line of lines) {
    const read = parseInboxLine(line)
    if (read === null) continue
    let parsed: InboxLine = read
    if (vouch !== undefined && claimsConfirmation(parsed) && !vouch(line)) {
      if (parsed.op !== '' && parsed.op !== 'supersede') continue
      parsed = { ...parsed, status: 'proposed' }
    }
    if (parsed.op === '') {
      entries.push({ text: parsed.text, at: parsed.at, tag: parsed.tag, status: parsed.status ?? 'legacy', kind: parsed.kind, statusValid: parsed.statusValid })
      continue
    }
    const i = entries.findIndex((e) => e.text === parsed.ref)
    if (i < 0) continue
    const target = entries[i]!
    if (parsed.op === 'drop' || parsed.op === 'reject') {
      entries.splice(i, 1)
    } else if (parsed.op === 'confirm') {
      entries[i] = { ...target, status: 'confirmed', statusValid: true }
    } else if (parsed.op === 'supersede') {
      // the rewritten entry counts as the newest; an unstated status keeps the
      // old one so a human rewrite does not lose its confirmation
      entries.splice(i, 1)
      const inherit = parsed.status === null && parsed.statusValid
      // With a vouch, keeping a confirmation confirms the new text: like a confirm line, it counts only
      // when the person wrote it; a rewrite the model appended without a status is a proposal (decision 307).
      const unvouched = inherit && target.status === 'confirmed' && vouch !== undefined && !vouch(line)
      entries.push({
        text: parsed.text,
        at: parsed.at,
        tag: parsed.tag || target.tag,
        status: unvouched ? 'proposed' : inherit ? target.status : (parsed.status ?? 'legacy'),
        statusValid: unvouched || (inherit ? target.statusValid : parsed.statusValid),
        kind: parsed.kind || target.kind,
      })
    }
  }
  return entries
}

export function viewOf(entries: readonly ReplayedEntry[]): InboxEntry[] {
  return entries.map(({ text, at, tag, status, kind }) => ({ text, at, tag, status, kind }))
}

/** Entries allowed into the prompt (spec §3.3): memory kind, confirmed (or true legacy when relaxed). */
export function injectable(entries: readonly ReplayedEntry[], requireConfirm: boolean): ReplayedEntry[] {
  return entries.filter((e) => {
    if (e.kind !== MEMORY_KIND) return false
    if (e.status === 'confirmed') return true
    return !requireConfirm && e.status === 'legacy' && e.statusValid
  })
}

/** The working directory's own folder name, lower-cased; `\` counts as a separator. */
function projectName(cwd: string): string {
  const segments = cwd.replace(/\\/g, '/').split('/').filter(Boolean)
  return (segments.at(-1) ?? '').trim().toLowerCase()
}

/**
 * Over the cap: entries tagged with this project score 2, untagged (global)
 * entries 1, other projects 0; the highest scores stay, newest first among
 * equals, and the survivors go back into log order. At or under the cap all stay.
 */
export function selectRelevant<T extends { tag: string }>(entries: readonly T[], max: number, cwd: string): T[] {
  if (entries.length <= max) return [...entries]
  const project = projectName(cwd)
  const score = (e: T): number => {
    const tag = e.tag.trim().toLowerCase()
    if (!tag) return 1
    return project && tag === project ? 2 : 0
  }
  return entries
    .map((entry, index) => ({ entry, index, score: score(entry) }))
    .sort((a, b) => b.score - a.score || b.index - a.index)
    .slice(0, max)
    .sort((a, b) => a.index - b.index)
    .map((r) => r.entry)
}

export type HumanOp = 'confirm' | 'reject' | 'drop'

/** One operation line as a person writes it through the CLI (spec §5.3). */
export function opLine(op: HumanOp, ref: string, at: string): string {
  return JSON.stringify({ op, ref, at })
}
