// When to inject nothing. A message about something the store never saw (another
// person's name, a topic never written down) still shares a common word or two with
// some memory, and plain ranking would fill the budget with that noise. The rule
// compares what the best hit matches with what the message asks about, both
// weighted by idf: a word the store has never seen counts at the highest idf (it is
// exactly what the store knows nothing about).

export interface AbstainInput {
  /** Σ weight·idf over the query's distinct terms, unknown terms included. */
  queryMass: number
  /** The largest Σ weight·idf of query terms that one of the best hits contains. */
  bestMatchedMass: number
  /** The idf of a term no document contains (ln(1 + (N + 0.5) / 0.5)): the unit of "enough". */
  rareTermMass: number
}

export interface AbstainRule {
  /** Abstain when the best hit covers less than this share of the query's mass (0 = never). */
  minCoverage: number
  /** …unless it matches at least this many never-seen words' worth of mass (a long message with one strong match). */
  enoughRareTerms: number
}

/** Share of the query's mass the best hit covers, in [0, 1]; 0 for an empty query. */
export function coverage(input: AbstainInput): number {
  if (!(input.queryMass > 0)) return 0
  return Math.min(1, Math.max(0, input.bestMatchedMass / input.queryMass))
}

/** True when nothing recalled is about the query: inject nothing. Pure: same input, same answer. */
export function shouldAbstain(input: AbstainInput, rule: AbstainRule): boolean {
  if (!(input.bestMatchedMass > 0)) return true
  if (rule.minCoverage <= 0) return false
  if (input.rareTermMass > 0 && input.bestMatchedMass >= rule.enoughRareTerms * input.rareTermMass) return false
  return coverage(input) < rule.minCoverage
}
