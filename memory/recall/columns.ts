// The binary form of an index, for a large cache: what JSON holds as one object per
// document with an array of numbers each is here a column per field, and every
// document's [term, tf, …] pairs are one Int32Array. Loading it allocates a few
// hundred thousand strings instead of millions of numbers and objects, and the
// pairs are used where they lie in the file's buffer (decision 031).
//
//   u32 MAGIC | u32 header bytes | header (JSON, UTF-8) | 0–3 bytes to a multiple of 4
//   | Int32 lengths[n] | Int32 offsets[n + 1] | Int32 pairs[offsets[n]]
//
// The header carries what the caller adds (`extra`) beside the index's own fields, so
// a cache is one file written at once. Everything read back is checked; a file that
// fails any check throws RecallFormatError and the caller rebuilds.

import { RECALL_SOURCES, type RecallSource } from './options.ts'
import { RecallFormatError, type DocToSave, type IndexedDocMeta } from './serialise.ts'

const MAGIC = 0x49525943 // 'CYRI' little-endian
export const RECALL_COLUMNS_VERSION = 1

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
}

interface Header {
  magic: 'cyrene-recall-columns'
  version: number
  tokenizer: string
  fingerprint: string
  vocabulary: string[]
  ids: string[]
  at: string[]
  sources: RecallSource[]
  kinds: (string | null)[]
  links: (readonly string[] | null)[]
  fingerprints: string[]
  extra: unknown
}

/** The columns of an index's documents (RecallIndex.toColumns). */
export function columnsOf(docsIn: Iterable<DocToSave>, termText: (termId: number) => string, tokenizer: string, fingerprint: string): IndexColumns {
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
  }
  const vocabularyIndex = new Map<number, number>()
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
        c.vocabulary.push(termText(termId))
        vocabularyIndex.set(termId, index)
      }
      c.pairs[at++] = index
      c.pairs[at++] = doc.pairs[k + 1]!
    }
    c.offsets[i + 1] = at
  }
  return c
}

