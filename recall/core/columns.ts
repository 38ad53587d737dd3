// The binary form of an index, for a large cache: what JSON holds as one object per
// document with an array of numbers each is here a column per field (decisions 031, 033).
// The write side is this file; columns-read.ts reads it back, only the parts a caller needs.
//
//   u32 MAGIC | u32 header bytes | u32 CRC-32 of everything up to the postings | header (JSON)
//   | ids, dates, fingerprints (UTF-8, each joined by NUL) | 0–7 bytes to a multiple of 8
//   | Float64 atMs[n] | Int32 lengths[n] | Int32 offsets[n + 1] | Int32 sources[n]
//   | Int32 kinds[n] | Int32 postingOffsets[terms + 1]                 ← the "small" part
//   | Int32 postings[P] | Int32 pairs[2P]                              ← read per term / per document
//
// The postings of term t are `document position * 256 + min(tf, 255)`, by position; the pairs of
// document i are its `[vocabulary index, tf, …]`. A search reads the small part (a few MB at
// 100,000 entries) and the lists of its own terms, never the whole file.

import { RECALL_SOURCES, type RecallSource } from './options.ts'
import { crc32 } from 'node:zlib'
import { parseTime } from './doc.ts'
import type { DocToSave } from './serialise.ts'

export const COLUMNS_MAGIC = 0x49525943 // 'CYRI' little-endian
export const RECALL_COLUMNS_VERSION = 3
export const COLUMNS_SEP = '\u0000'

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

export interface ColumnsHeader {
  magic: 'cyrene-recall-columns'
  version: number
  /** Documents, vocabulary terms, postings. */
  counts: [number, number, number]
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
  // A loop, not Math.max(...slots): spread arguments overflow the stack past ~125,000 documents.
  let highest = 0
  for (const slot of slots) if (slot > highest) highest = slot
  const position = new Int32Array(highest + 1).fill(-1)
  for (const [i, slot] of slots.entries()) position[slot] = i
  c.postingOffsets = new Int32Array(termIds.length + 1)
  let p = 0
  for (const [v, termId] of termIds.entries()) {
    const list = terms.postings(termId)
    const from = p
    for (let k = 0; k < list.length; k++) {
      const posting = list[k]!
      c.postings[p++] = position[posting >> 8]! * 256 + (posting & 255)
    }
    // By document position: the order a reader checks (no document twice in one list).
    c.postings.subarray(from, p).sort()
    c.postingOffsets[v + 1] = p
  }
  if (p !== c.postings.length) throw new Error('the postings do not match the documents')
  return c
}

/** One buffer holding the columns and `extra` (any JSON value); throws when a string of a block holds NUL. */
export function packColumns(c: IndexColumns, extra: unknown): Buffer {
  const n = c.ids.length
  const v = c.vocabulary.length
  const kindNames = [...new Set(c.kinds.filter((k): k is string => k !== null))]
  const kindIndex = new Map(kindNames.map((k, i) => [k, i]))
  const links: [number, readonly string[]][] = []
  for (let i = 0; i < n; i++) if (c.links[i] !== null && c.links[i]!.length > 0) links.push([i, c.links[i]!])
  const blocks = [c.ids, c.at, c.fingerprints].map((list) => {
    if (list.some((x) => x.includes(COLUMNS_SEP))) throw new Error('a recall cache string holds NUL; not cached')
    return Buffer.from(list.join(COLUMNS_SEP), 'utf8')
  })
  const header: ColumnsHeader = {
    magic: 'cyrene-recall-columns',
    version: RECALL_COLUMNS_VERSION,
    counts: [n, v, c.postings.length],
    tokenizer: c.tokenizer,
    fingerprint: c.fingerprint,
    vocabulary: c.vocabulary,
    kindNames,
    links,
    blocks: [blocks[0]!.length, blocks[1]!.length, blocks[2]!.length],
    extra,
  }
  // Padded with spaces (still JSON) so that what follows starts at a multiple of 8: the columns can then be views.
  const text = JSON.stringify(header)
  const json = Buffer.from(text.padEnd(text.length + align8(12 + Buffer.byteLength(text)) - 12 - Buffer.byteLength(text)), 'utf8')
  const start = align8(12 + json.length + blocks[0]!.length + blocks[1]!.length + blocks[2]!.length)
  const atMs = Float64Array.from(c.at, parseTime)
  const sources = Int32Array.from(c.sources, (source) => RECALL_SOURCES.indexOf(source))
  const kinds = Int32Array.from(c.kinds, (kind) => (kind === null ? -1 : kindIndex.get(kind)!))
  const ints = [c.lengths, c.offsets, sources, kinds, c.postingOffsets, c.postings, c.pairs]
  const smallEnd = start + atMs.byteLength + (n + n + 1 + n + n + v + 1) * 4
  const out = Buffer.alloc(start + atMs.byteLength + ints.reduce((sum, part) => sum + part.length, 0) * 4)
  out.writeUInt32LE(COLUMNS_MAGIC, 0)
  out.writeUInt32LE(json.length, 4)
  let at = 12
  for (const part of [json, ...blocks]) at += part.copy(out, at)
  Buffer.from(atMs.buffer, atMs.byteOffset, atMs.byteLength).copy(out, start)
  at = start + atMs.byteLength
  for (const part of ints) {
    Buffer.from(part.buffer, part.byteOffset, part.byteLength).copy(out, at)
    at += part.byteLength
  }
  out.writeUInt32LE(crc32(out.subarray(12, smallEnd)), 8)
  return out
}

export function align8(n: number): number {
  return (n + 7) & ~7
}
