// One query's BM25 against one document at a time, and the most each of its terms can add
// to any document: what lets a search skip the documents that cannot rank (prune.ts).

import type { TermIndex } from './index.ts'
import { MAX_TERM_FREQUENCY } from './index.ts'
import { inverseDocumentFrequency, type Bm25Params, type WeightedTerm } from './score.ts'

/** What a search hands the text scoring (recall-index.ts `scoreText`). */
export interface TextScoring {
  scorer: QueryScorer
  /** By slot; 0 = not scored. Left holding each returned slot's score. */
  scores: Float64Array
  /** The documents a search may score at all (the source filter); all when omitted. */
  accept: ((slot: number) => boolean) | undefined
  /** The documents it may return (the caller's filter); all accepted ones when omitted. */
  admitted: ((slot: number) => boolean) | undefined
  /** The factor a BM25 score is multiplied by: the slot's `sourceWeight` times a recency in [1, `recencyHigh`]. */
  multiplier: (slot: number) => number
  sourceWeight: Float64Array
  recencyHigh: number
  /** The largest multiplier of any document. */
  highestMultiplier: number
  /** How deep the ranking of all accepted documents must be exact (the seeds of the boosts)… */
  depth: number
  /** …and of the admitted ones (the hits, and what abstention reads). */
  admittedDepth: number
}

/**
 * A query word and the terms that are pieces of it (its characters, its pairs): a document that
 * holds the word scores it as the word, and the pieces add nothing more there; in a document
 * without the word the pieces score as they are (猫 of 橘猫, 求婚 written 求了婚).
 */
export interface WordPieces {
  word: number
  pieces: readonly number[]
}

export class QueryScorer {
  readonly terms: readonly WeightedTerm[]
  /** Per word held in the query, the query positions of its pieces (see WordPieces). */
  private readonly pieceRules: { word: number; pieces: number[] }[] = []
  /** Per query position: the positions of the words it is a piece of (empty for most). */
  private readonly wordsOfPiece: number[][]
  private readonly index: TermIndex
  private readonly params: Bm25Params
  /** Per query position: weight × idf. */
  private readonly idf: Float64Array
  /** Term id → its first query position; `next` links the positions of a repeated id. */
  private readonly firstPosition = new Map<number, number>()
  private readonly next: Int32Array
  /** Scratch: per query position, the term frequency in the document being scored. */
  private readonly tf: Int32Array

  constructor(index: TermIndex, terms: readonly WeightedTerm[], params: Bm25Params, pieces: readonly WordPieces[] = []) {
    this.index = index
    this.terms = terms
    this.params = params
    this.idf = new Float64Array(terms.length)
    this.next = new Int32Array(terms.length).fill(-1)
    this.tf = new Int32Array(terms.length)
    const docCount = index.docCount
    for (let q = terms.length - 1; q >= 0; q--) {
      const { id, weight } = terms[q]!
      this.idf[q] = weight * inverseDocumentFrequency(docCount, index.documentFrequency(id))
      const after = this.firstPosition.get(id)
      if (after !== undefined) this.next[q] = after
      this.firstPosition.set(id, q)
    }
    const words = new Set(pieces.map((p) => p.word))
    this.wordsOfPiece = terms.map(() => [])
    for (const { word, pieces: ids } of pieces) {
      const at = this.firstPosition.get(word)
      if (at === undefined) continue
      // A piece that is itself a word with pieces of its own (乌龙 of 乌龙茶, when 乌龙 is asked too) is
      // scored as that word. A one-character word of the message is a piece like any other: 猫咪 answers 猫.
      const positions = ids
        .filter((id) => id !== word && !words.has(id))
        .flatMap((id) => {
          const q = this.firstPosition.get(id)
          return q === undefined ? [] : [q]
        })
      if (positions.length === 0) continue
      this.pieceRules.push({ word: at, pieces: positions })
      for (const q of positions) this.wordsOfPiece[q]!.push(at)
    }
  }

  /** True when some document's score drops pieces of a word it holds (a sum of every term is then not its score). */
  get dropsPieces(): boolean {
    return this.pieceRules.length > 0
  }

  /** The query positions of the words the term at `q` is a piece of: a document holding one of them gets nothing from it. */
  wordsOf(q: number): readonly number[] {
    return this.wordsOfPiece[q]!
  }

  /** Every term adds more than nothing (a term of weight 0 would touch a document and leave it at 0, which only the full walk keeps). */
  get prunable(): boolean {
    return this.terms.every((t) => t.weight > 0)
  }

  /** weight × idf of the term at query position `q`. */
  idfAt(q: number): number {
    return this.idf[q]!
  }

  /**
   * The most the term at position `q` adds to any document: BM25 grows with the term frequency
   * and falls with the length, so its largest frequency over the shortest length bounds it.
   */
  boundAt(q: number): number {
    const id = this.terms[q]!.id
    const tf = this.index.maxTermFrequency(id)
    if (tf === 0) return 0
    return (this.idf[q]! * tf * (this.params.k1 + 1)) / (tf + this.params.k1 * this.lengthNorm(this.index.minDocLength(id)))
  }

  /**
   * The document's BM25 for the whole query: the same operations in the same order as
   * score.ts `accumulateBm25` (query order), so the same number to the last bit.
   */
  score(slot: number): number {
    const doc = this.index.docTerms(slot)
    if (doc === undefined) return 0
    const { pairs } = doc
    let held = false
    for (let i = 0; i < pairs.length; i += 2) {
      for (let q = this.firstPosition.get(pairs[i]!) ?? -1; q >= 0; q = this.next[q]!) {
        this.tf[q] = Math.min(pairs[i + 1]!, MAX_TERM_FREQUENCY)
        held = true
      }
    }
    if (!held) return 0
    for (const { word, pieces } of this.pieceRules) if (this.tf[word]! > 0) for (const q of pieces) this.tf[q] = 0
    const { k1 } = this.params
    const norm = this.lengthNorm(this.index.docLength(slot))
    const tfScale = k1 + 1
    let sum = 0
    for (let q = 0; q < this.tf.length; q++) {
      const tf = this.tf[q]!
      if (tf === 0) continue
      sum += (this.idf[q]! * tf * tfScale) / (tf + k1 * norm)
      this.tf[q] = 0
    }
    return sum
  }

  private lengthNorm(length: number): number {
    const averageLength = this.index.averageLength
    const { b } = this.params
    return averageLength > 0 ? 1 - b + (b * length) / averageLength : 1
  }
}
