// Every tunable of recall lives here, with its default and the reason for it.

export type RecallSource = 'entry' | 'anchor' | 'rollup' | 'dream'
export const RECALL_SOURCES: readonly RecallSource[] = ['entry', 'anchor', 'rollup', 'dream']

export interface RecallOptions {
  /** BM25 term-frequency saturation. 1.2 is the textbook value. */
  k1: number
  /**
   * BM25 length normalisation (0 = none, 1 = full). Textbook 0.75 punishes a longer
   * chat line for saying more; 0.5 was better on LoCoMo conversations 1–5 and held on 6–10.
   */
  b: number
  /**
   * Weight of a query term that is a single CJK character (猫, 茶) relative to a word
   * or character pair: such a match is weaker evidence, but without it 猫 never
   * reaches a memory that says 猫咪.
   */
  cjkCharWeight: number
  /** Half-life of the recency bonus, in days: an entry this old gets half the bonus of one written now. */
  recencyHalfLifeDays: number
  /**
   * Largest recency bonus, as a fraction of the text score: a brand-new entry scores
   * up to (1 + recencyWeight) times an equally matching ancient one. Small, so that
   * recency breaks near-ties rather than overruling relevance.
   */
  recencyWeight: number
  /** Multiplier per source. Anchors (the four core texts) are long, so BM25 length normalisation would bury them. */
  sourceWeights: Record<RecallSource, number>
  /** Share of a strong hit's score given to the documents it links to (and that link to it). */
  linkShare: number
  /** How many of the best hits spread a link boost. */
  linkSeeds: number
  /**
   * Share of a strong hit's score lent to the memories written just before and after
   * it (same day, within `neighbourWindowMinutes`): the answer to a question is often
   * the line after the one that shares its words.
   */
  neighbourShare: number
  /** How many memories on each side count as neighbours (the line after next often still answers). */
  neighbourSpan: number
  /** How many of the best hits lend to their neighbours. */
  neighbourSeeds: number
  /** Two memories further apart than this are not neighbours. */
  neighbourWindowMinutes: number
  /**
   * Abstention (abstain.ts): return nothing when the best hits cover less than this
   * share of the query's idf mass (a never-seen word counts at the highest idf). 0 = never.
   */
  abstainCoverage: number
  /** …unless the best hit matches at least this many never-seen words' worth of idf (long messages). */
  abstainEnough: number
  /** How many of the best hits abstention looks at, whatever `limit` is (so the rule does not depend on it). */
  abstainDepth: number
  /**
   * Abstention on common words only: also return nothing when the best hit matches less than this
   * many never-seen words' worth of idf… (decision 036). 0 = off, the default: on the held-out half
   * 0.5 silenced 6.9 % of answerable questions.
   */
  abstainSpecific: number
  /** …and covers less than this share of the query. */
  abstainSpecificCoverage: number
  /**
   * Abstain when the memories about a question hold no answer of the kind it asks for: a name, a
   * brand, a sum, an age, a weekday (answer-kind.ts). On, the default since decision 059: alone, on
   * the tuning half of 514 questions and its 137 extra ones, it spares 5 of 61 questions about nothing
   * stored and silences no answerable one (with `abstainMissingThing`, decision 049's held-out run
   * had seen the pair silence 3 more real questions).
   */
  abstainAnswerKind: boolean
  /** Abstain when the memories found hold none of the Chinese things a question asks about, nor a kind of one (things.ts, WordNet). Off, the default (decisions 048, 049). */
  abstainMissingThing: boolean
  /**
   * A memory is about a message only when it holds one of its words whole or in translation: one
   * that shares only characters of its words (抽 of 抽屉 and 烟 of 烟花 for 抽烟) counts for nothing
   * in abstention, and when no memory holds more, recall says nothing (`only-characters`). Off, the
   * default: it silenced one more answerable question of the held-out half and no question about
   * nothing stored (decision 049).
   */
  abstainWholeWord: boolean
  /**
   * Weight of the time term (time-words.ts) that a "when" question adds: memories that
   * say when something happened rank higher for it. 0 = off.
   */
  timeWeight: number
  /**
   * A memory that holds a word of the message whole scores it as the word: the word's characters
   * and pairs, which find it written otherwise (猫 of 橘猫), add nothing more there. Without this a
   * Chinese memory scored 求婚 + 求 + 婚 where an English one holding "proposal" scored one term: a
   * lean toward the message's own script (decision 112).
   */
  wordPiecesOnce: boolean
  /**
   * A person who writes in two languages is asked in one: the best memory written in the other
   * (English for a Chinese message, Chinese for an English one) is moved up to this rank when none
   * ranks there already, so that memories sharing the message's own characters do not bury the one
   * that holds its translation (decision 114). 0 = off.
   */
  otherScriptRank: number
  /** …provided it scores at least this share of the best memory, and ranks within `abstainDepth`. */
  otherScriptShare: number
  /** Pseudo-relevance feedback: how many of the best text matches lend their words… */
  feedbackDocs: number
  /** …how many of those words are added to the query… */
  feedbackTerms: number
  /**
   * …and the weight of the strongest added word relative to a query word. 0 = off (the
   * default: on bench/own's tuning half it cost MRR@10 0.815 → 0.743 at 0.3, and LoCoMo 1–5 did not miss it).
   */
  feedbackWeight: number
  /**
   * Weight of a dictionary translation of a query word (bilingual.ts: 猫 for "cat",
   * "cat" for 猫) relative to the word itself. 0 = no translation.
   */
  translationWeight: number
  /**
   * Weight of a word only the question's frame names (asked-topics.ts: 我是干什么的 → 工作): it finds
   * the memory when the question holds nothing else, and stays below the words it does hold.
   */
  impliedWeight: number
  /**
   * Weight of an everyday Chinese synonym of a query word (synonyms.ts: 对象 for 男朋友) relative
   * to the word itself, like a translation's. 0 = no synonyms.
   */
  synonymWeight: number
  /** Weight of a place within a place the message names (places.ts: 大阪 for 日本, Kyoto for Japan) relative to the name itself. 0 = off. */
  placeWeight: number
  /** Weight of a translation reached through the dictionary's own detour (pivot.ts: "writer" → 作者 → "author" → 作家) relative to the word. 0 = off (bench/own tuning half hit@5: 0 → 0.948, 0.1–0.4 → 0.966). */
  pivotWeight: number
  /** The days a message names (昨天, last week: time-range.ts) as a word every memory written then holds, at this weight relative to a word of the message. 0 = off. */
  namedTimeWeight: number
  /** A translation of a word that no memory holds counts as the word itself (there is no original to stay below). */
  untranslatedFullWeight: boolean
  /** How much of a query word's mass a memory that holds only its translation covers, for abstention (1 = as much as the word). */
  translationCredit: number
  /** Longest query, in UTF-16 units, that is tokenized; a pasted essay is cut here. */
  maxQueryChars: number
  /** Most distinct query terms used; the rarest (most informative) are kept. */
  maxQueryTerms: number
  /** Longest document text, in UTF-16 units, that is indexed. */
  maxDocChars: number
}

