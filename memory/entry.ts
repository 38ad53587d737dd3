import type { Said } from './said.ts'
/**
 * Entry format v1: markdown text followed by exactly one line
 * `<!--cyrene:{JSON}-->`. A day file is a sequence of such entries.
 *
 * The parser keeps every byte of the file in `segments`, so a file can be
 * written back with only the changed entry re-serialized: everything else is
 * copied from `raw`. That is how "an unchanged entry is rewritten byte for
 * byte" and "unknown keys survive" hold without a canonical form.
 */

export const META_PREFIX = '<!--cyrene:'
const META_SUFFIX = '-->'

export const AXES = ['德', '智', '体', '美', '劳'] as const

export const KNOWN_KINDS = ['decision', 'lesson', 'rule', 'fact', 'preference', 'event', 'feeling', 'plan', 'person', 'note'] as const
/** Kinds that must cite their source (CONTRACT#gate rule 1). */
export const SOURCED_KINDS: readonly string[] = ['decision', 'lesson', 'rule']

export const LINK_TYPES = ['因果', '相似', '对立', '时序', '归属', '推断'] as const

export const GATES = ['day', 'pending', 'promoted', 'imported'] as const
type Gate = (typeof GATES)[number]

/** The scales a decision's consequences are written on (CONTRACT#gate). */
export const CONSEQUENCE_SCALES = ['self', 'other', 'relation', 'world', 'future'] as const
export type Consequence = Partial<Record<(typeof CONSEQUENCE_SCALES)[number], string>>

/** A decision's consequences as a tool takes them: one text per scale of the gate (memory_write, the dream's completion tool), as JSON schema. */
export const CONSEQUENCE_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(CONSEQUENCE_SCALES.map((scale) => [scale, { type: 'string' as const }])),
} as const

/**
 * The JSON of the comment line. Known fields are typed; any other key is kept
 * untouched (`[key: string]: unknown`). Optional fields are absent, never null.
 */
export interface EntryMeta {
  id: string
  kind?: string
  axis?: string
  reason?: string
  at?: string
  edited_at?: string
  by?: 'person' | 'model' | 'import'
  links?: string[]
  src_quote?: string
  src_ids?: string[]
  consequence?: Consequence
  entropy?: { reduces?: string; resonances?: string[] }
  legacy?: string
  aim?: string
  nature?: { name?: string; tier?: 'high' | 'low'; serves_aim?: boolean | string }
  base?: boolean
  vol?: number
  gate?: Gate
  promoted_at?: string
  source_ref?: string
  [key: string]: unknown
}

export interface Entry {
  text: string
  meta: EntryMeta
}

/** One piece of a parsed file. Concatenating every `raw` gives the file back exactly. */
export type Segment =
  | { type: 'entry'; raw: string; line: number; entry: Entry }
  | { type: 'broken'; raw: string; line: number; error: string }
  | { type: 'loose'; raw: string; line: number }

export interface ParseProblem {
  file: string
  line: number
  message: string
  /** The problem as a code, for the person's language (decision 082). */
  said: Said
}

export interface ParsedFile {
  file: string
  segments: Segment[]
  problems: ParseProblem[]
}

/** Splits text into lines keeping their terminators, so joins are exact. */
function splitKeepingEnds(text: string): string[] {
  const out: string[] = []
  let start = 0
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      out.push(text.slice(start, i + 1))
      start = i + 1
    }
  }
  if (start < text.length) out.push(text.slice(start))
  return out
}

function stripEnd(line: string): string {
  return line.replace(/\r?\n$/, '')
}

/** Entry text: the lines before the comment, without surrounding blank lines. */
function textOfBody(body: string): string {
  return body
    .replace(/\r\n/g, '\n')
    .replace(/^(?:[ \t]*\n)+/, '')
    .replace(/\s+$/, '')
}

