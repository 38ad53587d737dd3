// The binary form of an index, for a large cache: what JSON holds as one object per
// document with an array of numbers each is here a column per field, and every
// document's [term, tf, …] pairs are one Int32Array. Loading it allocates a few
// hundred thousand strings instead of millions of numbers and objects, and the
// pairs are used where they lie in the file's buffer (decision 031).
//
//   u32 MAGIC | u32 header bytes | header (JSON, UTF-8) | ids, dates, fingerprints
//   (UTF-8, each joined by NUL) | 0–3 bytes to a multiple of 4 | Int32 lengths[n]
//   | Int32 offsets[n + 1] | Int32 sources[n] | Int32 kinds[n] | Int32 pairs[offsets[n]]
//
// The postings (per term, `document position * 256 + tf`) are the pairs turned over,
// built on load in two passes over typed arrays, so that no posting is added one by one.
//
// The header carries what the caller adds (`extra`) beside the index's own fields, so
// a cache is one file written at once. Everything read back is checked; a file that
// fails any check throws RecallFormatError and the caller rebuilds.

import { RECALL_SOURCES, type RecallSource } from './options.ts'
import { RecallFormatError, type DocToSave } from './serialise.ts'

const MAGIC = 0x49525943 // 'CYRI' little-endian
export const RECALL_COLUMNS_VERSION = 2
const SEP = '\u0000'

export interface IndexColumns {
  tokenizer: string
  fingerprint: string
  vocabulary: string[]
  ids: string[]
  at: string[]
  sources: RecallSource[]
  kinds: (string | null)[]
  links: (readonly string[] | null)[]
  fingerprints: string[]
  lengths: Int32Array
  /** Document i's pairs are pairs[offsets[i] .. offsets[i + 1]). */
  offsets: Int32Array
  /** [vocabulary index, tf, …] of every document, one after another. */
  pairs: Int32Array
  /** Term t's postings are postings[postingOffsets[t] .. postingOffsets[t + 1]). */
  postingOffsets: Int32Array
  /** Per term, `document position * 256 + min(tf, 255)` (bm25/index.ts's packing). */
  postings: Int32Array
}

interface Header {
  magic: 'cyrene-recall-columns'
  version: number
  tokenizer: string
  fingerprint: string
  vocabulary: string[]
  /** The kinds named by the `kinds` column (−1: none). */
  kindNames: string[]
  /** Only the documents with links: [position, links]. */
  links: [number, readonly string[]][]
  /** Bytes of the three string blocks that follow the header: ids, at, fingerprints, each joined by NUL. */
  blocks: [number, number, number]
  extra: unknown
}

/** The columns of an index's documents (RecallIndex.toColumns); `slots[i]` is the slot of the i-th document. */
export function columnsOf(
  docsIn: Iterable<DocToSave>,
  slots: readonly number[],
  terms: { text: (termId: number) => string; postings: (termId: number) => ArrayLike<number> },
  tokenizer: string,
  fingerprint: string,
): IndexColumns {
  const docs = [...docsIn]
  let total = 0
  for (const doc of docs) total += doc.pairs.length
  const c: IndexColumns = {
    tokenizer,
    fingerprint,
    vocabulary: [],
    ids: [],
    at: [],
    sources: [],
    kinds: [],
    links: [],
    fingerprints: [],
    lengths: new Int32Array(docs.length),
    offsets: new Int32Array(docs.length + 1),
    pairs: new Int32Array(total),
    postingOffsets: new Int32Array(0),
    postings: new Int32Array(total / 2),
  }
  const vocabularyIndex = new Map<number, number>()
  const termIds: number[] = []
  let at = 0
  for (const [i, doc] of docs.entries()) {
    c.ids.push(doc.id)
    c.at.push(doc.at)
    c.sources.push(doc.source)
    c.kinds.push(doc.kind ?? null)
    c.links.push(doc.links.length > 0 ? [...doc.links] : null)
    c.fingerprints.push(doc.fingerprint)
    c.lengths[i] = doc.length
    for (let k = 0; k < doc.pairs.length; k += 2) {
      const termId = doc.pairs[k]!
      let index = vocabularyIndex.get(termId)
      if (index === undefined) {
        index = c.vocabulary.length
        c.vocabulary.push(terms.text(termId))
        termIds.push(termId)
        vocabularyIndex.set(termId, index)
      }
      c.pairs[at++] = index
      c.pairs[at++] = doc.pairs[k + 1]!
    }
    c.offsets[i + 1] = at
  }
  // The postings, from slots to document positions.
  const position = new Int32Array(Math.max(0, ...slots) + 1).fill(-1)
  for (const [i, slot] of slots.entries()) position[slot] = i
  c.postingOffsets = new Int32Array(termIds.length + 1)
  let p = 0
  for (const [v, termId] of termIds.entries()) {
    const list = terms.postings(termId)
    for (let k = 0; k < list.length; k++) {
      const posting = list[k]!
      c.postings[p++] = position[posting >> 8]! * 256 + (posting & 255)
    }
    c.postingOffsets[v + 1] = p
  }
  if (p !== c.postings.length) throw new Error('the postings do not match the documents')
  return c
}