/** What callers pass: any subset, and any subset of the source weights. */
export type RecallOptionsInput = Partial<Omit<RecallOptions, 'sourceWeights'>> & {
  sourceWeights?: Partial<Record<RecallSource, number>>
}

export const DEFAULT_RECALL_OPTIONS: Readonly<RecallOptions> = Object.freeze({
  k1: 1.2,
  b: 0.5,
  cjkCharWeight: 0.5,
  recencyHalfLifeDays: 180,
  recencyWeight: 0.1,
  sourceWeights: Object.freeze({ entry: 1, anchor: 1.3, rollup: 0.9, dream: 0.8 }),
  linkShare: 0.3,
  linkSeeds: 5,
  neighbourShare: 0.5,
  neighbourSpan: 2,
  neighbourSeeds: 20,
  neighbourWindowMinutes: 30,
  timeWeight: 1,
  wordPiecesOnce: true,
  otherScriptRank: 3,
  otherScriptShare: 0.3,
  feedbackDocs: 2,
  feedbackTerms: 5,
  feedbackWeight: 0,
  abstainCoverage: 0.15,
  abstainEnough: 2,
  abstainDepth: 10,
  abstainSpecific: 0,
  abstainSpecificCoverage: 0.6,
  abstainAnswerKind: true,
  abstainMissingThing: false,
  abstainWholeWord: false,
  translationWeight: 0.8,
  impliedWeight: 0.3,
  translationCredit: 1,
  synonymWeight: 0.5,
  pivotWeight: 0.2,
  placeWeight: 0.5,
  namedTimeWeight: 1,
  untranslatedFullWeight: true,
  maxQueryChars: 4000,
  maxQueryTerms: 64,
  maxDocChars: 20_000,
})