function parseMetaLine(line: string): { meta: EntryMeta } | { error: string; said: Said } | undefined {
  const trimmed = line.trim()
  if (!trimmed.startsWith(META_PREFIX)) return undefined
  if (!trimmed.endsWith(META_SUFFIX))
    return { error: 'the cyrene comment is not closed with "-->" on the same line (truncated or wrapped?)', said: { code: 'format.unclosed' } }
  const json = trimmed.slice(META_PREFIX.length, trimmed.length - META_SUFFIX.length)
  let value: unknown
  try {
    value = JSON.parse(json)
  } catch (e) {
    return { error: `the cyrene comment is not valid JSON: ${(e as Error).message}`, said: { code: 'format.json', params: { error: (e as Error).message } } }
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { error: 'the cyrene comment must hold a JSON object', said: { code: 'format.not-object' } }
  const meta = value as Record<string, unknown>
  if (typeof meta.id !== 'string' || meta.id.trim() === '') return { error: 'the cyrene comment has no "id" string', said: { code: 'format.no-id' } }
  return { meta: meta as EntryMeta }
}

/**
 * Parse a day or pending file. Never throws: malformed comments become
 * `broken` segments (reported with file and line, their text kept in the file),
 * text after the last comment becomes a `loose` segment.
 */
export function parseEntryFile(text: string, file: string): ParsedFile {
  const lines = splitKeepingEnds(text)
  const segments: Segment[] = []
  const problems: ParseProblem[] = []
  let bodyStart = 0
  let bodyStartLine = 1
  let raw = ''
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!
    raw += line
    const parsed = parseMetaLine(stripEnd(line))
    if (parsed === undefined) continue
    const lineNo = i + 1
    if ('error' in parsed) {
      problems.push({ file, line: lineNo, message: parsed.error, said: parsed.said })
      segments.push({ type: 'broken', raw, line: bodyStartLine, error: parsed.error })
    } else {
      const body = lines.slice(bodyStart, i).join('')
      segments.push({ type: 'entry', raw, line: lineNo, entry: { text: textOfBody(body), meta: parsed.meta } })
    }
    raw = ''
    bodyStart = i + 1
    bodyStartLine = i + 2
  }
  if (raw !== '') segments.push({ type: 'loose', raw, line: bodyStartLine })
  return { file, segments, problems }
}

/**
 * The entry `id` of a day or pending file's text, as `entriesOf(parseEntryFile(text))` holds it
 * (the last one, if the id repeats), without parsing the others (see `findEntries`).
 */
export function findEntry(text: string, id: string): Entry | undefined {
  return findEntries(text, [id]).get(id)
}

/**
 * The entries `ids` of a day or pending file's text, as `entriesOf(parseEntryFile(text))` holds them
 * (the last of a repeated id), without parsing the others: a recall's hits need a few entries of a file
 * that may hold a hundred thousand, and parsing them all cost more than the search. Only comment lines
 * that hold one of the ids as written, or any escape (`\`, which could spell one otherwise), are parsed;
 * they are found in one pass over the text for all the ids at once.
 */
export function findEntries(text: string, ids: Iterable<string>): Map<string, Entry> {
  const wanted = new Set(ids)
  const found = new Map<string, Entry>()
  if (wanted.size === 0) return found
  const needles = new Set([...wanted].map((id) => (id === '' ? META_PREFIX : id)))
  needles.add('\\')
  const anyNeedle = new RegExp([...needles].map(escapeRegExp).join('|'), 'g')
  const candidates: number[] = []
  for (let match = anyNeedle.exec(text); match !== null; match = anyNeedle.exec(text)) {
    const start = lineStartOf(text, match.index)
    if (isCommentLine(text, start)) candidates.push(start)
    // One line is a candidate once, whichever needles it holds.
    anyNeedle.lastIndex = nextLineStart(text, match.index)
    if (anyNeedle.lastIndex >= text.length) break
  }
  for (let i = candidates.length - 1; i >= 0 && found.size < wanted.size; i--) {
    const start = candidates[i]!
    const parsed = parseMetaLine(stripEnd(text.slice(start, nextLineStart(text, start))))
    if (parsed === undefined || !('meta' in parsed)) continue
    const id = parsed.meta.id
    if (wanted.has(id) && !found.has(id)) found.set(id, { text: textOfBody(text.slice(bodyStartBefore(text, start), start)), meta: parsed.meta })
  }
  return found
}

const escapeRegExp = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

const lineStartOf = (text: string, at: number): number => (at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1)

function nextLineStart(text: string, at: number): number {
  const newline = text.indexOf('\n', at)
  return newline === -1 ? text.length : newline + 1
}

/** A comment line, broken or not: the prefix after nothing but white space (as `line.trim()` reads it). */
const COMMENT_LINE = new RegExp(`[^\\S\\n]*${META_PREFIX}`, 'y')
function isCommentLine(text: string, start: number): boolean {
  COMMENT_LINE.lastIndex = start
  return COMMENT_LINE.test(text)
}