/** One buffer holding the columns and `extra` (any JSON value). */
export function packColumns(c: IndexColumns, extra: unknown): Buffer {
  const header: Header = {
    magic: 'cyrene-recall-columns',
    version: RECALL_COLUMNS_VERSION,
    tokenizer: c.tokenizer,
    fingerprint: c.fingerprint,
    vocabulary: c.vocabulary,
    ids: c.ids,
    at: c.at,
    sources: c.sources,
    kinds: c.kinds,
    links: c.links,
    fingerprints: c.fingerprints,
    extra,
  }
  const json = Buffer.from(JSON.stringify(header), 'utf8')
  const start = align4(8 + json.length)
  const ints = c.lengths.length + c.offsets.length + c.pairs.length
  const out = Buffer.alloc(start + ints * 4)
  out.writeUInt32LE(MAGIC, 0)
  out.writeUInt32LE(json.length, 4)
  json.copy(out, 8)
  const view = new Int32Array(out.buffer, out.byteOffset + start, ints)
  view.set(c.lengths, 0)
  view.set(c.offsets, c.lengths.length)
  view.set(c.pairs, c.lengths.length + c.offsets.length)
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
  const strings = (v: unknown, name: string): string[] => (Array.isArray(v) && v.every((s) => typeof s === 'string') ? (v as string[]) : fail(name))
  const vocabulary = strings(header.vocabulary, 'vocabulary')
  const ids = strings(header.ids, 'ids')
  const n = ids.length
  const at = strings(header.at, 'at')
  const fingerprints = strings(header.fingerprints, 'fingerprints')
  const sources = header.sources
  const kinds = header.kinds
  const links = header.links
  if (at.length !== n || fingerprints.length !== n || !Array.isArray(sources) || sources.length !== n) fail('columns of different lengths')
  if (!Array.isArray(kinds) || kinds.length !== n || !Array.isArray(links) || links.length !== n) fail('columns of different lengths')
  for (let i = 0; i < n; i++) {
    if (ids[i]!.length === 0) fail(`ids[${i}]`)
    if (!RECALL_SOURCES.includes(sources[i]!)) fail(`sources[${i}]`)
    if (kinds[i] !== null && typeof kinds[i] !== 'string') fail(`kinds[${i}]`)
    const l = links[i]
    if (l !== null && !(Array.isArray(l) && l.every((x) => typeof x === 'string'))) fail(`links[${i}]`)
  }
  const start = align4(8 + headerBytes)
  const ints = (buffer.length - start) / 4
  if (!Number.isInteger(ints) || ints < 2 * n + 1) fail('the number columns are cut short')
  // A view where the buffer allows one (4-byte aligned), a copy where it does not.
  const aligned = (buffer.byteOffset + start) % 4 === 0
  const all = aligned
    ? new Int32Array(buffer.buffer, buffer.byteOffset + start, ints)
    : new Int32Array(buffer.buffer.slice(buffer.byteOffset + start, buffer.byteOffset + buffer.length))
  const lengths = all.subarray(0, n)
  const offsets = all.subarray(n, 2 * n + 1)
  const pairs = all.subarray(2 * n + 1)
  if (offsets[0] !== 0 || offsets[n] !== pairs.length) fail('offsets do not span the pairs')
  // One mark per vocabulary entry, reused by every document: a term twice in one document is a bad file.
  const marks = new Int32Array(vocabulary.length)
  for (let i = 0; i < n; i++) {
    const from = offsets[i]!
    const to = offsets[i + 1]!
    if (to < from || (to - from) % 2 !== 0) fail(`offsets[${i}]`)
    let total = 0
    for (let k = from; k < to; k += 2) {
      const term = pairs[k]!
      const tf = pairs[k + 1]!
      if (term < 0 || term >= vocabulary.length) fail(`docs[${i}]: term index`)
      if (tf < 1) fail(`docs[${i}]: term frequency`)
      if (marks[term] === i + 1) fail(`docs[${i}]: repeated term`)
      marks[term] = i + 1
      total += tf
    }
    if (total !== lengths[i]) fail(`docs[${i}]: length does not match the term frequencies`)
  }
  return {
    columns: {
      tokenizer: header.tokenizer,
      fingerprint: header.fingerprint,
      vocabulary,
      ids,
      at,
      sources,
      kinds,
      links,
      fingerprints,
      lengths,
      offsets,
      pairs,
    },
    extra: header.extra,
  }
}

const NO_LINKS: readonly string[] = Object.freeze([])

/** The documents of checked columns, their pairs in the index's term ids (`termIds[vocabulary index]`). */
export function* docsOfColumns(
  c: IndexColumns,
  termIds: readonly number[],
): Iterable<{ meta: Omit<IndexedDocMeta, 'length'>; pairs: Int32Array; length: number }> {
  // A fresh index numbers the vocabulary in order: then the pairs are used where they lie, uncopied.
  const identity = termIds.every((id, i) => id === i)
  const seen = new Set<string>()
  for (let i = 0; i < c.ids.length; i++) {
    const id = c.ids[i]!
    if (seen.has(id)) throw new RecallFormatError(`duplicate id ${id}`)
    seen.add(id)
    let pairs = c.pairs.subarray(c.offsets[i]!, c.offsets[i + 1]!)
    if (!identity) pairs = pairs.map((v, k) => (k % 2 === 0 ? termIds[v]! : v))
    const meta: Omit<IndexedDocMeta, 'length'> = { id, at: c.at[i]!, source: c.sources[i]!, links: c.links[i] ?? NO_LINKS, fingerprint: c.fingerprints[i]! }
    if (c.kinds[i] !== null) meta.kind = c.kinds[i]!
    yield { meta, pairs, length: c.lengths[i]! }
  }
}

function align4(n: number): number {
  return (n + 3) & ~3
}