/** Defaults overlaid with `partial`; nonsense values (NaN, negative) fall back to the default. */
export function resolveOptions(partial: RecallOptionsInput = {}): RecallOptions {
  const d = DEFAULT_RECALL_OPTIONS
  const weights = { ...d.sourceWeights }
  for (const source of RECALL_SOURCES) {
    weights[source] = nonNegative(partial.sourceWeights?.[source], d.sourceWeights[source])
  }
  return {
    k1: nonNegative(partial.k1, d.k1),
    b: Math.min(1, nonNegative(partial.b, d.b)),
    cjkCharWeight: nonNegative(partial.cjkCharWeight, d.cjkCharWeight),
    recencyHalfLifeDays: positive(partial.recencyHalfLifeDays, d.recencyHalfLifeDays),
    recencyWeight: nonNegative(partial.recencyWeight, d.recencyWeight),
    sourceWeights: weights,
    linkShare: nonNegative(partial.linkShare, d.linkShare),
    linkSeeds: Math.floor(nonNegative(partial.linkSeeds, d.linkSeeds)),
    neighbourShare: nonNegative(partial.neighbourShare, d.neighbourShare),
    neighbourSpan: Math.floor(nonNegative(partial.neighbourSpan, d.neighbourSpan)),
    neighbourSeeds: Math.floor(nonNegative(partial.neighbourSeeds, d.neighbourSeeds)),
    neighbourWindowMinutes: nonNegative(partial.neighbourWindowMinutes, d.neighbourWindowMinutes),
    feedbackDocs: Math.floor(nonNegative(partial.feedbackDocs, d.feedbackDocs)),
    feedbackTerms: Math.floor(nonNegative(partial.feedbackTerms, d.feedbackTerms)),
    feedbackWeight: nonNegative(partial.feedbackWeight, d.feedbackWeight),
    timeWeight: nonNegative(partial.timeWeight, d.timeWeight),
    abstainCoverage: Math.min(1, nonNegative(partial.abstainCoverage, d.abstainCoverage)),
    abstainEnough: nonNegative(partial.abstainEnough, d.abstainEnough),
    abstainDepth: Math.floor(positive(partial.abstainDepth, d.abstainDepth)),
    abstainSpecific: nonNegative(partial.abstainSpecific, d.abstainSpecific),
    abstainSpecificCoverage: Math.min(1, nonNegative(partial.abstainSpecificCoverage, d.abstainSpecificCoverage)),
    translationWeight: nonNegative(partial.translationWeight, d.translationWeight),
    impliedWeight: nonNegative(partial.impliedWeight, d.impliedWeight),
    synonymWeight: nonNegative(partial.synonymWeight, d.synonymWeight),
    pivotWeight: nonNegative(partial.pivotWeight, d.pivotWeight),
    placeWeight: nonNegative(partial.placeWeight, d.placeWeight),
    namedTimeWeight: nonNegative(partial.namedTimeWeight, d.namedTimeWeight),
    untranslatedFullWeight: typeof partial.untranslatedFullWeight === 'boolean' ? partial.untranslatedFullWeight : d.untranslatedFullWeight,
    abstainAnswerKind: typeof partial.abstainAnswerKind === 'boolean' ? partial.abstainAnswerKind : d.abstainAnswerKind,
    abstainMissingThing: typeof partial.abstainMissingThing === 'boolean' ? partial.abstainMissingThing : d.abstainMissingThing,
    abstainWholeWord: typeof partial.abstainWholeWord === 'boolean' ? partial.abstainWholeWord : d.abstainWholeWord,
    otherScriptRank: Math.floor(nonNegative(partial.otherScriptRank, d.otherScriptRank)),
    otherScriptShare: Math.min(1, nonNegative(partial.otherScriptShare, d.otherScriptShare)),
    wordPiecesOnce: typeof partial.wordPiecesOnce === 'boolean' ? partial.wordPiecesOnce : d.wordPiecesOnce,
    translationCredit: Math.min(1, nonNegative(partial.translationCredit, d.translationCredit)),
    maxQueryChars: Math.floor(positive(partial.maxQueryChars, d.maxQueryChars)),
    maxQueryTerms: Math.floor(positive(partial.maxQueryTerms, d.maxQueryTerms)),
    maxDocChars: Math.floor(positive(partial.maxDocChars, d.maxDocChars)),
  }
}

function nonNegative(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback
}

function positive(value: number | undefined, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : fallback
}