/** One buffer holding the columns and `extra` (any JSON value); throws when a string of a block holds NUL. */
export function packColumns(c: IndexColumns, extra: unknown): Buffer {
  const n = c.ids.length
  const kindNames = [...new Set(c.kinds.filter((k): k is string => k !== null))]
  const kindIndex = new Map(kindNames.map((k, i) => [k, i]))
  const links: [number, readonly string[]][] = []
  for (let i = 0; i < n; i++) if (c.links[i] !== null && c.links[i]!.length > 0) links.push([i, c.links[i]!])
  const blocks = [c.ids, c.at, c.fingerprints].map((list) => {
    if (list.some((x) => x.includes(SEP))) throw new Error('a recall cache string holds NUL; not cached')
    return Buffer.from(list.join(SEP), 'utf8')
  })
  const header: Header = {
    magic: 'cyrene-recall-columns',
    version: RECALL_COLUMNS_VERSION,
    tokenizer: c.tokenizer,
    fingerprint: c.fingerprint,
    vocabulary: c.vocabulary,
    kindNames,
    links,
    blocks: [blocks[0]!.length, blocks[1]!.length, blocks[2]!.length],
    extra,
  }
  const json = Buffer.from(JSON.stringify(header), 'utf8')
  const textBytes = json.length + blocks[0]!.length + blocks[1]!.length + blocks[2]!.length
  const start = align4(8 + textBytes)
  const sources = Int32Array.from(c.sources, (source) => RECALL_SOURCES.indexOf(source))
  const kinds = Int32Array.from(c.kinds, (kind) => (kind === null ? -1 : kindIndex.get(kind)!))
  const parts = [c.lengths, c.offsets, sources, kinds, c.pairs]
  const out = Buffer.alloc(start + parts.reduce((sum, part) => sum + part.length, 0) * 4)
  out.writeUInt32LE(MAGIC, 0)
  out.writeUInt32LE(json.length, 4)
  let at = 8
  for (const part of [json, ...blocks]) at += part.copy(out, at)
  const view = new Int32Array(out.buffer, out.byteOffset + start, (out.length - start) / 4)
  at = 0
  for (const part of parts) {
    view.set(part, at)
    at += part.length
  }
  return out
}

