import { charCount, clip } from '../prompt/index.ts'
import { AXES, CONSEQUENCE_SCALES, LINK_TYPES, KNOWN_KINDS, META_PREFIX, type Consequence, type EntryMeta } from './entry.ts'
import { isUsableId } from './id.ts'
import { whatOf, type Said, type SaidParams, type What } from './said.ts'

/** Who is writing. The model may never write `base: true` entries or anything under 元/. */
export type Writer = 'person' | 'model'

export interface Limits {
  entryChars: number
  injectChars: number
  totalBytes: number
  marginBytes: number
}

export const DEFAULT_LIMITS: Limits = {
  entryChars: 400,
  injectChars: 1200,
  totalBytes: 128 * 1024 * 1024,
  marginBytes: 64 * 1024 * 1024,
}

/** What a caller hands to `store.write`. */
export interface NewEntry {
  text: string
  kind?: string
  axis?: string
  reason?: string
  links?: string[]
  src_quote?: string
  src_ids?: string[]
  /** When it happened; defaults to now. Decides the day file. */
  at?: string
  consequence?: Consequence
  entropy?: EntryMeta['entropy']
  legacy?: string
  aim?: string
  nature?: EntryMeta['nature']
  base?: boolean
  /** Further keys to keep in the comment as they are. */
  extra?: Record<string, unknown>
}

/**
 * A refusal: the message says what to do, in English (logs, tests, the model).
 * `params` carry what a caller needs to word it in the person's language
 * from its code (cli/refusal-text.ts; decisions 078, 082); `variant` tells apart
 * refusals that share a code.
 */
export class RefusedError extends Error {
  readonly code: string
  readonly params: SaidParams
  constructor(code: string, message: string, params: SaidParams = {}) {
    super(message)
    this.code = code
    this.params = params
    this.name = 'RefusedError'
  }

  /** The refusal for another language's words: `refused.<code>[.<variant>]` and what it names. */
  get said(): Said {
    const { variant, ...params } = this.params
    return { code: `refused.${this.code}${typeof variant === 'string' ? `.${variant}` : ''}`, params }
  }
}

/** The text of an entry, as refusals name it. */
const ENTRY_TEXT: What = { en: 'entry text', said: { code: 'part.text' } }

// C0 and C1 controls except tab and newline: they corrupt terminals and editors.
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0080-\u009f]/
const INVISIBLE_RE = /[\u200b-\u200f\u2060\ufeff\u202a-\u202e\u2066-\u2069]/g
/** A kind is one short lowercase word (known kinds, or new ones kept with a note). */
export const KIND_RE = /^[a-z][a-z0-9_-]{0,31}$/

/** A kind a write takes: a short lowercase word (a write and a JSONL import refuse anything else alike). */
export function refuseBadKind(kind: unknown): asserts kind is string {
  if (typeof kind !== 'string' || !KIND_RE.test(kind))
    throw new RefusedError('bad-kind', `kind must be a short lowercase word like ${KNOWN_KINDS.slice(0, 6).join(', ')}`, {
      kinds: KNOWN_KINDS.slice(0, 6).join(', '),
    })
}
const MAX_META_CHARS = 4000
/**
 * `extra` may only add keys the format does not define: every defined field
 * goes through its own check (so `extra: {base: true}` cannot bypass the
 * person-only rule) or is set by the store itself.
 */
const RESERVED_KEYS = new Set([
  'id',
  'kind',
  'axis',
  'reason',
  'at',
  'edited_at',
  'by',
  'links',
  'src_quote',
  'src_ids',
  'consequence',
  'entropy',
  'legacy',
  'aim',
  'nature',
  'base',
  'vol',
  'gate',
  'promoted_at',
  'source_ref',
  'pending_reasons',
  'src',
  'imported_gate',
  'import_key',
  '__proto__',
])

/** One year range for every path (write, `--at`, import): the day files are named YYYY-MM-DD. */
export const YEAR_MIN = 1000
export const YEAR_MAX = 9999

/** What `parseWhen` accepts, for messages that tell the person what to type instead. */
const WHEN_FORMS = `YYYY-MM-DD (that day), YYYY-MM-DDTHH:MM[:SS[.sss]] (local time), or the same followed by Z or ±HH:MM (for example 2026-03-04, 2026-03-04T21:30, 2026-03-04T13:30:00Z); years ${YEAR_MIN}–${YEAR_MAX}`

const WHEN_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|z|[+-]\d{2}:?\d{2})?)?$/

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28
  return [4, 6, 9, 11].includes(month) ? 30 : 31
}

