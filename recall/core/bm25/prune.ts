// The text scores of the documents that can rank, without scoring every document that
// shares a word with the query (MaxScore, Turtle & Flood 1995, term at a time). At 100,000
// memories a common character or translation is held by tens of thousands of them, and
// walking those lists was most of a search.
//
// Terms are walked from the one that can add the most. Once what the terms left could add
// to a document no list has touched yet is below the `depth`-th best score so far, no new
// document can rank: the documents touched are cut to those that can still reach it, and
// the terms left only add to those — by walking a list while that is cheaper, then by
// reading the few documents left. Each returned score is computed again from the
// document's own terms in query order, so it is the full walk's to the last bit.
// A piece of a query word (its character or pair: query-scorer.ts WordPieces) is walked after
// the word and adds nothing to the documents holding it, so a sum so far is always a part of
// the score and never more.

import { postingFrequency, postingSlot, type TermIndex } from './index.ts'
import { addTermScores, type Bm25Params } from './score.ts'
import type { TextScoring } from './query-scorer.ts'
import { kthLargest } from '../topk.ts'

/** Slack for the two summing orders (a bound is never trusted to the last bit). */
const SLACK = 1e-9
/** Reading one document's terms costs about this many postings walked per term it holds (a map look-up each). */
const DOCUMENT_READ_COST = 8

/**
 * `text.scores` left holding the text score (BM25 × multiplier) of every returned slot, and 0
 * for every other; an accepted document not returned holds no query term, or scores below
 * the `depth`-th best of all and the `admittedDepth`-th best admitted one.
 */
export function scoreBest(index: TermIndex, text: TextScoring, params: Bm25Params): number[] {
  const { scorer, scores, accept } = text
  const n = scorer.terms.length
  const bounds = new Float64Array(n)
  for (let q = 0; q < n; q++) bounds[q] = scorer.boundAt(q)
  // A piece of a word (query-scorer.ts WordPieces) is walked after the word, so that the documents
  // holding the word are known and get nothing from it: every sum so far is then a part of the score.
  const ranking = new Float64Array(n)
  for (let q = 0; q < n; q++) ranking[q] = scorer.wordsOf(q).reduce((low, w) => Math.min(low, bounds[w]!), bounds[q]!)
  const isPiece = (q: number): number => (scorer.wordsOf(q).length > 0 ? 1 : 0)
  const order = Array.from({ length: n }, (_, q) => q).sort((a, b) => ranking[b]! - ranking[a]! || isPiece(a) - isPiece(b) || a - b)
  // The pieces of one word share its documents: read once per word.
  const holdersByWords = new Map<string, Set<number>>()
  const holders = (q: number): Set<number> | undefined => {
    const words = scorer.wordsOf(q)
    if (words.length === 0) return undefined
    const key = words.join(',')
    let found = holdersByWords.get(key)
    if (found === undefined) holdersByWords.set(key, (found = holdersOf(index, scorer, words)))
    return found
  }
  // rest[i]: the most the terms from order[i] on can add to one document; postings[i]: how many postings they hold.
  const rest = new Float64Array(n + 1)
  const postings = new Float64Array(n + 1)
  for (let i = n - 1; i >= 0; i--) {
    rest[i] = rest[i + 1]! + bounds[order[i]!]!
    postings[i] = postings[i + 1]! + index.documentFrequency(scorer.terms[order[i]!]!.id)
  }
  const needed = Math.max(text.depth, text.admittedDepth)
  const averageLength = index.averageLength
  const tfScale = params.k1 + 1
  let touched: number[] = []
  let i = 0
  for (; i < n; i++) {
    const q = order[i]!
    const list = index.postingsOf(scorer.terms[q]!.id)
    // A look at the threshold is a pass over the documents touched: worth it before a list at least as long.
    if (touched.length >= needed && list.length >= touched.length) {
      const threshold = thresholdOf(text, touched, lowerBounds(text, touched, 1 - SLACK))
      if (rest[i]! * text.highestMultiplier * (1 + SLACK) < threshold) break
    }
    addTermScores(index, list, scorer.idfAt(q), params, scores, withoutHolders(holders(q), accept), touched)
  }
  // No new document from here on. The terms left add only to those that can still rank.
  for (; i < n; i++) {
    touched = keepReachable(text, touched, rest[i]!)
    if (touched.length * Math.max(1, averageLength) * DOCUMENT_READ_COST < postings[i]!) break
    const q = order[i]!
    const list = index.postingsOf(scorer.terms[q]!.id)
    const idf = scorer.idfAt(q)
    const holding = holders(q)
    for (let k = 0; k < list.length; k++) {
      const posting = list[k]!
      const slot = postingSlot(posting)
      if (scores[slot] === 0) continue // never touched, or cut
      if (holding !== undefined && holding.has(slot)) continue
      const tf = postingFrequency(posting)
      const norm = averageLength > 0 ? 1 - params.b + (params.b * index.docLength(slot)) / averageLength : 1
      scores[slot]! += (idf * tf * tfScale) / (tf + params.k1 * norm)
    }
  }
  // Walked to the end (sums in the walk's order, scored again below), or the few left read instead.
  const whole = i === n
  if (!whole) for (const slot of touched) scores[slot] = scorer.score(slot)
  touched = keepReachable(text, touched, 0)
  // Now by the multiplier itself (a power per document, so only for these).
  const multipliers = new Float64Array(touched.length)
  for (let j = 0; j < touched.length; j++) multipliers[j] = text.multiplier(touched[j]!)
  const lows = new Float64Array(touched.length)
  for (let j = 0; j < touched.length; j++) lows[j] = scores[touched[j]!]! * multipliers[j]! * (1 - SLACK)
  const threshold = thresholdOf(text, touched, lows)
  const kept: number[] = []
  for (let j = 0; j < touched.length; j++) {
    const slot = touched[j]!
    const m = multipliers[j]!
    if (scores[slot]! * m * (1 + SLACK) < threshold) {
      scores[slot] = 0
      continue
    }
    // The walk summed in its own order; the score itself is summed in query order.
    scores[slot] = (whole ? scorer.score(slot) : scores[slot]!) * m
    kept.push(slot)
  }
  return kept
}

