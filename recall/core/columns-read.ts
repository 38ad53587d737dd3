// Reading a columns file (columns.ts) back, only as much of it as the caller needs: the
// small part at once (header, ids, dates, lengths, offsets, the place of every term's
// list — checked against its CRC-32 and for consistency), a term's postings or a
// document's pairs only when first asked for (each list checked as it is read), and the
// rest in two reads when the whole index is wanted (a save, the host's worker). A search
// of a 100,000-entry store so reads a few MB instead of 50 (decision 033).
//
// Anything that does not check out throws RecallFormatError, then or later (a list read
// lazily): the caller rebuilds from the files. A lazily read list is checked for its own
// shape (documents and terms in range, frequencies, lengths); the file is not hashed as a
// whole, which cost more than the search.

import { closeSync, fstatSync, readSync } from 'node:fs'
import { openRegularSync } from '../../durable/read-regular.ts'
import { crc32 } from 'node:zlib'
import { align8, COLUMNS_MAGIC, COLUMNS_SEP, RECALL_COLUMNS_VERSION, type ColumnsHeader } from './columns.ts'
import { RECALL_SOURCES, type RecallSource } from './options.ts'
import { RecallFormatError } from './serialise.ts'

/** Where the bytes come from: a buffer in memory, or a file read at offsets. */
export interface ByteSource {
  readonly size: number
  /** Exactly `length` bytes at `offset` (throws when the source is shorter). */
  read(offset: number, length: number): Buffer
  /** Nothing more will be read (a file is closed). */
  release(): void
}

/** A loaded index's columns: the small part in memory, the lists behind `postingsOf` / `pairsOf`. */
export interface LoadedColumns {
  tokenizer: string
  fingerprint: string
  vocabulary: string[]
  ids: string[]
  /** Document i's date as saved (decoded, with every other date, when first asked for: only a save needs them). */
  atOf(doc: number): string
  atMs: Float64Array
  sources: RecallSource[]
  kinds: (string | null)[]
  links: (readonly string[] | null)[]
  /** Document i's fingerprint (decoded like the dates, when first asked for). */
  fingerprintOf(doc: number): string
  lengths: Int32Array
  offsets: Int32Array
  postingOffsets: Int32Array
  /** Term t's postings (`document position * 256 + min(tf, 255)`, by position), checked. */
  postingsOf(termId: number): Int32Array
  /** Document i's `[term, tf, …]`, checked. */
  pairsOf(doc: number): Int32Array
  /** Read every list now (two reads), so that no later call reads the source; then release it. */
  readAll(): void
  /** No list will be read any more (the file is closed). */
  release(): void
}

const fail = (why: string): never => {
  throw new RecallFormatError(`recall cache: ${why}`)
}

/** Bytes already in memory (the whole cache read at once). */
export function bufferSource(buffer: Buffer): ByteSource {
  return {
    size: buffer.length,
    read(offset, length) {
      if (offset < 0 || length < 0 || offset + length > buffer.length) fail('cut short')
      return buffer.subarray(offset, offset + length)
    },
    release() {},
  }
}

/**
 * A file held open and read at offsets; closed by `release`, or when nothing refers to it any more. The
 * cache lies outside the guarded store, so a tool call can put anything under its name: it is opened
 * without waiting and never through a link, and only a regular file is read (a FIFO would stop the
 * opening thread until someone wrote to it). Throws (ELOOP, EINVAL) otherwise.
 */
export function fileSource(path: string): ByteSource {
  return descriptorSource(openRegularSync(path))
}

/** An open file read at offsets; it is the source's from now on (closed by `release`, or when the source is collected). */
export function descriptorSource(fd: number): ByteSource {
  let open = true
  try {
    const size = fstatSync(fd).size
    const source: ByteSource = {
      size,
      read(offset, length) {
        if (!open) fail('read after release')
        if (offset < 0 || length < 0 || offset + length > size) fail('cut short')
        const out = Buffer.allocUnsafeSlow(length)
        let done = 0
        while (done < length) {
          const got = readSync(fd, out, done, length - done, offset + done)
          if (got === 0) fail('cut short')
          done += got
        }
        return out
      },
      release() {
        if (open) closeSync(fd)
        open = false
        closer.unregister(source)
      },
    }
    closer.register(source, fd, source)
    return source
  } catch (error) {
    closeSync(fd)
    throw error
  }
}

// A one-shot command's index lives until the process ends; a test's may not: its file is closed with it.
const closer = new FinalizationRegistry<number>((fd) => {
  try {
    closeSync(fd)
  } catch {
    // already closed
  }
})

