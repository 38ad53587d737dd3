import { charCount, LINK_TYPES, KNOWN_KINDS, META_PREFIX, type Consequence, type EntryMeta } from './entry.ts'
import { isUsableId } from './id.ts'

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

/** A refusal: the message says what to do. */
export class RefusedError extends Error {
  readonly code: string
  constructor(code: string, message: string) {
    super(message)
    this.code = code
    this.name = 'RefusedError'
  }
}

// C0 and C1 controls except tab and newline: they corrupt terminals and editors.
// eslint-disable-next-line no-control-regex
const CONTROL_RE = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u0080-\u009f]/
const INVISIBLE_RE = /[\u200b-\u200f\u2060\ufeff\u202a-\u202e\u2066-\u2069]/g
/** A kind is one short lowercase word (known kinds, or new ones kept with a note). */
export const KIND_RE = /^[a-z][a-z0-9_-]{0,31}$/
export const MAX_META_CHARS = 4000
/**
 * `extra` may only add keys the format does not define: every defined field
 * goes through its own check (so `extra: {base: true}` cannot bypass the
 * person-only rule) or is set by the store itself.
 */
const RESERVED_KEYS = new Set([
  'id', 'kind', 'axis', 'reason', 'at', 'edited_at', 'by', 'links', 'src_quote', 'src_ids', 'consequence', 'entropy',
  'legacy', 'aim', 'nature', 'base', 'vol', 'gate', 'promoted_at', 'source_ref', 'pending_reasons', 'src', 'imported_gate', '__proto__',
])

/**
 * A time given by a caller. A bare date (YYYY-MM-DD) means that local day, so
 * it is read as local noon — never UTC midnight, which is the day before west of Greenwich.
 */
export function parseWhen(at: string): Date {
  return /^\d{4}-\d{2}-\d{2}$/.test(at) ? new Date(`${at}T12:00:00`) : new Date(at)
}

export function normalizeText(text: string): string {
  return text.replace(/\r\n?/g, '\n').trim()
}

/** Refuses what would corrupt a file or a terminal; returns notes on what is odd but kept. */
export function checkText(text: unknown, limits: Limits, what = 'entry text'): { text: string; notes: string[] } {
  if (typeof text !== 'string') throw new RefusedError('bad-input', `${what} must be a string`)
  const clean = normalizeText(text)
  if (clean === '') throw new RefusedError('empty', `${what} is empty: write at least one word`)
  const n = charCount(clean)
  if (n > limits.entryChars) {
    throw new RefusedError('too-long', `${what} is ${n} characters; the limit is ${limits.entryChars}. Split it into smaller memories, or keep the long text in 余页/ (free writing, never injected).`)
  }
  if (CONTROL_RE.test(clean)) throw new RefusedError('control-char', `${what} contains control characters (for example from a terminal paste); remove them and write again`)
  if (clean.split('\n').some((l) => l.trim().startsWith(META_PREFIX))) {
    throw new RefusedError('meta-in-text', `${what} contains a line starting with "${META_PREFIX}", which would be read as metadata; reword that line`)
  }
  const notes: string[] = []
  const invisible = clean.match(INVISIBLE_RE)
  if (invisible !== null) notes.push(`${what} contains ${invisible.length} invisible character(s) (zero-width or direction marks); kept as written`)
  return { text: clean, notes }
}

function oneLineString(v: unknown, field: string, max = 400): string | undefined {
  if (v === undefined) return undefined
  if (typeof v !== 'string') throw new RefusedError('bad-input', `${field} must be a string`)
  const s = v.replace(/\r\n?/g, '\n').trim()
  if (s === '') return undefined
  if (CONTROL_RE.test(s)) throw new RefusedError('control-char', `${field} contains control characters; remove them`)
  if (charCount(s) > max) throw new RefusedError('too-long', `${field} is ${charCount(s)} characters; the limit is ${max}. Shorten it.`)
  return s
}

export function checkLink(link: unknown): string {
  if (typeof link !== 'string') throw new RefusedError('bad-link', 'each link must be a string "<id>|<type>"')
  const bar = link.lastIndexOf('|')
  const id = bar < 0 ? link : link.slice(0, bar)
  const type = bar < 0 ? '' : link.slice(bar + 1)
  if (!isUsableId(id)) throw new RefusedError('bad-link', `link ${JSON.stringify(link)} has no usable target id`)
  if (type !== '' && !(LINK_TYPES as readonly string[]).includes(type)) {
    throw new RefusedError('bad-link', `link type ${JSON.stringify(type)} is not one of ${LINK_TYPES.join('/')} (or empty)`)
  }
  return `${id}|${type}`
}

/**
 * What the runtime injects for one entry, never longer than `limit`
 * (a hand-edited entry may exceed what the write path allows; it is cut, with a mark).
 */
export function clipForInjection(text: string, meta: Pick<EntryMeta, 'src_quote'>, limit: number = DEFAULT_LIMITS.injectChars): { text: string; clipped: boolean } {
  const full = injectionText(text, meta)
  const chars = [...full]
  if (chars.length <= limit) return { text: full, clipped: false }
  return { text: `${chars.slice(0, Math.max(0, limit - 1)).join('')}…`, clipped: true }
}