/** Why a time is refused: its English words and its code (`part.when.<code>`). */
function badTime(at: string, why: string, code: string, params: Record<string, string | number> = {}): RefusedError {
  return new RefusedError('bad-time', `at ${JSON.stringify(at)} ${why}. Accepted: ${WHEN_FORMS}.`, {
    at: JSON.stringify(at),
    why: { code: `part.when.${code}`, params: { min: YEAR_MIN, max: YEAR_MAX, ...params } },
    min: String(YEAR_MIN),
    max: String(YEAR_MAX),
  })
}

/**
 * A time given by a caller (write, `--at`, an import line): a calendar date or
 * an ISO 8601 date-time whose fields are all written out. Every field is
 * checked — `Date` would silently roll 2026-02-30 over to March and read a
 * bare "12" as December 2001. A bare date means that local day, read as local
 * noon (never UTC midnight, which is the day before west of Greenwich); a
 * date-time without a zone is local time. Throws RefusedError('bad-time').
 */
export function parseWhen(at: string): Date {
  if (typeof at !== 'string')
    throw new RefusedError('bad-time', `at must be a string. Accepted: ${WHEN_FORMS}.`, { variant: 'type', min: String(YEAR_MIN), max: String(YEAR_MAX) })
  const m = WHEN_RE.exec(at.trim())
  if (m === null)
    throw /^\d+$/.test(at.trim()) ? badTime(at, 'is a bare number, not a date', 'number') : badTime(at, 'is not a date or date-time this store reads', 'form')
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])]
  if (year < YEAR_MIN || year > YEAR_MAX) throw badTime(at, `falls outside the years ${YEAR_MIN}–${YEAR_MAX}`, 'years')
  if (month < 1 || month > 12) throw badTime(at, `has no month ${month}`, 'month', { month })
  if (day < 1 || day > daysInMonth(year, month)) {
    const days = daysInMonth(year, month)
    throw badTime(at, `is not a day of the calendar (${m[1]}-${m[2]} has ${days} days)`, 'day', { month: `${m[1]}-${m[2]}`, days })
  }
  if (m[4] === undefined) return new Date(year, month - 1, day, 12, 0, 0, 0)
  const [hour, minute, second] = [Number(m[4]), Number(m[5]), Number(m[6] ?? '0')]
  if (hour > 23 || minute > 59 || second > 59) throw badTime(at, 'has a time of day that does not exist (hours 00–23, minutes and seconds 00–59)', 'clock')
  const ms = Number((m[7] ?? '').padEnd(3, '0').slice(0, 3))
  const zone = m[8]
  let when: Date
  if (zone === undefined) when = new Date(year, month - 1, day, hour, minute, second, ms)
  else {
    let offsetMin = 0
    if (zone !== 'Z' && zone !== 'z') {
      const digits = zone.slice(1).replace(':', '')
      const [oh, om] = [Number(digits.slice(0, 2)), Number(digits.slice(2))]
      if (oh > 23 || om > 59) throw badTime(at, `has an impossible zone offset ${zone}`, 'zone', { zone })
      offsetMin = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + om)
    }
    when = new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMin * 60_000)
  }
  // The zone can move the instant across a year boundary; both the stored UTC
  // time and the local day file must stay four-digit years.
  for (const y of [when.getUTCFullYear(), when.getFullYear()]) {
    if (y < YEAR_MIN || y > YEAR_MAX) throw badTime(at, `falls outside the years ${YEAR_MIN}–${YEAR_MAX} once its zone is applied`, 'years-zone')
  }
  return when
}

function normalizeText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim()
}

/** Half of a UTF-16 pair with no other half: it has no UTF-8 form, so writing it would silently become U+FFFD. */
const LONE_SURROGATE_RE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/

/** Refuses a lone surrogate in a string given by a caller (never let it turn into U+FFFD on disk). */
export function assertWellFormed(s: string, what: string | What): void {
  const m = LONE_SURROGATE_RE.exec(s)
  if (m === null) return
  const hex = m[0].charCodeAt(0).toString(16).toUpperCase()
  const position = charCount(s.slice(0, m.index)) + 1
  const w = whatOf(what)
  throw new RefusedError(
    'bad-char',
    `${w.en} holds a lone surrogate (U+${hex} at position ${position}): half of a character — usually a broken "\\u${hex.toLowerCase()}" escape or a cut emoji — that has no UTF-8 form. Fix the source and try again; nothing was written.`,
    { what: w.said, hex, position: String(position), escape: `\\u${hex.toLowerCase()}` },
  )
}