/** The columns and `extra` of a buffer packColumns wrote; throws RecallFormatError on anything else. */
export function unpackColumns(buffer: Buffer, expectedTokenizer: string): { columns: IndexColumns; extra: unknown } {
  const fail = (why: string): never => {
    throw new RecallFormatError(`recall cache: ${why}`)
  }
  if (buffer.length < 8 || buffer.readUInt32LE(0) !== MAGIC) fail('not a columns file')
  const headerBytes = buffer.readUInt32LE(4)
  if (8 + headerBytes > buffer.length) fail('header runs past the end')
  let header: Header
  try {
    header = JSON.parse(buffer.toString('utf8', 8, 8 + headerBytes)) as Header
  } catch {
    return fail('header is not JSON')
  }
  if (header === null || typeof header !== 'object' || header.magic !== 'cyrene-recall-columns') fail('not a columns header')
  if (header.version !== RECALL_COLUMNS_VERSION) fail(`version ${String(header.version)} is not ${RECALL_COLUMNS_VERSION}`)
  if (header.tokenizer !== expectedTokenizer) fail(`built by tokenizer ${String(header.tokenizer)}, this one is ${expectedTokenizer}`)
  if (typeof header.fingerprint !== 'string') fail('fingerprint')
  const strings = (v: unknown, name: string): string[] => (Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : fail(name))
  const vocabulary = strings(header.vocabulary, 'vocabulary')
  const kindNames = strings(header.kindNames, 'kindNames')
  const sizes = header.blocks
  if (!Array.isArray(sizes) || sizes.length !== 3 || !sizes.every((x) => Number.isSafeInteger(x) && x >= 0)) fail('blocks')
  let at = 8 + headerBytes
  const [ids, dates, fingerprints] = sizes.map((size) => {
    if (at + size > buffer.length) fail('a string block runs past the end')
    const list = size === 0 ? [] : buffer.toString('utf8', at, at + size).split(SEP)
    at += size
    return list
  }) as [string[], string[], string[]]
  // An empty block is one empty string when there is one document: join() cannot tell them apart, the count can.
  const n = ids.length
  if (dates.length !== n && !(n === 1 && dates.length === 0)) fail('columns of different lengths')
  if (fingerprints.length !== n) fail('columns of different lengths')
  if (n === 1 && dates.length === 0) dates.push('')
  const start = align4(at)
  const ints = (buffer.length - start) / 4
  if (!Number.isInteger(ints) || ints < 4 * n + 1) fail('the number columns are cut short')
  // A view where the buffer allows one (4-byte aligned), a copy where it does not.
  const aligned = (buffer.byteOffset + start) % 4 === 0
  const all = aligned
    ? new Int32Array(buffer.buffer, buffer.byteOffset + start, ints)
    : new Int32Array(buffer.buffer.slice(buffer.byteOffset + start, buffer.byteOffset + buffer.length))
  const lengths = all.subarray(0, n)
  const offsets = all.subarray(n, 2 * n + 1)
  const sourceColumn = all.subarray(2 * n + 1, 3 * n + 1)
  const kindColumn = all.subarray(3 * n + 1, 4 * n + 1)
  const pairs = all.subarray(4 * n + 1)
  if (offsets[0] !== 0 || offsets[n] !== pairs.length || pairs.length % 2 !== 0) fail('offsets do not span the pairs')
  const sources: RecallSource[] = []
  const kinds: (string | null)[] = []
  for (let i = 0; i < n; i++) {
    if (ids[i]!.length === 0) fail(`ids[${i}]`)
    sources.push(RECALL_SOURCES[sourceColumn[i]!] ?? fail(`sources[${i}]`))
    const kind = kindColumn[i]!
    kinds.push(kind === -1 ? null : (kindNames[kind] ?? fail(`kinds[${i}]`)))
  }
  const links: (readonly string[] | null)[] = Array.from({ length: n }, () => null)
  if (!Array.isArray(header.links)) fail('links')
  for (const row of header.links) {
    if (!Array.isArray(row) || !Number.isInteger(row[0]) || row[0] < 0 || row[0] >= n || links[row[0]] !== null) fail('links')
    links[row[0]] = strings(row[1], 'links')
  }
  const v = vocabulary.length
  if (new Set(vocabulary).size !== v) fail('vocabulary repeats a term')
  // One mark per vocabulary entry, reused by every document: a term twice in one document is a bad file.
  const marks = new Int32Array(v)
  const df = new Int32Array(v)
  for (let i = 0; i < n; i++) {
    const from = offsets[i]!
    const to = offsets[i + 1]!
    if (to < from || (to - from) % 2 !== 0 || to > pairs.length) fail(`offsets[${i}]`)
    let total = 0
    for (let k = from; k < to; k += 2) {
      const term = pairs[k]!
      const tf = pairs[k + 1]!
      if (term < 0 || term >= v) fail(`docs[${i}]: term index`)
      if (tf < 1) fail(`docs[${i}]: term frequency`)
      if (marks[term] === i + 1) fail(`docs[${i}]: repeated term`)
      marks[term] = i + 1
      df[term]!++
      total += tf
    }
    if (total !== lengths[i]) fail(`docs[${i}]: length does not match the term frequencies`)
  }
  // The postings are the pairs turned over (per term, by document position), built here rather than read.
  const postingOffsets = new Int32Array(v + 1)
  for (let t = 0; t < v; t++) postingOffsets[t + 1] = postingOffsets[t]! + df[t]!
  const postings = new Int32Array(pairs.length / 2)
  const fill = postingOffsets.slice(0, v)
  for (let i = 0; i < n; i++) for (let k = offsets[i]!; k < offsets[i + 1]!; k += 2) postings[fill[pairs[k]!]!++] = i * 256 + Math.min(pairs[k + 1]!, 255)
  return {
    columns: {
      tokenizer: header.tokenizer,
      fingerprint: header.fingerprint,
      vocabulary,
      ids,
      at: dates,
      sources,
      kinds,
      links,
      fingerprints,
      lengths,
      offsets,
      pairs,
      postingOffsets,
      postings,
    },
    extra: header.extra,
  }
}

/** Per document position, its pairs (a view on the columns) and length, as bm25/index.ts keeps them. */
export function docTermsOfColumns(c: IndexColumns): { pairs: Int32Array; length: number }[] {
  const out: { pairs: Int32Array; length: number }[] = []
  for (let i = 0; i < c.ids.length; i++) out.push({ pairs: c.pairs.subarray(c.offsets[i]!, c.offsets[i + 1]!), length: c.lengths[i]! })
  return out
}

function align4(n: number): number {
  return (n + 3) & ~3
}
