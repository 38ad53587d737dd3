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

/**
 * Why a search returned nothing: the message had no searchable words (`empty-query`),
 * nothing is indexed (`empty-index`), no memory holds any of its words or their
 * translations (`no-match`), or the best memories cover too little of what it asks
 * (`low-coverage`: abstention).
 */
export type SilenceReason = 'empty-query' | 'empty-index' | 'no-match' | 'low-coverage'

/** One line a person can read, for `cyrene memory recall` and the doctor. */
export function describeSilence(silence: { reason: SilenceReason; coverage: number; needed?: number }): string {
  switch (silence.reason) {
    case 'empty-query':
      return 'the message has no words to search for (only punctuation, stop words or nothing)'
    case 'empty-index':
      return 'no memory is indexed yet'
    case 'no-match':
      return 'no memory shares a word with the message (or a dictionary translation of one)'
    case 'low-coverage':
      return `the best memory covers ${Math.round(silence.coverage * 100)} % of what the message asks about, under the ${Math.round((silence.needed ?? 0) * 100)} % needed: nothing stored seems to be about it`
  }
}
