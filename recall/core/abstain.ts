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
  /** The message names a person no memory mentions in any form (people.ts: 我弟弟 where no 弟 is stored). */
  unknownPerson?: boolean
  /** The message names a place or thing by its name (巴黎, Paris) that no memory holds in any form; an app or a brand it only goes through (微信) is none (decision 125). */
  unknownName?: boolean
}

export interface AbstainRule {
  /** Abstain when the best hit covers less than this share of the query's mass (0 = never). */
  minCoverage: number
  /** …unless it matches at least this many never-seen words' worth of mass (a long message with one strong match). */
  enoughRareTerms: number
  /**
   * Also abstain when the best hit matches less than this many never-seen words' worth of mass
   * (only common words, single characters, a generic translation: 学, 上班, 工作, "work")…
   */
  minSpecificMass: number
  /** …and covers less than this share of the message. */
  specificCoverage: number
}

/** Why the rule abstains: too little of the message covered, or covered only by common words. */
export type AbstainVerdict = 'keep' | 'low-coverage' | 'weak-match' | 'unknown-person' | 'unknown-name' | 'missing-thing' | 'no-answer' | 'only-characters'

/** Share of the query's mass the best hit covers, in [0, 1]; 0 for an empty query. */
export function coverage(input: AbstainInput): number {
  if (!(input.queryMass > 0)) return 0
  return Math.min(1, Math.max(0, input.bestMatchedMass / input.queryMass))
}

/** True when nothing recalled is about the query: inject nothing. Pure: same input, same answer. */
export function shouldAbstain(input: AbstainInput, rule: AbstainRule): boolean {
  return abstainVerdict(input, rule) !== 'keep'
}

/**
 * The rule with its reason. A message about something never stored usually still shares a
 * common word with the store (我在哪家银行上班 and a memory about 上班); a real question names at
 * least one thing specific to the memory that answers it (牙齿, dentist, 外婆). So a best hit
 * that holds less than `minSpecificMass` never-seen words' worth of the message is not enough
 * unless it covers `specificCoverage` of it (docs/decisions/036).
 */
export function abstainVerdict(input: AbstainInput, rule: AbstainRule): AbstainVerdict {
  if (!(input.bestMatchedMass > 0)) return 'low-coverage'
  if (rule.minCoverage <= 0) return 'keep'
  if (input.rareTermMass > 0 && input.bestMatchedMass >= rule.enoughRareTerms * input.rareTermMass) return 'keep'
  const share = coverage(input)
  if (share < rule.minCoverage) return 'low-coverage'
  if (share < rule.specificCoverage && input.bestMatchedMass < rule.minSpecificMass * input.rareTermMass) return 'weak-match'
  // Someone the store never mentions: what it holds of the rest (工作 of 我弟弟在哪工作) is about someone else.
  if (share < rule.specificCoverage && input.unknownPerson === true) return 'unknown-person'
  // A name the store never wrote (德国, Paris): what it holds of the rest (学, hotel) is about somewhere else.
  if (share < rule.specificCoverage && input.unknownName === true) return 'unknown-name'
  return 'keep'
}

/**
 * Why a search returned nothing: the message had no searchable words (`empty-query`),
 * nothing is indexed (`empty-index`), no memory holds any of its words or their
 * translations (`no-match`), or the best memories cover too little of what it asks
 * (`low-coverage`: abstention), share only common words with it (`weak-match`), or it asks about
 * a person no memory mentions (`unknown-person`) or a place or thing by a name no memory holds
 * (`unknown-name`), or the memories found share only characters of its words (`only-characters`).
 */
export type SilenceReason =
  | 'empty-query'
  | 'empty-index'
  | 'no-match'
  | 'low-coverage'
  | 'weak-match'
  | 'unknown-person'
  | 'unknown-name'
  | 'missing-thing'
  | 'no-answer'
  | 'only-characters'

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
    case 'weak-match':
      return `the best memory covers ${Math.round(silence.coverage * 100)} % of what the message asks about (under ${Math.round((silence.needed ?? 0) * 100)} %) and only through common words: nothing stored seems to be about it`
    case 'unknown-person':
      return `the message asks about someone no memory mentions, and the best memory covers only ${Math.round(silence.coverage * 100)} % of it (under ${Math.round((silence.needed ?? 0) * 100)} %)`
    case 'missing-thing':
      return `the memories found share only actions or qualities with the message, not the thing it asks about nor a kind of it, and cover ${Math.round(silence.coverage * 100)} % of it (under ${Math.round((silence.needed ?? 0) * 100)} %)`
    case 'no-answer':
      return 'the memories about what the message asks hold no answer of the kind it asks for (a name, a brand, a sum of money, an age, a day of the week, the date of a birthday, a number to look up)'
    case 'only-characters':
      return 'the memories found share only single characters of the words in the message (a character of another word), not one of its words nor a translation of one'
    case 'unknown-name':
      return `the message names a place or thing no memory mentions, and the best memory covers only ${Math.round(silence.coverage * 100)} % of it (under ${Math.round((silence.needed ?? 0) * 100)} %)`
  }
}