/** Where the body of the entry whose comment line starts at `lineStart` begins: after the comment line before it, or at 0. */
function bodyStartBefore(text: string, lineStart: number): number {
  for (let end = lineStart; end > 0;) {
    const at = text.lastIndexOf(META_PREFIX, end - 1)
    if (at === -1) return 0
    const start = lineStartOf(text, at)
    if (isCommentLine(text, start)) return nextLineStart(text, at)
    end = start
  }
  return 0
}

/**
 * Where the text after the last comment line that ends with a newline begins; 0 when there is none. Every
 * comment line, broken or not, closes what came before it, so the parse of the text before this point is the
 * same whatever follows it: what is appended to a day file can be parsed alone from here.
 */
export function endOfLastClosedComment(text: string): number {
  return afterClosedComments(text, 1)
}

/**
 * Where the text after the `n`-th last comment line that ends with a newline begins (0 when there are fewer):
 * from there on the text parses as the file's last `n` comments and what follows them, as in the whole parse.
 */
export function afterClosedComments(text: string, n: number): number {
  let seen = 0
  for (let end = text.length; end > 0;) {
    const at = text.lastIndexOf(META_PREFIX, end - 1)
    if (at === -1) return 0
    const start = lineStartOf(text, at)
    const next = nextLineStart(text, at)
    if (isCommentLine(text, start) && text.charCodeAt(next - 1) === 10 && ++seen === n) return next
    end = start
  }
  return 0
}

export function entriesOf(parsed: ParsedFile): Entry[] {
  const out: Entry[] = []
  for (const s of parsed.segments) if (s.type === 'entry') out.push(s.entry)
  return out
}

/**
 * One line of JSON, safe inside an HTML comment: `-->` can only occur inside a
 * JSON string, where `--\u003e` means the same thing to every JSON reader.
 */
export function serializeMeta(meta: EntryMeta): string {
  const json = JSON.stringify(meta).replace(/-->/g, '--\\u003e')
  return `${META_PREFIX}${json}${META_SUFFIX}`
}

/** A fresh entry as it is written: text, newline, comment, newline. */
export function serializeEntry(entry: Entry): string {
  return `${entry.text}\n${serializeMeta(entry.meta)}\n`
}

/** Deep structural equality of plain JSON values (key order ignored). */
function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false
  if (Array.isArray(a) !== Array.isArray(b)) return false
  if (Array.isArray(a)) {
    const bb = b as unknown[]
    return a.length === bb.length && a.every((v, i) => jsonEqual(v, bb[i]))
  }
  const ka = Object.keys(a as object).filter((k) => (a as Record<string, unknown>)[k] !== undefined)
  const kb = Object.keys(b as object).filter((k) => (b as Record<string, unknown>)[k] !== undefined)
  if (ka.length !== kb.length) return false
  return ka.every((k) => jsonEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]))
}

/** Text of a segment after replacing its entry; unchanged entries keep their exact bytes. */
export function reserializeSegment(seg: Extract<Segment, { type: 'entry' }>, next: Entry): string {
  if (next.text === seg.entry.text && jsonEqual(next.meta, seg.entry.meta)) return seg.raw
  // Keep whatever blank lines / spacing preceded the text in the original.
  const lead = /^(?:[ \t]*\r?\n)*/.exec(seg.raw)?.[0] ?? ''
  return `${lead}${serializeEntry(next)}`
}

/** Joins segments back into file text. */
export function joinSegments(segments: readonly Segment[]): string {
  return segments.map((s) => s.raw).join('')
}

/**
 * Append new entries to a file's text. Entries are separated by one blank
 * line. If the file ends with loose text (no comment after it), the new entries
 * go *before* that text so the loose words never get glued onto them. Only the
 * file's end is looked at (from its last comment line on), so appending to a day
 * of 100,000 entries costs what the new ones cost, not a parse of the whole day.
 */
export function appendEntriesText(current: string, entries: readonly Entry[]): string {
  if (entries.length === 0) return current
  const blocks = entries.map(serializeEntry).join('\n')
  if (current.trim() === '') return blocks
  const tailStart = bodyStartBefore(current, current.length)
  const tail = current.slice(tailStart)
  if (tail.trim() !== '') return `${withBlankLineEnd(current.slice(0, tailStart))}${blocks}\n${tail.replace(/^(?:[ \t]*\r?\n)+/, '')}`
  return `${withBlankLineEnd(current)}${blocks}`
}

function withBlankLineEnd(text: string): string {
  if (text === '') return ''
  if (/\n[ \t]*\r?\n$/.test(text)) return text
  if (text.endsWith('\n')) return `${text}\n`
  return `${text}\n\n`
}