/** The documents holding one of the query words at positions `words`. */
function holdersOf(index: TermIndex, scorer: TextScoring['scorer'], words: readonly number[]): Set<number> {
  const holders = new Set<number>()
  for (const w of words) {
    const list = index.postingsOf(scorer.terms[w]!.id)
    for (let k = 0; k < list.length; k++) holders.add(postingSlot(list[k]!))
  }
  return holders
}

/** `accept`, less `holders` (the documents holding a word the term walked is a piece of). */
function withoutHolders(holders: Set<number> | undefined, accept: ((slot: number) => boolean) | undefined): ((slot: number) => boolean) | undefined {
  if (holders === undefined) return accept
  return (slot) => !holders.has(slot) && (accept === undefined || accept(slot))
}

/** Per touched document: its score so far times the least its multiplier can be (the source weight). */
function lowerBounds(text: TextScoring, touched: readonly number[], factor: number): Float64Array {
  const { scores, sourceWeight } = text
  const out = new Float64Array(touched.length)
  for (let j = 0; j < touched.length; j++) {
    const slot = touched[j]!
    out[j] = scores[slot]! * sourceWeight[slot]! * factor
  }
  return out
}

/**
 * The documents of `touched` whose score, with up to `left` still to come, can reach the
 * threshold their scores so far set; the others are reset to 0.
 */
function keepReachable(text: TextScoring, touched: readonly number[], left: number): number[] {
  const { scores, sourceWeight, recencyHigh } = text
  const threshold = thresholdOf(text, touched, lowerBounds(text, touched, 1 - SLACK))
  const kept: number[] = []
  for (const slot of touched) {
    if ((scores[slot]! + left) * sourceWeight[slot]! * recencyHigh * (1 + SLACK) < threshold) scores[slot] = 0
    else kept.push(slot)
  }
  return kept
}

/** The lesser of the `depth`-th best of `values` (one per touched slot) and the `admittedDepth`-th best admitted one (−∞ when too few). */
function thresholdOf(text: TextScoring, touched: readonly number[], values: Float64Array): number {
  const { admitted } = text
  if (admitted === undefined) return kthLargest(values, Math.max(text.depth, text.admittedDepth))
  const some = new Float64Array(touched.length)
  for (let j = 0; j < touched.length; j++) some[j] = admitted(touched[j]!) ? values[j]! : -Infinity
  return Math.min(text.depth > 0 ? kthLargest(values, text.depth) : Infinity, kthLargest(some, text.admittedDepth))
}
