// What a strong hit lends after the text scores: to the memories written just before and
// after it (neighbours in time), and to those it links to or that link to it.

import type { RecallOptions } from './options.ts'
import { linkBoosts } from './scoring.ts'
import type { Timeline } from './timeline.ts'

/** One search's scores (by slot) and the documents it touched, which the boosts add to. */
export interface Boosting {
  options: RecallOptions
  scores: Float64Array
  touched: number[]
  accept: ((slot: number) => boolean) | undefined
  /** Scores a document the text scoring left out, before a boost reads it (recall-index.ts `scoreLate`). */
  late: (slot: number) => void
}

// Each seed lends `neighbourShare` of its score to the memories written just before
// and after it; a neighbour of several seeds keeps the largest gift. Gifts are
// computed before any is applied, so the seeds' order does not matter.
export function applyNeighbourBoosts(b: Boosting, timeline: Timeline, atMsOf: (slot: number) => number, seedSlots: readonly number[]): void {
  const { scores, accept, late } = b
  const { neighbourShare, neighbourSpan, neighbourWindowMinutes } = b.options
  if (neighbourShare <= 0) return
  const gifts = new Map<number, number>()
  for (const seed of seedSlots) {
    const amount = neighbourShare * scores[seed]!
    for (const n of timeline.neighbours(seed, atMsOf(seed), neighbourWindowMinutes * 60_000, neighbourSpan)) {
      late(n)
      // Only a memory that itself shares a word with the query is lifted: a neighbour
      // re-ranks, it never brings in a line about something else.
      if (scores[n] === 0 || (accept !== undefined && !accept(n))) continue
      if (amount > (gifts.get(n) ?? 0)) gifts.set(n, amount)
    }
  }
  for (const [slot, amount] of gifts) scores[slot]! += amount
}

// Adds each boost to `scores` (and new neighbours to `touched`); returns slot → seed id.
export function applyLinkBoosts(
  b: Boosting,
  idOf: (slot: number) => string,
  slotOf: (id: string) => number | undefined,
  neighbourIds: (id: string) => string[],
  seedSlots: readonly number[],
): Map<number, string> {
  const { scores, touched, accept, late } = b
  const via = new Map<number, string>()
  if (seedSlots.length === 0 || b.options.linkShare <= 0) return via
  const seeds = seedSlots.map((slot) => ({ id: idOf(slot), score: scores[slot]! }))
  const neighbours = (id: string): string[] =>
    neighbourIds(id).filter((n) => {
      const slot = slotOf(n)
      if (slot === undefined || (accept !== undefined && !accept(slot))) return false
      late(slot)
      return true
    })
  // Boosts are computed from the seeds' scores before any is applied, so the order does not matter.
  for (const [id, boost] of linkBoosts(seeds, neighbours, b.options.linkShare)) {
    const slot = slotOf(id)!
    if (scores[slot] === 0) touched.push(slot)
    scores[slot]! += boost.amount
    via.set(slot, boost.via)
  }
  return via
}