/** Calls `fn` on every string (keys too) inside a JSON-like value. */
function eachString(v: unknown, fn: (s: string) => void): void {
  if (typeof v === 'string') fn(v)
  else if (Array.isArray(v)) for (const x of v) eachString(x, fn)
  else if (v !== null && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) {
      fn(k)
      eachString(x, fn)
    }
  }
}

/** `assertWellFormed` over every string of a field kept as given (extra, entropy, nature). */
function assertWellFormedDeep(v: unknown, what: string | What): void {
  eachString(v, (s) => {
    assertWellFormed(s, what)
  })
}

/**
 * Characters that show nothing: zero-width space/joiners, BOM, word joiner,
 * direction marks and isolates, soft hyphen, variation selectors, fillers
 * (Unicode's Default_Ignorable_Code_Point). A text made only of these is empty.
 */
const IGNORABLE_RE = /\p{Default_Ignorable_Code_Point}/gu

/** Refuses what would corrupt a file or a terminal; returns notes on what is odd but kept. */
export function checkText(text: unknown, limits: Limits, what: string | What = ENTRY_TEXT): { text: string; notes: string[]; saidNotes: Said[] } {
  const w = whatOf(what)
  if (typeof text !== 'string') throw new RefusedError('bad-input', `${w.en} must be a string`, { variant: 'not-string', what: w.said })
  assertWellFormed(text, w)
  const clean = normalizeText(text)
  if (clean === '') throw new RefusedError('empty', `${w.en} is empty: write at least one word`, { what: w.said })
  if (clean.replace(IGNORABLE_RE, '').trim() === '') {
    throw new RefusedError(
      'empty',
      `${w.en} is empty: it holds only invisible characters (zero-width spaces, joiners, direction marks or the like); write at least one visible word`,
      { variant: 'invisible', what: w.said },
    )
  }
  const n = charCount(clean)
  if (n > limits.entryChars) {
    throw new RefusedError(
      'too-long',
      `${w.en} is ${n} characters; the limit is ${limits.entryChars}. Split it into smaller memories, or keep the long text in 余页/ (free writing, never injected).`,
      { variant: 'text', what: w.said, chars: String(n), limit: String(limits.entryChars) },
    )
  }
  if (CONTROL_RE.test(clean))
    throw new RefusedError('control-char', `${w.en} contains control characters (for example from a terminal paste); remove them and write again`, {
      what: w.said,
    })
  if (clean.split('\n').some((l) => l.trim().startsWith(META_PREFIX))) {
    throw new RefusedError('meta-in-text', `${w.en} contains a line starting with "${META_PREFIX}", which would be read as metadata; reword that line`, {
      what: w.said,
      prefix: META_PREFIX,
    })
  }
  const notes: string[] = []
  const saidNotes: Said[] = []
  const invisible = clean.match(INVISIBLE_RE)
  if (invisible !== null) {
    notes.push(`${w.en} contains ${invisible.length} invisible character(s) (zero-width or direction marks); kept as written`)
    saidNotes.push({ code: 'note.invisible', params: { what: w.said, n: invisible.length } })
  }
  return { text: clean, notes, saidNotes }
}

/** A short one-line field (reason, src_quote, …): trimmed, empty → absent, no control characters. */
function oneLineString(v: unknown, field: string, max = 400): string | undefined {
  if (v === undefined) return undefined
  if (typeof v !== 'string') throw new RefusedError('bad-input', `${field} must be a string`, { variant: 'field-type', field })
  assertWellFormed(v, field)
  const s = v.replace(/\r\n?/g, '\n').trim()
  if (s === '') return undefined
  if (CONTROL_RE.test(s)) throw new RefusedError('control-char', `${field} contains control characters; remove them`, { variant: 'field', field })
  if (charCount(s) > max)
    throw new RefusedError('too-long', `${field} is ${charCount(s)} characters; the limit is ${max}. Shorten it.`, {
      variant: 'field',
      field,
      chars: String(charCount(s)),
      limit: String(max),
    })
  return s
}

/**
 * Fields of an imported entry that skip the gate but not the rules of a write:
 * the axis is one of 德智体美劳, the reason one line of at most 200 characters,
 * no control characters or lone surrogates anywhere, and the whole comment
 * within MAX_META_CHARS. Returns why not, or undefined when it may be stored.
 */
export function importedMetaProblem(meta: Record<string, unknown>): string | undefined {
  return importedMetaSaid(meta)?.why
}

