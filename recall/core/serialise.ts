// The JSON form of an index: what the store caches in a file and loads back
// instead of re-tokenizing every memory. Canonical: the same documents give the
// same JSON, whatever order they were added in.

import { RECALL_SOURCES, type RecallSource } from './options.ts'

export const RECALL_INDEX_FORMAT = 'cyrene-recall-index'
export const RECALL_INDEX_VERSION = 1

/** What the index stores about a document besides its terms (no text). */
export interface IndexedDocMeta {
  id: string
  at: string
  source: RecallSource
  kind?: string
  links: readonly string[]
  fingerprint: string
  /** Term count, repeats included (BM25 document length). */
  length: number
}

/** A document as handed to serializeIndex: [termId, tf, termId, tf, …] in order of first appearance. */
export interface DocToSave extends IndexedDocMeta {
  pairs: ArrayLike<number>
}

/** A document as read back: [vocabulary index, tf, …], validated. */
interface LoadedDoc extends IndexedDocMeta {
  terms: readonly number[]
}

export interface LoadedIndex {
  vocabulary: readonly string[]
  docs: LoadedDoc[]
}

export interface SerializedDoc {
  id: string
  at: string
  source: RecallSource
  kind?: string
  links?: string[]
  fingerprint: string
  length: number
  /** [vocabulary index, tf, vocabulary index, tf, …] */
  terms: number[]
}

export interface SerializedRecallIndex {
  format: typeof RECALL_INDEX_FORMAT
  version: typeof RECALL_INDEX_VERSION
  /** tokenizerSignature() at build time; a different tokenizer or ICU makes the cache stale. */
  tokenizer: string
  /** fingerprintSet() of the documents: compare with fingerprintDocs(files) to validate a cache. */
  fingerprint: string
  vocabulary: string[]
  /** Sorted by id. */
  docs: SerializedDoc[]
}

/** Thrown by load when the data is not a usable index; the caller should rebuild from the files. */
export class RecallFormatError extends Error {
  override readonly name = 'RecallFormatError'
}

export function serializeIndex(docs: Iterable<DocToSave>, termText: (termId: number) => string, tokenizer: string, fingerprint: string): SerializedRecallIndex {
  const sorted = [...docs].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const vocabulary: string[] = []
  const vocabularyIndex = new Map<number, number>()
  const out: SerializedDoc[] = sorted.map((doc) => {
    const terms: number[] = []
    for (let i = 0; i < doc.pairs.length; i += 2) {
      const termId = doc.pairs[i]!
      let index = vocabularyIndex.get(termId)
      if (index === undefined) {
        index = vocabulary.length
        vocabulary.push(termText(termId))
        vocabularyIndex.set(termId, index)
      }
      terms.push(index, doc.pairs[i + 1]!)
    }
    const serialized: SerializedDoc = { id: doc.id, at: doc.at, source: doc.source, fingerprint: doc.fingerprint, length: doc.length, terms }
    if (doc.kind !== undefined) serialized.kind = doc.kind
    if (doc.links.length > 0) serialized.links = [...doc.links]
    return serialized
  })
  return { format: RECALL_INDEX_FORMAT, version: RECALL_INDEX_VERSION, tokenizer, fingerprint, vocabulary, docs: out }
}

/** Validate `data` and unpack it; throws RecallFormatError with the first problem found. */
export function parseSerializedIndex(data: unknown, expectedTokenizer: string): LoadedIndex {
  if (data === null || typeof data !== 'object') throw new RecallFormatError('not an object')
  const d = data as Record<string, unknown>
  if (d.format !== RECALL_INDEX_FORMAT) throw new RecallFormatError(`format is not ${RECALL_INDEX_FORMAT}`)
  if (d.version !== RECALL_INDEX_VERSION) throw new RecallFormatError(`version ${String(d.version)} is not ${RECALL_INDEX_VERSION}`)
  if (d.tokenizer !== expectedTokenizer) {
    throw new RecallFormatError(`built by tokenizer ${String(d.tokenizer)}, this one is ${expectedTokenizer}`)
  }
  const vocabulary = d.vocabulary
  if (!Array.isArray(vocabulary) || !vocabulary.every((t) => typeof t === 'string')) {
    throw new RecallFormatError('vocabulary must be an array of strings')
  }
  if (!Array.isArray(d.docs)) throw new RecallFormatError('docs must be an array')
  const seen = new Set<string>()
  // One mark per vocabulary entry, reused by every document (a Set per document made loading a large cache mostly garbage collection).
  const marks = new Int32Array(vocabulary.length)
  const docs = d.docs.map((raw, position) => {
    const doc = parseDoc(raw, vocabulary.length, position, marks)
    if (seen.has(doc.id)) throw new RecallFormatError(`duplicate id ${doc.id}`)
    seen.add(doc.id)
    return doc
  })
  return { vocabulary: vocabulary as string[], docs }
}

const NO_LINKS: readonly string[] = Object.freeze([])

/** `marks[term] === position + 1` means the term was already seen in this document. */
function parseDoc(raw: unknown, vocabularySize: number, position: number, marks: Int32Array): LoadedDoc {
  const fail = (why: string): never => {
    throw new RecallFormatError(`docs[${position}]: ${why}`)
  }
  if (raw === null || typeof raw !== 'object') fail('not an object')
  const r = raw as Record<string, unknown>
  if (typeof r.id !== 'string' || r.id.length === 0) fail('id')
  if (typeof r.at !== 'string') fail('at')
  if (!RECALL_SOURCES.includes(r.source as RecallSource)) fail('source')
  if (r.kind !== undefined && typeof r.kind !== 'string') fail('kind')
  if (r.links !== undefined && !(Array.isArray(r.links) && r.links.every((l) => typeof l === 'string'))) fail('links')
  if (typeof r.fingerprint !== 'string') fail('fingerprint')
  if (!Number.isSafeInteger(r.length) || (r.length as number) < 0) fail('length')
  const flat = r.terms
  if (!Array.isArray(flat) || flat.length % 2 !== 0) fail('terms')
  const terms = flat as unknown[]
  let total = 0
  for (let i = 0; i < terms.length; i += 2) {
    const index = terms[i]
    const tf = terms[i + 1]
    if (!Number.isSafeInteger(index) || (index as number) < 0 || (index as number) >= vocabularySize) fail('term index')
    if (!Number.isSafeInteger(tf) || (tf as number) < 1) fail('term frequency')
    if (marks[index as number] === position + 1) fail('repeated term')
    marks[index as number] = position + 1
    total += tf as number
  }
  if (total !== r.length) fail('length does not match the term frequencies')
  const doc: LoadedDoc = {
    id: r.id as string,
    at: r.at as string,
    source: r.source as RecallSource,
    links: (r.links as string[] | undefined) ?? NO_LINKS,
    fingerprint: r.fingerprint as string,
    length: r.length as number,
    terms: terms as number[],
  }
  if (r.kind !== undefined) doc.kind = r.kind as string
  return doc
}
