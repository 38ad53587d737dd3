// BM25 (Robertson/Spärck Jones, the Lucene variant of idf that is never negative).

import { type TermIndex, postingFrequency, postingSlot } from './index.ts'

export interface Bm25Params {
  k1: number
  b: number
}

/** idf = ln(1 + (N − df + 0.5) / (df + 0.5)) */
export function inverseDocumentFrequency(docCount: number, documentFrequency: number): number {
  return Math.log(1 + (docCount - documentFrequency + 0.5) / (documentFrequency + 0.5))
}

/** One term's contribution: idf · tf·(k1+1) / (tf + k1·(1 − b + b·len/avgLen)). */
export function termScore(idf: number, tf: number, length: number, averageLength: number, p: Bm25Params): number {
  const norm = averageLength > 0 ? 1 - p.b + (p.b * length) / averageLength : 1
  return (idf * tf * (p.k1 + 1)) / (tf + p.k1 * norm)
}

export interface WeightedTerm {
  id: number
  /** Multiplies the term's contribution (> 0). */
  weight: number
}

/**
 * Add the BM25 score of each query term (times its weight) to `scores[slot]` for
 * every document that contains it and passes `accept` (all do when it is omitted).
 * Terms are visited in the given order, so the floating-point sum is the same for
 * the same query on the same documents. Returns the slots touched, in visit order.
 */
export function accumulateBm25(
  index: TermIndex,
  terms: readonly WeightedTerm[],
  params: Bm25Params,
  scores: Float64Array,
  accept?: (slot: number) => boolean,
): number[] {
  const touched: number[] = []
  const docCount = index.docCount
  for (const { id, weight } of terms) {
    const list = index.postingsOf(id)
    addTermScores(index, list, weight * inverseDocumentFrequency(docCount, list.length), params, scores, accept, touched)
  }
  return touched
}

/**
 * One term's BM25 (its weight × idf given as `idf`) added to `scores[slot]` of every document in
 * its `list` that passes `accept`; a document scored for the first time is pushed to `touched`.
 */
export function addTermScores(
  index: TermIndex,
  list: ArrayLike<number>,
  idf: number,
  params: Bm25Params,
  scores: Float64Array,
  accept: ((slot: number) => boolean) | undefined,
  touched: number[],
): void {
  const averageLength = index.averageLength
  const tfScale = params.k1 + 1
  // termScore inlined, the same operations in the same order (so the same sums to the last bit):
  // a common word walks tens of thousands of postings, and the call per posting cost most of a search.
  for (let k = 0; k < list.length; k++) {
    const posting = list[k]!
    const slot = postingSlot(posting)
    if (accept !== undefined && !accept(slot)) continue
    if (scores[slot] === 0) touched.push(slot)
    const tf = postingFrequency(posting)
    const norm = averageLength > 0 ? 1 - params.b + (params.b * index.docLength(slot)) / averageLength : 1
    scores[slot]! += (idf * tf * tfScale) / (tf + params.k1 * norm)
  }
}