/** The comment of an entry, as refusals name it. */
const METADATA: What = { en: 'the metadata', said: { code: 'part.metadata' } }

/** `importedMetaProblem` with its code, for the person's language (decision 082). */
export function importedMetaSaid(meta: Record<string, unknown>): { why: string; said: Said } | undefined {
  try {
    if (meta.axis !== undefined && (typeof meta.axis !== 'string' || !(AXES as readonly string[]).includes(meta.axis))) {
      const axis = JSON.stringify(meta.axis)
      return {
        why: `axis ${axis} is not one of ${AXES.join(' ')}; correct or remove "axis" on this line and import again`,
        said: { code: 'why.axis', params: { axis, axes: AXES.join(' ') } },
      }
    }
    if (meta.reason !== undefined) {
      if (typeof meta.reason !== 'string') return { why: 'reason must be a string', said: { code: 'why.reason-type' } }
      if (/[\r\n]/.test(meta.reason)) return { why: 'reason must be one line; join its lines and import again', said: { code: 'why.reason-lines' } }
      oneLineString(meta.reason, 'reason', 200)
    }
    assertWellFormedDeep(meta, METADATA)
    // Metadata is printed by `memory show`/`list`: no control character, at any depth.
    let control = false
    eachString(meta, (s) => {
      if (CONTROL_RE.test(s)) control = true
    })
    if (control) return { why: 'the metadata contains control characters (escape sequences); remove them and import again', said: { code: 'why.meta-control' } }

    const chars = JSON.stringify(meta).length
    if (chars > MAX_META_CHARS)
      return {
        why: `the metadata of this entry is ${chars} characters; the limit is ${MAX_META_CHARS}. Shorten it (a long reason or quote belongs in the text) and import again`,
        said: { code: 'why.meta-long', params: { chars, limit: MAX_META_CHARS } },
      }
  } catch (e) {
    if (e instanceof RefusedError) return { why: e.message, said: e.said }
    throw e
  }
  return undefined
}

/** A link `"<id>|<type>"` as its two parts (the type is empty when the link has none). */
export function splitLink(link: string): { target: string; type: string } {
  const bar = link.lastIndexOf('|')
  return bar < 0 ? { target: link, type: '' } : { target: link.slice(0, bar), type: link.slice(bar + 1) }
}

/** The string links of an entry's `links` value, whatever a file holds there. */
export function linksOf(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((l): l is string => typeof l === 'string') : []
}

export function checkLink(link: unknown): string {
  if (typeof link !== 'string') throw new RefusedError('bad-link', 'each link must be a string "<id>|<type>"', { variant: 'not-string' })
  const { target: id, type } = splitLink(link)
  if (!isUsableId(id))
    throw new RefusedError('bad-link', `link ${JSON.stringify(link)} has no usable target id`, { variant: 'target', link: JSON.stringify(link) })
  if (type !== '' && !(LINK_TYPES as readonly string[]).includes(type)) {
    throw new RefusedError('bad-link', `link type ${JSON.stringify(type)} is not one of ${LINK_TYPES.join('/')} (or empty)`, {
      variant: 'type',
      type: JSON.stringify(type),
      types: LINK_TYPES.join('/'),
    })
  }
  return `${id}|${type}`
}

/**
 * What the runtime injects for one entry, never longer than `limit`
 * (a hand-edited entry may exceed what the write path allows; it is cut, with a mark).
 */
export function clipForInjection(
  text: string,
  meta: Pick<EntryMeta, 'src_quote'>,
  limit: number = DEFAULT_LIMITS.injectChars,
): { text: string; clipped: boolean } {
  const full = injectionText(text, meta)
  const shown = clip(full, limit)
  return { text: shown, clipped: shown !== full }
}

/** The text that would be injected for an entry: body plus its source quote. */
function injectionText(text: string, meta: Pick<EntryMeta, 'src_quote'>): string {
  return typeof meta.src_quote === 'string' && meta.src_quote !== '' ? `${text}\n（原话：「${meta.src_quote}」）` : text
}

/**
 * Turns caller input into the comment's fields (without id/at/gate/by/vol,
 * which the store adds). Pure; throws RefusedError with an actionable message.
 */
