// Pseudo-relevance feedback (off by default: feedbackWeight 0; the bench measures it).

import type { TermIndex } from './bm25/index.ts'
import { inverseDocumentFrequency, type WeightedTerm } from './bm25/score.ts'
import type { RecallOptions } from './options.ts'
import { TIME_TERM } from './time-words.ts'
import { topK } from './topk.ts'

/**
 * Pseudo-relevance feedback: the words that the best text matches share, beyond the
 * query's own, searched again at a fraction of a query word's weight (none when it is off).
 */
export function feedbackTerms(
  terms: TermIndex,
  idOf: (slot: number) => string,
  options: RecallOptions,
  touched: readonly number[],
  scores: Float64Array,
  queryTerms: readonly WeightedTerm[],
): WeightedTerm[] {
  const { feedbackDocs, feedbackTerms, feedbackWeight } = options
  if (feedbackWeight <= 0 || feedbackDocs <= 0 || feedbackTerms <= 0) return []
  const byScore = (a: number, b: number): number => scores[b]! - scores[a]! || (idOf(a) < idOf(b) ? -1 : 1)
  const inQuery = new Set(queryTerms.map((t) => t.id))
  const docCount = terms.docCount
  const weight = new Map<number, number>()
  for (const slot of topK(touched, feedbackDocs, byScore)) {
    const { pairs, length } = terms.docTerms(slot)!
    for (let i = 0; i < pairs.length; i += 2) {
      const id = pairs[i]!
      const df = terms.documentFrequency(id)
      if (inQuery.has(id) || df < 2 || terms.term(id) === TIME_TERM) continue
      weight.set(id, (weight.get(id) ?? 0) + (pairs[i + 1]! / Math.max(1, length)) * inverseDocumentFrequency(docCount, df))
    }
  }
  // Ties and the summing order go by the term itself (term ids depend on insertion order).
  const byTerm = (a: number, b: number): number => (terms.term(a) < terms.term(b) ? -1 : 1)
  const best = [...weight].sort((a, b) => b[1] - a[1] || byTerm(a[0], b[0])).slice(0, feedbackTerms)
  const top = best[0]?.[1] ?? 0
  return best.map(([id, w]) => ({ id, weight: (feedbackWeight * w) / top })).sort((a, b) => byTerm(a.id, b.id))
}
