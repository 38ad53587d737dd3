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

/**
 * A loaded cache (recall/core/columns-read.ts): per term its packed postings, per slot
 * 0…n−1 its pairs, each read (and checked) when first asked for, so a load builds nothing
 * for the 100,000 documents and the terms a search never touches.
 */
export interface LoadedTerms {
  /** Term t holds `postingOffsets[t + 1] − postingOffsets[t]` documents. */
  postingOffsets: Int32Array
  lengths: Int32Array
  postingsOf(termId: number): Int32Array
  pairsOf(slot: number): Int32Array
  /** Read every list at once (before all of them are wanted). */
  readAll(): void
}

export class TermIndex {
  private readonly idsByTerm = new Map<string, number>()
  private readonly terms: string[] = []
  /** Ids of the terms `tracks` picks out, in id order (a handful: found without a walk over every term). */
  private readonly tracked: number[] = []

  private readonly tracks: (term: string) => boolean

  /** `tracks` picks the terms `trackedTerms` lists (the index's own marked terms). */
  constructor(tracks: (term: string) => boolean = () => false) {
    this.tracks = tracks
  }

  /** The terms `tracks` picked, whether or not a document still holds them. */
  trackedTerms(): readonly number[] {
    return this.tracked
  }
  /**
   * Per term; a list loaded from a cache is a view on its buffer until the first change (`writable`),
   * and `undefined` until first asked for (`loaded`).
   */
  private readonly postings: (number[] | Int32Array | undefined)[] = []
  /** Per slot; `undefined` for a free slot, and for a slot whose pairs still lie in `loaded` (`loadedLive`). */
  private readonly docs: (DocTerms | undefined)[] = []
  /** Document length by slot, kept apart from `docs` for the scoring loop. */
  private readonly lengths: number[] = []
  /**
   * Per term, bounds over the documents that hold or held it: the largest term frequency and the
   * shortest length (query-scorer.ts `boundAt`). Never lowered by a removal (still bounds then);
   * −1 for a term of a loaded cache until its list is first read.
   */
  private readonly maxTf: number[] = []
  private readonly minLength: number[] = []
  private liveDocs = 0
  private totalLength = 0
  private loaded: LoadedTerms | undefined
  /** Per slot of `loaded`: 1 while its document is the one loaded (not removed, not replaced). */
  private loadedLive = new Uint8Array(0)

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
    const list = this.postings[termId]
    if (list !== undefined) return list.length
    const o = this.loaded?.postingOffsets
    return o === undefined || termId < 0 || termId + 1 >= o.length ? 0 : o[termId + 1]! - o[termId]!
  }

  /** Packed postings of one term; read with `postingSlot` / `postingFrequency`. Do not mutate. */
  postingsOf(termId: number): ArrayLike<number> & Iterable<number> {
    return this.listOf(termId) ?? []
  }

  private listOf(termId: number): number[] | Int32Array | undefined {
    let list = this.postings[termId]
    if (list === undefined && this.loaded !== undefined && termId >= 0 && termId < this.terms.length) {
      this.postings[termId] = list = this.loaded.postingsOf(termId)
      this.noteBounds(termId, list)
    }
    return list
  }

  /** The largest (capped) frequency of `termId` in any document that holds it; 0 for a term no document holds. */
  maxTermFrequency(termId: number): number {
    if (this.maxTf[termId] === -1) this.listOf(termId)
    return Math.max(0, this.maxTf[termId] ?? 0)
  }

  /** The shortest length of a document that holds `termId` (Infinity if none). */
  minDocLength(termId: number): number {
    if (this.maxTf[termId] === -1) this.listOf(termId)
    return this.minLength[termId] ?? Infinity
  }

  private noteBounds(termId: number, list: ArrayLike<number>): void {
    let tf = 0
    let length = Infinity
    for (let k = 0; k < list.length; k++) {
      const posting = list[k]!
      tf = Math.max(tf, postingFrequency(posting))
      length = Math.min(length, this.lengths[postingSlot(posting)]!)
    }
    this.maxTf[termId] = tf
    this.minLength[termId] = length
  }

  /**
   * Fill an empty index at once from a cache (recall/core/columns-read.ts): terms in id
   * order, and per slot 0…n−1 its length; the lists are read as they are first wanted.
   */
  load(terms: readonly string[], loaded: LoadedTerms): void {
    if (this.terms.length > 0 || this.docs.length > 0) throw new Error('load needs an empty index')
    for (const [id, term] of terms.entries()) {
      this.idsByTerm.set(term, id)
      this.terms.push(term)
      if (this.tracks(term)) this.tracked.push(id)
    }
    this.postings.length = terms.length
    this.maxTf.length = terms.length
    this.maxTf.fill(-1)
    this.minLength.length = terms.length
    this.minLength.fill(Infinity)
    const n = loaded.lengths.length
    this.docs.length = n
    for (let slot = 0; slot < n; slot++) {
      const length = loaded.lengths[slot]!
      this.lengths.push(length)
      this.totalLength += length
    }
    this.loaded = loaded
    this.loadedLive = new Uint8Array(n).fill(1)
    this.liveDocs = n
  }

  private writable(termId: number): number[] {
    const list = this.listOf(termId)!
    if (Array.isArray(list)) return list
    // A plain loop: Array.from over a typed array of tens of thousands of postings costs many times more.
    const copy: number[] = []
    for (let i = 0; i < list.length; i++) copy.push(list[i]!)
    this.postings[termId] = copy
    return copy
  }

  docTerms(slot: number): DocTerms | undefined {
    const doc = this.docs[slot]
    if (doc !== undefined || this.loadedLive[slot] !== 1) return doc
    // Read once, then kept like any other document's pairs.
    return (this.docs[slot] = { pairs: this.loaded!.pairsOf(slot), length: this.lengths[slot]! })
  }

  /** Every list and every document's pairs in memory (read at once): nothing is read from the cache after this. */
  readAll(): void {
    if (this.loaded === undefined) return
    this.loaded.readAll()
    for (let t = 0; t < this.terms.length; t++) this.listOf(t)
    for (let slot = 0; slot < this.loadedLive.length; slot++) this.docTerms(slot)
    this.loaded = undefined
    this.loadedLive = new Uint8Array(0)
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
      if (this.tracks(term)) this.tracked.push(id)
      this.postings.push([])
      this.maxTf.push(0)
      this.minLength.push(Infinity)
    }
    return id
  }

  /**
   * Index a document under a free `slot`: its distinct terms with their frequencies,
   * and its length (all terms, repeats counted).
   */
  add(slot: number, counts: ReadonlyMap<string, number>, length: number): void {
    if (!Number.isInteger(slot) || slot < 0 || slot >= MAX_SLOTS) throw new RangeError(`slot out of range: ${slot}`)
    if (this.docTerms(slot) !== undefined) throw new Error(`slot ${slot} is already in use`)
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
    if (this.docTerms(slot) !== undefined) throw new Error(`slot ${slot} is already in use`)
    for (let i = 0; i < pairs.length; i += 2) {
      if (!(pairs[i]! >= 0 && pairs[i]! < this.terms.length)) throw new RangeError(`unknown term id ${pairs[i]}`)
    }
    for (let i = 0; i < pairs.length; i += 2) {
      const id = pairs[i]!
      const tf = Math.min(pairs[i + 1]!, MAX_TERM_FREQUENCY)
      this.writable(id).push(slot * TF_BITS + tf)
      this.maxTf[id] = Math.max(this.maxTf[id]!, tf)
      this.minLength[id] = Math.min(this.minLength[id]!, length)
    }
    this.docs[slot] = { pairs, length }
    while (this.lengths.length <= slot) this.lengths.push(0)
    this.lengths[slot] = length
    this.liveDocs++
    this.totalLength += length
  }

  /** Drop the document in `slot`; unknown slots are ignored. */
  remove(slot: number): void {
    const doc = this.docTerms(slot)
    if (doc === undefined) return
    for (let i = 0; i < doc.pairs.length; i += 2) removePosting(this.writable(doc.pairs[i]!), slot)
    this.docs[slot] = undefined
    if (slot < this.loadedLive.length) this.loadedLive[slot] = 0
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
