// The inverted index: term dictionary, postings and document lengths, kept
// current one document at a time. Documents are addressed by a small integer
// slot chosen by the caller; ids, dates and sources live one level up.
//
// Postings are plain arrays of small integers (slot * 256 + term frequency) —
// one machine word per posting, no object per posting, so 100,000 memories stay
// within tens of megabytes.

const TF_BITS = 256
export const MAX_TERM_FREQUENCY = TF_BITS - 1
/** Slots must keep `slot * 256 + tf` a small integer (< 2^31). */
export const MAX_SLOTS = 2 ** 23

export interface DocTerms {
  /** Distinct term ids, each followed by its frequency in the document: [id, tf, id, tf, …]. */
  readonly pairs: Int32Array
  /** Number of terms in the document, repeats counted (the BM25 length). */
  readonly length: number
}

export class TermIndex {
  private readonly idsByTerm = new Map<string, number>()
  private readonly terms: string[] = []
  /** Per term; a list loaded from a cache is a view on its buffer until the first change (`writable`). */
  private readonly postings: (number[] | Int32Array)[] = []
  private readonly docs: (DocTerms | undefined)[] = []
  /** Document length by slot, kept apart from `docs` for the scoring loop. */
  private readonly lengths: number[] = []
  private liveDocs = 0
  private totalLength = 0

  get docCount(): number {
    return this.liveDocs
  }

  get averageLength(): number {
    return this.liveDocs === 0 ? 0 : this.totalLength / this.liveDocs
  }

  termId(term: string): number | undefined {
    return this.idsByTerm.get(term)
  }

  term(id: number): string {
    return this.terms[id]!
  }

  documentFrequency(termId: number): number {
    return this.postings[termId]?.length ?? 0
  }

  /** Packed postings of one term; read with `postingSlot` / `postingFrequency`. Do not mutate. */
  postingsOf(termId: number): ArrayLike<number> & Iterable<number> {
    return this.postings[termId] ?? []
  }

  /**
   * Fill an empty index at once from a cache (memory/recall/columns.ts): terms in id
   * order, each term's packed postings `postings[postingOffsets[t] .. postingOffsets[t + 1])`,
   * and per slot 0…n−1 its pairs and length. The lists are used where they lie.
   */
  load(terms: readonly string[], postings: Int32Array, postingOffsets: Int32Array, docs: readonly DocTerms[]): void {
    if (this.terms.length > 0 || this.docs.length > 0) throw new Error('load needs an empty index')
    for (const [id, term] of terms.entries()) {
      this.idsByTerm.set(term, id)
      this.terms.push(term)
      this.postings.push(postings.subarray(postingOffsets[id]!, postingOffsets[id + 1]!))
    }
    for (const doc of docs) {
      this.docs.push(doc)
      this.lengths.push(doc.length)
      this.totalLength += doc.length
    }
    this.liveDocs = docs.length
  }

  private writable(termId: number): number[] {
    let list = this.postings[termId]!
    if (!Array.isArray(list)) this.postings[termId] = list = Array.from(list)
    return list
  }

  docTerms(slot: number): DocTerms | undefined {
    return this.docs[slot]
  }

  /** BM25 length of the document in `slot` (0 for a free slot). */
  docLength(slot: number): number {
    return this.lengths[slot] ?? 0
  }

  /** The id of `term`, creating it if new. */
  intern(term: string): number {
    let id = this.idsByTerm.get(term)
    if (id === undefined) {
      id = this.terms.length
      this.idsByTerm.set(term, id)
      this.terms.push(term)
      this.postings.push([])
    }
    return id
  }

  /**
   * Index a document under a free `slot`: its distinct terms with their frequencies,
   * and its length (all terms, repeats counted).
   */
  add(slot: number, counts: ReadonlyMap<string, number>, length: number): void {
    if (!Number.isInteger(slot) || slot < 0 || slot >= MAX_SLOTS) throw new RangeError(`slot out of range: ${slot}`)
    if (this.docs[slot] !== undefined) throw new Error(`slot ${slot} is already in use`)
    const pairs = new Int32Array(counts.size * 2)
    let i = 0
    for (const [term, tf] of counts) {
      pairs[i++] = this.intern(term)
      pairs[i++] = tf
    }
    this.addPairs(slot, pairs, length)
  }

  /**
   * Same as add, from interned term ids: `pairs` is [termId, tf, termId, tf, …] with
   * distinct ids (the loader uses this to skip string lookups). The index keeps `pairs`.
   */
  addPairs(slot: number, pairs: Int32Array, length: number): void {
    if (!Number.isInteger(slot) || slot < 0 || slot >= MAX_SLOTS) throw new RangeError(`slot out of range: ${slot}`)
    if (this.docs[slot] !== undefined) throw new Error(`slot ${slot} is already in use`)
    for (let i = 0; i < pairs.length; i += 2) {
      if (this.postings[pairs[i]!] === undefined) throw new RangeError(`unknown term id ${pairs[i]}`)
    }
    for (let i = 0; i < pairs.length; i += 2) {
      this.writable(pairs[i]!).push(slot * TF_BITS + Math.min(pairs[i + 1]!, MAX_TERM_FREQUENCY))
    }
    this.docs[slot] = { pairs, length }
    while (this.lengths.length <= slot) this.lengths.push(0)
    this.lengths[slot] = length
    this.liveDocs++
    this.totalLength += length
  }

  /** Drop the document in `slot`; unknown slots are ignored. */
  remove(slot: number): void {
    const doc = this.docs[slot]
    if (doc === undefined) return
    for (let i = 0; i < doc.pairs.length; i += 2) removePosting(this.writable(doc.pairs[i]!), slot)
    this.docs[slot] = undefined
    this.lengths[slot] = 0
    this.liveDocs--
    this.totalLength -= doc.length
  }
}

export function postingSlot(posting: number): number {
  return posting >> 8
}

export function postingFrequency(posting: number): number {
  return posting & MAX_TERM_FREQUENCY
}

// Order inside a posting list carries no meaning (scores are summed per document),
// so the last posting can fill the hole.
function removePosting(list: number[], slot: number): void {
  for (let i = 0; i < list.length; i++) {
    if (postingSlot(list[i]!) !== slot) continue
    list[i] = list[list.length - 1]!
    list.pop()
    return
  }
}