/** The text that would be injected for an entry: body plus its source quote. */
export function injectionText(text: string, meta: Pick<EntryMeta, 'src_quote'>): string {
  return typeof meta.src_quote === 'string' && meta.src_quote !== '' ? `${text}\n（原话：「${meta.src_quote}」）` : text
}

/**
 * Turns caller input into the comment's fields (without id/at/gate/by/vol,
 * which the store adds). Pure; throws RefusedError with an actionable message.
 */
export function buildMeta(input: NewEntry, by: Writer, limits: Limits): { text: string; meta: Omit<EntryMeta, 'id'>; notes: string[] } {
  if (input === null || typeof input !== 'object') throw new RefusedError('bad-input', 'an entry must be an object with at least "text"')
  if (by !== 'person' && by !== 'model') throw new RefusedError('bad-input', 'say who is writing: by "person" or "model"')
  const { text, notes } = checkText(input.text, limits)
  if (input.base === true && by !== 'person') {
    throw new RefusedError('person-only', 'base: true entries can only be written by the person (cyrene memory write --base); the model may propose it in words instead')
  }
  const meta: Omit<EntryMeta, 'id'> = {}
  if (input.kind !== undefined) {
    if (typeof input.kind !== 'string' || !KIND_RE.test(input.kind)) throw new RefusedError('bad-kind', `kind must be a short lowercase word like ${KNOWN_KINDS.slice(0, 6).join(', ')}`)
    if (!(KNOWN_KINDS as readonly string[]).includes(input.kind)) notes.push(`kind "${input.kind}" is not one of the known kinds (${KNOWN_KINDS.join(', ')}); kept`)
    meta.kind = input.kind
  }
  const axis = oneLineString(input.axis, 'axis', 1)
  if (axis !== undefined) meta.axis = axis
  const reason = oneLineString(input.reason, 'reason', 200)
  if (reason !== undefined) meta.reason = reason
  if (input.at !== undefined) {
    const t = typeof input.at === 'string' ? parseWhen(input.at).getTime() : Number.NaN
    if (Number.isNaN(t)) throw new RefusedError('bad-time', `at must be an ISO date-time, got ${JSON.stringify(input.at)}`)
    const y = new Date(t).getFullYear()
    if (y < 1000 || y > 9999) throw new RefusedError('bad-time', `at must fall in the years 1000–9999, got ${JSON.stringify(input.at)}`)
  }
  if (input.links !== undefined) {
    if (!Array.isArray(input.links)) throw new RefusedError('bad-link', 'links must be a list of "<id>|<type>"')
    if (input.links.length > 0) meta.links = input.links.map(checkLink)
  }
  const quote = oneLineString(input.src_quote, 'src_quote', limits.injectChars)
  if (quote !== undefined) meta.src_quote = quote
  if (input.src_ids !== undefined) {
    if (!Array.isArray(input.src_ids) || !input.src_ids.every(isUsableId)) throw new RefusedError('bad-input', 'src_ids must be a list of entry ids')
    if (input.src_ids.length > 0) meta.src_ids = [...input.src_ids]
  }
  if (input.consequence !== undefined) {
    if (input.consequence === null || typeof input.consequence !== 'object') throw new RefusedError('bad-input', 'consequence must be an object {self, other, relation, world, future}')
    const c: Consequence = {}
    for (const k of ['self', 'other', 'relation', 'world', 'future'] as const) {
      const v = oneLineString(input.consequence[k], `consequence.${k}`)
      if (v !== undefined) c[k] = v
    }
    if (Object.keys(c).length > 0) meta.consequence = c
  }
  for (const k of ['entropy', 'nature'] as const) if (input[k] !== undefined) meta[k] = input[k] as never
  for (const k of ['legacy', 'aim'] as const) {
    const v = oneLineString(input[k], k)
    if (v !== undefined) meta[k] = v
  }
  if (input.base === true) meta.base = true
  if (input.extra !== undefined) {
    if (input.extra === null || typeof input.extra !== 'object' || Array.isArray(input.extra)) throw new RefusedError('bad-input', 'extra must be an object of further keys')
    for (const [k, v] of Object.entries(input.extra)) {
      if (RESERVED_KEYS.has(k)) throw new RefusedError('bad-input', `extra may not set "${k}": it is a field of the format; pass it as its own field`)
      meta[k] = v
    }
  }
  // The comment is one line a person may read in an editor; a huge one is a paste gone wrong.
  const metaChars = JSON.stringify(meta).length
  if (metaChars > MAX_META_CHARS) throw new RefusedError('too-long', `the metadata of this entry is ${metaChars} characters; the limit is ${MAX_META_CHARS}. Keep long material in the text of separate entries or in 余页/.`)
  const injected = charCount(injectionText(text, meta))
  if (injected > limits.injectChars) {
    throw new RefusedError('too-long', `this entry would inject ${injected} characters; the limit per injected entry is ${limits.injectChars}. Shorten src_quote or the text.`)
  }
  return { text, meta, notes }
}