export function buildMeta(input: NewEntry, by: Writer, limits: Limits): { text: string; meta: Omit<EntryMeta, 'id'>; notes: string[]; saidNotes: Said[] } {
  if (input === null || typeof input !== 'object')
    throw new RefusedError('bad-input', 'an entry must be an object with at least "text"', { variant: 'not-object' })
  if (by !== 'person' && by !== 'model') throw new RefusedError('bad-input', 'say who is writing: by "person" or "model"', { variant: 'writer' })
  const { text, notes, saidNotes } = checkText(input.text, limits)
  if (input.base === true && by !== 'person') {
    throw new RefusedError(
      'person-only',
      'base: true entries can only be written by the person (cyrene memory write --base); the model may propose it in words instead',
      { variant: 'base' },
    )
  }
  const meta: Omit<EntryMeta, 'id'> = {}
  if (input.kind !== undefined) {
    refuseBadKind(input.kind)
    if (!(KNOWN_KINDS as readonly string[]).includes(input.kind)) {
      notes.push(`kind "${input.kind}" is not one of the known kinds (${KNOWN_KINDS.join(', ')}); kept`)
      saidNotes.push({ code: 'note.unknown-kind', params: { kind: input.kind, kinds: KNOWN_KINDS.join(', ') } })
    }
    meta.kind = input.kind
  }
  const axis = oneLineString(input.axis, 'axis', 1)
  if (axis !== undefined) meta.axis = axis
  const reason = oneLineString(input.reason, 'reason', 200)
  if (reason !== undefined) meta.reason = reason
  if (input.at !== undefined) parseWhen(input.at)
  if (input.links !== undefined) {
    if (!Array.isArray(input.links)) throw new RefusedError('bad-link', 'links must be a list of "<id>|<type>"', { variant: 'not-list' })
    if (input.links.length > 0) meta.links = input.links.map(checkLink)
  }
  const quote = oneLineString(input.src_quote, 'src_quote', limits.injectChars)
  if (quote !== undefined) meta.src_quote = quote
  if (input.src_ids !== undefined) {
    if (!Array.isArray(input.src_ids) || !input.src_ids.every(isUsableId))
      throw new RefusedError('bad-input', 'src_ids must be a list of entry ids', { variant: 'src-ids' })
    if (input.src_ids.length > 0) meta.src_ids = [...input.src_ids]
  }
  if (input.consequence !== undefined) {
    if (input.consequence === null || typeof input.consequence !== 'object')
      throw new RefusedError('bad-input', 'consequence must be an object {self, other, relation, world, future}', { variant: 'consequence' })
    const c: Consequence = {}
    for (const k of CONSEQUENCE_SCALES) {
      const v = oneLineString(input.consequence[k], `consequence.${k}`)
      if (v !== undefined) c[k] = v
    }
    if (Object.keys(c).length > 0) meta.consequence = c
  }
  for (const k of ['entropy', 'nature'] as const) {
    if (input[k] === undefined) continue
    assertWellFormedDeep(input[k], k)
    meta[k] = input[k] as never
  }
  for (const k of ['legacy', 'aim'] as const) {
    const v = oneLineString(input[k], k)
    if (v !== undefined) meta[k] = v
  }
  if (input.base === true) meta.base = true
  if (input.extra !== undefined) {
    if (input.extra === null || typeof input.extra !== 'object' || Array.isArray(input.extra))
      throw new RefusedError('bad-input', 'extra must be an object of further keys', { variant: 'extra' })
    for (const [k, v] of Object.entries(input.extra)) {
      if (RESERVED_KEYS.has(k))
        throw new RefusedError('bad-input', `extra may not set "${k}": it is a field of the format; pass it as its own field`, {
          variant: 'extra-reserved',
          key: k,
        })
      assertWellFormed(k, { en: 'a key of extra', said: { code: 'part.extra-key' } })
      assertWellFormedDeep(v, `extra.${k}`)
      meta[k] = v
    }
  }
  // The comment is one line a person may read in an editor; a huge one is a paste gone wrong.
  const metaChars = JSON.stringify(meta).length
  if (metaChars > MAX_META_CHARS)
    throw new RefusedError(
      'too-long',
      `the metadata of this entry is ${metaChars} characters; the limit is ${MAX_META_CHARS}. Keep long material in the text of separate entries or in 余页/.`,
      { variant: 'metadata', chars: String(metaChars), limit: String(MAX_META_CHARS) },
    )
  const injected = charCount(injectionText(text, meta))
  if (injected > limits.injectChars) {
    throw new RefusedError(
      'too-long',
      `this entry would inject ${injected} characters; the limit per injected entry is ${limits.injectChars}. Shorten src_quote or the text.`,
      { variant: 'injected', chars: String(injected), limit: String(limits.injectChars) },
    )
  }
  return { text, meta, notes, saidNotes }
}