/** The columns of a source packColumns wrote, and its `extra`; throws RecallFormatError on anything else. */
export function readColumns(source: ByteSource, expectedTokenizer: string): { columns: LoadedColumns; extra: unknown } {
  const top = source.read(0, 12)
  if (top.readUInt32LE(0) !== COLUMNS_MAGIC) fail('not a columns file')
  const headerBytes = top.readUInt32LE(4)
  const headerBuffer = source.read(12, headerBytes)
  let header: ColumnsHeader
  try {
    header = JSON.parse(headerBuffer.toString('utf8')) as ColumnsHeader
  } catch {
    return fail('header is not JSON')
  }
  if (header === null || typeof header !== 'object' || header.magic !== 'cyrene-recall-columns') fail('not a columns header')
  if (header.version !== RECALL_COLUMNS_VERSION) fail(`version ${String(header.version)} is not ${RECALL_COLUMNS_VERSION}`)
  if (header.tokenizer !== expectedTokenizer) fail(`built by tokenizer ${String(header.tokenizer)}, this one is ${expectedTokenizer}`)
  if (typeof header.fingerprint !== 'string') fail('fingerprint')
  const counts = header.counts
  if (!Array.isArray(counts) || counts.length !== 3 || !counts.every((x) => Number.isSafeInteger(x) && x >= 0)) fail('counts')
  const [n, v, p] = counts
  const sizes = header.blocks
  if (!Array.isArray(sizes) || sizes.length !== 3 || !sizes.every((x) => Number.isSafeInteger(x) && x >= 0)) fail('blocks')
  const textEnd = 12 + headerBytes + sizes[0] + sizes[1] + sizes[2]
  const start = align8(textEnd)
  const smallEnd = start + 8 * n + 4 * (4 * n + 1 + v + 1)
  const postingsAt = smallEnd
  const pairsAt = postingsAt + 4 * p
  if (source.size !== pairsAt + 8 * p) fail('the file is not as long as its header says')
  const small = source.read(12 + headerBytes, smallEnd - 12 - headerBytes)
  if (crc32(small, crc32(headerBuffer)) !== top.readUInt32LE(8)) fail('CRC-32 does not match')

  const strings = (x: unknown, name: string): string[] => (Array.isArray(x) && x.every((s) => typeof s === 'string') ? (x as string[]) : fail(name))
  const vocabulary = strings(header.vocabulary, 'vocabulary')
  const kindNames = strings(header.kindNames, 'kindNames')
  if (vocabulary.length !== v) fail('vocabulary')
  // The ids now; the dates and fingerprints (two thirds of the text) only when a save wants them.
  const block = (k: number): (() => string[]) => {
    const from = sizes.slice(0, k).reduce((a, b) => a + b, 0)
    let list: string[] | undefined
    return () => {
      if (list !== undefined) return list
      const decoded = sizes[k] === 0 ? [] : small.toString('utf8', from, from + sizes[k]!).split(COLUMNS_SEP)
      // An empty block is one empty string when there is one document: join() cannot tell them apart, the count can.
      if (n === 1 && decoded.length === 0) decoded.push('')
      if (decoded.length !== n) fail('columns of different lengths')
      return (list = decoded)
    }
  }
  const ids = block(0)()
  const dates = block(1)
  const fingerprints = block(2)
  if (ids.some((id) => id.length === 0)) fail('an empty id')
  const numbers = small.subarray(start - 12 - headerBytes)
  const atMs = float64s(numbers.subarray(0, 8 * n))
  const all = int32s(numbers.subarray(8 * n))
  const lengths = all.subarray(0, n)
  const offsets = all.subarray(n, 2 * n + 1)
  const sourceColumn = all.subarray(2 * n + 1, 3 * n + 1)
  const kindColumn = all.subarray(3 * n + 1, 4 * n + 1)
  const postingOffsets = all.subarray(4 * n + 1, 4 * n + 1 + v + 1)
  if (offsets[0] !== 0 || offsets[n] !== 2 * p || postingOffsets[0] !== 0 || postingOffsets[v] !== p) fail('offsets do not span the lists')
  const sources: RecallSource[] = []
  const kinds: (string | null)[] = []
  for (let i = 0; i < n; i++) {
    // Two terms at least per term pair, a length no shorter than its terms: what a list read later is held to.
    if (offsets[i + 1]! < offsets[i]! || (offsets[i + 1]! - offsets[i]!) % 2 !== 0 || lengths[i]! < (offsets[i + 1]! - offsets[i]!) / 2) fail(`offsets[${i}]`)
    sources.push(RECALL_SOURCES[sourceColumn[i]!] ?? fail(`sources[${i}]`))
    const kind = kindColumn[i]!
    kinds.push(kind === -1 ? null : (kindNames[kind] ?? fail(`kinds[${i}]`)))
  }
  for (let t = 0; t < v; t++) if (postingOffsets[t + 1]! < postingOffsets[t]! || postingOffsets[t + 1]! - postingOffsets[t]! > n) fail(`postingOffsets[${t}]`)
  const links: (readonly string[] | null)[] = Array.from({ length: n }, () => null)
  if (!Array.isArray(header.links)) fail('links')
  for (const row of header.links) {
    if (!Array.isArray(row) || !Number.isInteger(row[0]) || row[0] < 0 || row[0] >= n || links[row[0]] !== null) fail('links')
    links[row[0]] = strings(row[1], 'links')
  }
  if (new Set(vocabulary).size !== v) fail('vocabulary repeats a term')

  // The lists, read when first asked for: from the source, or from the two regions once read whole.
  let postingsRegion: Int32Array | undefined
  let pairsRegion: Int32Array | undefined
  const guarded = <T>(what: string, read: () => T): T => {
    try {
      return read()
    } catch (error) {
      if (error instanceof RecallFormatError) throw error
      return fail(`${what}: ${(error as Error).message}`)
    }
  }
  const postingsOf = (t: number): Int32Array =>
    guarded(`the postings of term ${t}`, () => {
      if (!(t >= 0 && t < v)) fail(`no term ${t}`)
      const from = postingOffsets[t]!
      const to = postingOffsets[t + 1]!
      const list = postingsRegion?.subarray(from, to) ?? int32s(source.read(postingsAt + 4 * from, 4 * (to - from)))
      let last = -1
      for (let k = 0; k < list.length; k++) {
        const doc = list[k]! >> 8
        if (doc <= last || doc >= n || (list[k]! & 255) === 0) fail(`the postings of term ${t}`)
        last = doc
      }
      return list
    })
  const marks = new Int32Array(v)
  let checks = 0
  const pairsOf = (doc: number): Int32Array =>
    guarded(`the terms of document ${doc}`, () => {
      if (!(doc >= 0 && doc < n)) fail(`no document ${doc}`)
      const from = offsets[doc]!
      const to = offsets[doc + 1]!
      const pairs = pairsRegion?.subarray(from, to) ?? int32s(source.read(pairsAt + 4 * from, 4 * (to - from)))
      // A stamp per check, not a Set per document: the same marks serve every document read.
      const stamp = ++checks
      let total = 0
      for (let k = 0; k < pairs.length; k += 2) {
        const term = pairs[k]!
        const tf = pairs[k + 1]!
        if (!(term >= 0 && term < v) || tf < 1 || marks[term] === stamp) fail(`the terms of document ${doc}`)
        marks[term] = stamp
        total += tf
      }
      if (total !== lengths[doc]) fail(`document ${doc}: length does not match its terms`)
      return pairs
    })
  const readAll = (): void => {
    if (postingsRegion !== undefined) return
    guarded('the lists', () => {
      postingsRegion = int32s(source.read(postingsAt, 4 * p))
      pairsRegion = int32s(source.read(pairsAt, 8 * p))
    })
    source.release()
  }
  return {
    columns: {
      tokenizer: header.tokenizer,
      fingerprint: header.fingerprint,
      vocabulary,
      ids,
      atOf: (i) => dates()[i]!,
      atMs,
      sources,
      kinds,
      links,
      fingerprintOf: (i) => fingerprints()[i]!,
      lengths,
      offsets,
      postingOffsets,
      postingsOf,
      pairsOf,
      readAll,
      release: () => source.release(),
    },
    extra: header.extra,
  }
}

/** The columns of a buffer packColumns wrote (every list read from it as asked for). */
export function unpackColumns(buffer: Buffer, expectedTokenizer: string): { columns: LoadedColumns; extra: unknown } {
  return readColumns(bufferSource(buffer), expectedTokenizer)
}

// Views where the bytes are aligned, copies where they are not.
function int32s(b: Buffer): Int32Array {
  if (b.length % 4 !== 0) fail('a number column is cut')
  return b.byteOffset % 4 === 0 ? new Int32Array(b.buffer, b.byteOffset, b.length / 4) : new Int32Array(Uint8Array.prototype.slice.call(b).buffer)
}

function float64s(b: Buffer): Float64Array {
  return b.byteOffset % 8 === 0 ? new Float64Array(b.buffer, b.byteOffset, b.length / 8) : new Float64Array(Uint8Array.prototype.slice.call(b).buffer)
}
