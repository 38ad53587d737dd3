// The recall index: documents in, ranked hits out. Composes the tokenizer, the
// BM25 inverted index and the recall-specific scoring (recency, source weights,
// links); keeps itself current one document at a time; round-trips through JSON.

import { TermIndex, MAX_SLOTS } from './bm25/index.ts'
import { accumulateBm25, inverseDocumentFrequency } from './bm25/score.ts'
import { QueryScorer, type TextScoring, type WordPieces } from './bm25/query-scorer.ts'
import { scoreBest } from './bm25/prune.ts'
import { abstainVerdict, coverage, type AbstainVerdict } from './abstain.ts'
import { isPersonWord } from './people.ts'
import { silent, type RecallAnswer, type RecallHit, type SearchOptions } from './answer.ts'
import { distinctLinkTargets, LoadedRecord, NO_LINKS, type DocRecord } from './doc-record.ts'
import { feedbackTerms } from './feedback.ts'
import { applyLinkBoosts, applyNeighbourBoosts, type Boosting } from './boosts.ts'
import { assertRecallDoc, parseTime, type RecallDoc } from './doc.ts'
import { fingerprintDoc, fingerprintSet } from './fingerprint.ts'
import { resolveOptions, RECALL_SOURCES, type RecallOptions, type RecallOptionsInput, type RecallSource } from './options.ts'
import { recencyMultiplier } from './scoring.ts'
import { parseSerializedIndex, RecallFormatError, serializeIndex, type DocToSave, type IndexedDocMeta, type SerializedRecallIndex } from './serialise.ts'
import { columnsOf, type IndexColumns } from './columns.ts'
import type { LoadedColumns } from './columns-read.ts'
import { isCjkTerm, isSingleCjkCharacter, tokenize, tokenizerSignature } from './tokenize.ts'
import { isChineseName, namesTheUnknown } from './names.ts'
import { askedKind, holdsAnswer, isNumberTerm, type AnswerKind } from './answer-kind.ts'
import { bilingualDictionary } from './bilingual.ts'
import { isThing, kindTerms } from './things.ts'
import { thingLexicon, wordKinds } from './word-kinds.ts'
import { ALIAS_OPEN, aliasTermsOf } from './aliases.ts'
import { buildQuery, type QueryGroup } from './query.ts'
import { clipText, normalizeText } from './normalize.ts'
import { topK } from './topk.ts'
import { mentionsTime, TIME_TERM } from './time-words.ts'
import { Timeline } from './timeline.ts'
import { DAY_MS, namedTime, type NamedTime } from './time-range.ts'

export type { RecallHit } from './answer.ts'

export interface SyncReport {
  added: string[]
  updated: string[]
  removed: string[]
  unchanged: number
}

const DEFAULT_LIMIT = 10
/** Abstention weighs words as in a store of at least this many memories (bench/own tuning half: the same at 0–100). */
const ABSTAIN_PRIOR_DOCS = 20
/** Days a named time may span for its memories to come in without a word of the message (上周: 7; 上个月: no). */
const NAMED_TIME_PULL_DAYS = 8
/** Memories a named stretch of days may hold for it to count (each is scored). */
const NAMED_TIME_MOST = 2000

export class RecallIndex {
  readonly options: RecallOptions
  private readonly terms = new TermIndex((term) => term.startsWith(ALIAS_OPEN))
  private readonly slotsById = new Map<string, number>()
  private readonly records: (DocRecord | undefined)[] = []
  private readonly freeSlots: number[] = []
  /** target id → ids of documents that link to it (the target may not be indexed yet). */
  private readonly backlinks = new Map<string, Set<string>>()
  private readonly timeline = new Timeline()
  private scratch = new Float64Array(0)
  /**
   * Per slot, what the final loop of a search reads: the time (ms) and the source weight,
   * in flat arrays — reading them off the records cost most of a search at 100,000
   * entries (the records' shapes differ, so each access was a slow lookup).
   */
  private slotAtMs = new Float64Array(0)
  private slotSourceWeight = new Float64Array(0)

  constructor(options: RecallOptionsInput = {}) {
    this.options = resolveOptions(options)
  }

  get size(): number {
    return this.slotsById.size
  }

  has(id: string): boolean {
    return this.slotsById.has(id)
  }

  /** Ids of all indexed documents, sorted. */
  ids(): string[] {
    return [...this.slotsById.keys()].sort()
  }

  /** The fingerprint stored for `id` (compare with fingerprintDoc(file doc) to see if it changed). */
  fingerprintOf(id: string): string | undefined {
    const slot = this.slotsById.get(id)
    return slot === undefined ? undefined : this.records[slot]!.fingerprint
  }

  /** Fingerprint of the whole document set; equals fingerprintDocs() of the same documents. */
  fingerprint(): string {
    return fingerprintSet(this.liveRecords().map((r) => [r.id, r.fingerprint] as const))
  }

  /** Index `doc`, replacing any document with the same id. Throws TypeError on a malformed doc. */
  add(doc: RecallDoc): void {
    assertRecallDoc(doc)
    const fingerprint = fingerprintDoc(doc)
    const clipped = clipText(doc.text, this.options.maxDocChars)
    const terms = tokenize(clipped, this.options.maxDocChars)
    const normalized = normalizeText(clipped)
    if (mentionsTime(normalized)) terms.push(TIME_TERM)
    for (const alias of aliasTermsOf(normalized, clipped, (name) => tokenize(name)[0] ?? name.toLowerCase())) terms.push(alias)
    const counts = new Map<number, number>()
    for (const term of terms) {
      const id = this.terms.intern(term)
      counts.set(id, (counts.get(id) ?? 0) + 1)
    }
    const pairs = new Int32Array(counts.size * 2)
    let i = 0
    for (const [id, tf] of counts) {
      pairs[i++] = id
      pairs[i++] = tf
    }
    this.insert({ id: doc.id, at: doc.at, source: doc.source, kind: doc.kind, links: doc.links ?? [], fingerprint }, pairs, terms.length)
  }

  /**
   * Replace the document with this id (or add it); one indexed as it is now is left alone. A file that changed
   * is read again whole, and a day of 100,000 entries with one new among them must not cost 100,000 replacements.
   */
  update(doc: RecallDoc): void {
    const known = this.fingerprintOf(doc.id)
    if (known !== undefined && known === fingerprintDoc(doc)) return
    this.add(doc)
  }

  /** Forget `id`. Returns whether it was indexed. */
  remove(id: string): boolean {
    const slot = this.slotsById.get(id)
    if (slot === undefined) return false
    const record = this.records[slot]!
    for (const target of record.linkTargets) {
      const sources = this.backlinks.get(target)
      sources?.delete(id)
      if (sources?.size === 0) this.backlinks.delete(target)
    }
    this.terms.remove(slot)
    this.timeline.remove(slot, record.atMs)
    this.records[slot] = undefined
    this.slotsById.delete(id)
    this.freeSlots.push(slot)
    return true
  }

  /**
   * Make the index describe exactly `docs`: add new ones, re-index changed ones
   * (by fingerprint), remove the rest. This is how the store refreshes a cached
   * index against the files. If an id repeats, the last document wins.
   */
  sync(docs: Iterable<RecallDoc>): SyncReport {
    const report: SyncReport = { added: [], updated: [], removed: [], unchanged: 0 }
    const wanted = new Map<string, RecallDoc>()
    for (const doc of docs) {
      assertRecallDoc(doc)
      wanted.set(doc.id, doc)
    }
    for (const id of this.ids()) {
      if (!wanted.has(id)) {
        this.remove(id)
        report.removed.push(id)
      }
    }
    for (const [id, doc] of wanted) {
      const known = this.fingerprintOf(id)
      if (known === fingerprintDoc(doc)) {
        report.unchanged++
        continue
      }
      this.add(doc)
      ;(known === undefined ? report.added : report.updated).push(id)
    }
    return report
  }

  search(query: string, options: SearchOptions = {}): RecallHit[] {
    return this.explain(query, options).hits
  }

  /** The same search, with why it returned nothing (`silence`) and how much of the query the best hits covered. */
  explain(query: string, options: SearchOptions = {}): RecallAnswer {
    const limit = Math.max(0, Math.floor(options.limit ?? DEFAULT_LIMIT))
    if (limit === 0 || typeof query !== 'string') return silent('empty-query', 0)
    if (this.size === 0) return silent('empty-index', 0)
    const { terms: queryTerms, groups } = buildQuery(query, this.terms, options.translate === false ? { ...this.options, translationWeight: 0 } : this.options)
    const nowMs = resolveNow(options.now)
    // 今天发生了什么: no memory holds a word of it, and the day is what it asks about.
    const normalized = normalizeText(query)
    const when = this.options.namedTimeWeight > 0 ? namedTime(normalized, nowMs) : undefined
    if (queryTerms.length === 0 && when === undefined) return silent(groups.length === 0 ? 'empty-query' : 'no-match', 0)
    const accept = this.sourceFilter(options.sources)

    // Scores live in a reused array indexed by slot; only the winners become objects.
    const scores = this.scratchScores()
    const scorer = new QueryScorer(this.terms, queryTerms, this.options, this.options.wordPiecesOnce ? wordPieces(groups) : [])
    const { recencyHalfLifeDays, recencyWeight } = this.options
    const atMs = this.slotAtMs
    const sourceWeight = this.slotSourceWeight
    const admit = options.filter
    const text: TextScoring = {
      scorer,
      scores,
      accept,
      admitted: admit === undefined ? undefined : (slot) => admit(this.records[slot]!.id),
      multiplier: (slot) => sourceWeight[slot]! * recencyMultiplier(atMs[slot]!, nowMs, recencyHalfLifeDays, recencyWeight),
      sourceWeight,
      // scoring.ts recencyMultiplier lies in [1, 1 + recencyWeight].
      recencyHigh: 1 + recencyWeight,
      highestMultiplier: Math.max(...Object.values(this.options.sourceWeights)) * (1 + recencyWeight),
      depth: Math.max(this.options.neighbourSeeds, this.options.linkSeeds),
      admittedDepth: Math.max(limit, this.options.abstainDepth),
    }
    const touched = this.scoreText(text)
    const inWhen = when === undefined ? undefined : (slot: number): boolean => atMs[slot]! >= when.fromMs && atMs[slot]! < when.toMs
    if (when !== undefined) this.liftNamedTime(text, when, touched)
    try {
      const bySlotRank = (a: number, b: number): number => {
        const diff = scores[b]! - scores[a]!
        if (diff !== 0) return diff
        const idA = this.records[a]!.id
        const idB = this.records[b]!.id
        return idA < idB ? -1 : idA > idB ? 1 : 0
      }
      // A memory left unscored (it could not rank) is scored after all when a seed lends to it.
      const late = (slot: number): void => this.scoreLate(text, slot, touched)
      const boosting: Boosting = { options: this.options, scores, touched, accept, late }
      applyNeighbourBoosts(boosting, this.timeline, (slot) => this.records[slot]!.atMs, topK(touched, this.options.neighbourSeeds, bySlotRank))
      const via = applyLinkBoosts(
        boosting,
        (slot) => this.records[slot]!.id,
        (id) => this.slotsById.get(id),
        (id) => this.neighbourIds(id),
        topK(touched, this.options.linkSeeds, bySlotRank),
      )
      const queryTermIds = new Set(queryTerms.map((t) => t.id))
      const candidates = admit === undefined ? touched : touched.filter((slot) => admit(this.records[slot]!.id))
      const best = topK(candidates, Math.max(limit, this.options.abstainDepth), bySlotRank)
      const verdict = this.abstains(
        groups,
        best.slice(0, this.options.abstainDepth),
        this.options.abstainAnswerKind ? askedKind(normalized) : undefined,
        when === undefined ? undefined : { terms: new Set(when.words.flatMap((w) => tokenize(w))), holds: inWhen! },
      )
      if (best.length === 0) return silent('no-match', 0)
      if (options.abstain !== false && verdict.abstain !== 'keep')
        return silent(
          verdict.abstain,
          verdict.coverage,
          // A missing answer, or characters alone, are no matter of coverage: they state no share needed.
          verdict.abstain === 'low-coverage'
            ? this.options.abstainCoverage
            : verdict.abstain === 'no-answer' || verdict.abstain === 'only-characters'
              ? undefined
              : this.options.abstainSpecificCoverage,
        )
      this.seatOtherScript(best, groups, scores)
      const hits = best.slice(0, limit).map((slot) => {
        const record = this.records[slot]!
        const hit: RecallHit = { id: record.id, score: scores[slot]!, matched: this.matchedTerms(slot, queryTermIds), source: record.source }
        const from = via.get(slot)
        if (from !== undefined) hit.via = from
        return hit
      })
      return { hits, coverage: verdict.coverage }
    } finally {
      for (const slot of touched) scores[slot] = 0
    }
  }

  /**
   * Moves the best memory written in the other script than the message up to `otherScriptRank`
   * (options.ts), in place, when none ranks that high, it ranks within `abstainDepth` and scores
   * `otherScriptShare` of the best. A message's own characters and pairs reach every memory written
   * in its script; a translation is one term at a lower weight.
   */
  private seatOtherScript(best: number[], groups: readonly QueryGroup[], scores: ArrayLike<number>): void {
    const rank = this.options.otherScriptRank
    const window = Math.min(best.length, this.options.abstainDepth)
    if (rank === 0 || window <= rank) return
    const chineseMessage = groups.filter((g) => isCjkTerm(g.term)).length * 2 > groups.length
    const inOtherScript = (slot: number): boolean => this.writtenInEnglish(slot) === chineseMessage
    for (let i = 0; i < rank; i++) if (inOtherScript(best[i]!)) return
    const enough = this.options.otherScriptShare * scores[best[0]!]!
    for (let i = rank; i < window; i++) {
      const slot = best[i]!
      if (!inOtherScript(slot)) continue
      if (scores[slot]! < enough) return
      best.splice(i, 1)
      best.splice(rank - 1, 0, slot)
      return
    }
  }

  /** Most of the memory's distinct terms are not Chinese (a Chinese sentence with English words in it is Chinese: its characters and pairs outnumber them). */
  private writtenInEnglish(slot: number): boolean {
    const pairs = this.terms.docTerms(slot)!.pairs
    let latin = 0
    for (let i = 0; i < pairs.length; i += 2) if (!isCjkTerm(this.terms.term(pairs[i]!)!)) latin++
    return latin * 4 > pairs.length
  }

  /**
   * The text score (BM25 times source weight and recency) of every document that can rank within
   * `depth` of all accepted ones or `admittedDepth` of the admitted ones, in `scores`; returns those
   * slots. Others may be left at 0: `scoreLate` scores one when a boost needs it. The walk of
   * every list (`scoreEveryDocument`) is the oracle the tests compare this with.
   */
  protected scoreText(text: TextScoring): number[] {
    // Feedback re-weights the touched documents after the walk: only the full walk knows them all.
    if (this.options.feedbackWeight > 0 || !text.scorer.prunable) return this.scoreEveryDocument(text)
    return scoreBest(this.terms, text, this.options)
  }

  /** Every document that holds a query term, scored; feedback (if on) re-weights them. */
  protected scoreEveryDocument(text: TextScoring): number[] {
    const { scores, accept } = text
    const touched = accumulateBm25(this.terms, text.scorer.terms, this.options, scores, accept)
    // Summed term by term, a document holding a word has its pieces too: its own score drops them.
    if (text.scorer.dropsPieces) for (const slot of touched) scores[slot] = text.scorer.score(slot)
    // Feedback re-ranks what the query itself matched; it never brings in a memory that shares no query word.
    const expansion = feedbackTerms(this.terms, (slot) => this.records[slot]!.id, this.options, touched, scores, text.scorer.terms)
    if (expansion.length > 0) accumulateBm25(this.terms, expansion, this.options, scores, (slot) => scores[slot]! > 0 && (accept === undefined || accept(slot)))
    for (const slot of touched) scores[slot]! *= text.multiplier(slot)
    return touched
  }

  /**
   * The days a message names (time-range.ts) are one more word of it, which every memory written
   * then holds: it adds what a query word held by that many memories adds (its idf, at
   * `namedTimeWeight`). Each of those memories is scored, so the pruned walk answers as the full
   * one; when they are too many (`NAMED_TIME_MOST`: 去年 in a large store) the days add nothing,
   * as a word most memories hold adds almost nothing. A short stretch (`NAMED_TIME_PULL_DAYS`)
   * also brings in its memories that share no other word with the message: 昨天发生啥了 is asked of the day.
   */
  private liftNamedTime(text: TextScoring, when: NamedTime, touched: number[]): void {
    const held = this.timeline.count(when.fromMs, when.toMs)
    if (held === 0 || held > NAMED_TIME_MOST) return
    const { scores } = text
    const worth = this.options.namedTimeWeight * inverseDocumentFrequency(this.terms.docCount, held)
    const pull = when.toMs - when.fromMs <= NAMED_TIME_PULL_DAYS * DAY_MS
    for (const slot of this.timeline.between(when.fromMs, when.toMs, held)) {
      if (text.accept !== undefined && !text.accept(slot)) continue
      if (scores[slot] === 0) {
        // Left unscored by the pruned walk, or holding no word of the message.
        this.scoreLate(text, slot, touched)
        const scored: number = scores[slot]!
        if (scored === 0) {
          if (!pull) continue
          touched.push(slot)
        }
      }
      scores[slot]! += worth * text.multiplier(slot)
    }
  }

  /** Score `slot` now if it holds a query term and was left out (scoreText): a boost is about to read it. */
  private scoreLate(text: TextScoring, slot: number, touched: number[]): void {
    if (text.scores[slot] !== 0 || (text.accept !== undefined && !text.accept(slot))) return
    const score = text.scorer.score(slot)
    if (score === 0) return
    text.scores[slot] = score * text.multiplier(slot)
    touched.push(slot)
  }

  // The abstention rule's inputs (see abstain.ts): the query's idf mass, one group per
  // thing it asks about (an unknown word at the highest idf), against the most that one
  // of the best hits matches — a group counts when the hit holds its term, or (at
  // `translationCredit`) one of its translations.
  private abstains(
    groups: readonly QueryGroup[],
    best: readonly number[],
    kind: AnswerKind | undefined,
    when?: { terms: ReadonlySet<string>; holds: (slot: number) => boolean },
  ): { abstain: AbstainVerdict; coverage: number } {
    // Weighed as if the store held at least ABSTAIN_PRIOR_DOCS memories: in a store of three, a word
    // every memory holds would weigh almost nothing beside a word none holds (the first hour).
    const docCount = Math.max(this.terms.docCount, ABSTAIN_PRIOR_DOCS)
    const rareTermMass = inverseDocumentFrequency(docCount, 0)
    const idfOf = (termId: number): number => inverseDocumentFrequency(docCount, this.terms.documentFrequency(termId))
    const massOf = groups.map((g) => g.weight * (g.id === undefined ? rareTermMass : inverseDocumentFrequency(docCount, this.terms.documentFrequency(g.id))))
    let queryMass = 0
    for (const mass of massOf) queryMass += mass
    const coverageOf = (g: QueryGroup, held: ReadonlySet<number>): number =>
      groupCoverage(g, held, this.options, g.id === undefined ? rareTermMass : idfOf(g.id), idfOf)
    let bestMatchedMass = 0
    let onlyCharacters = false
    const matchedBy: number[] = []
    const heldBy: Set<number>[] = []
    for (const slot of best) {
      const held = new Set<number>()
      const pairs = this.terms.docTerms(slot)!.pairs
      for (let i = 0; i < pairs.length; i += 2) held.add(pairs[i]!)
      let matched = 0
      // The words that name a time are held by every memory written then.
      const dated = when !== undefined && when.holds(slot)
      groups.forEach((g, i) => (matched += massOf[i]! * (dated && when.terms.has(g.term) ? 1 : coverageOf(g, held))))
      // 抽 of 抽屉 and 烟 of 烟花 are not 抽烟: characters count beside a word the memory holds, never alone.
      if (this.options.abstainWholeWord && matched > 0 && !groups.some((g) => holdsWord(g, held))) {
        onlyCharacters = true
        matched = 0
      }
      bestMatchedMass = Math.max(bestMatchedMass, matched)
      matchedBy.push(matched)
      heldBy.push(held)
    }
    if (onlyCharacters && !(bestMatchedMass > 0)) return { abstain: 'only-characters', coverage: 0 }
    const rule = {
      minCoverage: this.options.abstainCoverage,
      enoughRareTerms: this.options.abstainEnough,
      minSpecificMass: this.options.abstainSpecific,
      specificCoverage: this.options.abstainSpecificCoverage,
    }
    const unknownPerson = groups.some((g) => isPersonWord(g.term) && g.id === undefined && g.alternatives.length === 0 && g.parts.chars.length === 0)
    // A person or a place, not an app: 我在德国留学学的什么 is about somewhere else; 直接发微信行不行 still asks about the boss.
    const unknownName = namesTheUnknown(groups.filter((g) => mayBeUnknownName(g.term)))
    const input = { queryMass, bestMatchedMass, rareTermMass, unknownPerson, unknownName }
    const verdict = abstainVerdict(input, rule)
    const share = coverage(input)
    if (verdict !== 'keep' || !(bestMatchedMass > 0)) return { abstain: verdict, coverage: share }
    // The memories about the message: those holding at least half of what the best one holds of it.
    const about = heldBy.filter((_, i) => matchedBy[i]! >= ABOUT_SHARE * bestMatchedMass)
    if (this.options.abstainMissingThing && share < rule.specificCoverage && !this.holdsAThing(groups, about, coverageOf))
      return { abstain: 'missing-thing', coverage: share }
    // A person's name is often written bare (弟弟小川, 王老师): only a thing's or an animal's is asked for by kind.
    const asksPersonName = (): boolean => kind === 'name' && groups.some((g) => isPersonWord(g.term) || isPerson(g.term))
    if (this.options.abstainAnswerKind && kind !== undefined && !asksPersonName()) {
      // 朵朵生日是哪天: whose birthday is asked. The date is in a memory about 朵朵, not in one that
      // only shares 天 and holds some October. Other kinds are not held to this: a sum or an age is
      // often written where the thing is named otherwise (主子 for the cat, 看医生 for the vet's bill).
      const subject = kind === 'birthday' ? subjectOf(groups, idfOf) : undefined
      const answering = subject === undefined ? about : about.filter((held) => coverageOf(subject, held) > 0)
      if (!this.holdsAnAnswer(kind, answering, groups)) return { abstain: 'no-answer', coverage: share }
    }
    return { abstain: 'keep', coverage: share }
  }

  /**
   * True unless the message names Chinese things (things.ts) and none of the memories about it
   * holds one of them, or a kind of one. Without either dictionary nothing can be told: true.
   */
  private holdsAThing(
    groups: readonly QueryGroup[],
    about: readonly ReadonlySet<number>[],
    coverageOf: (g: QueryGroup, held: ReadonlySet<number>) => number,
  ): boolean {
    const lexicon = thingLexicon()
    if (lexicon === null) return true
    const things = groups.filter((g) => isCjkTerm(g.term) && !mentionsTime(g.term) && isThing(g.term, lexicon))
    // A lone character is often a piece the segmenter split off (水 of 喝茶水): it never decides alone.
    if (things.every((g) => isSingleCjkCharacter(g.term))) return true
    if (about.some((held) => things.some((g) => coverageOf(g, held) >= THING_HELD))) return true
    return things.some((g) => {
      const kinds: number[] = []
      for (const term of kindTerms(g.term, lexicon)) {
        const id = this.terms.termId(term)
        if (id !== undefined) kinds.push(id)
      }
      return about.some((held) => kinds.some((id) => held.has(id)))
    })
  }

  /** True when one of the memories about the message holds an answer of the kind it asks for (answer-kind.ts). */
  private holdsAnAnswer(kind: AnswerKind, about: readonly ReadonlySet<number>[], groups: readonly QueryGroup[]): boolean {
    const test = nameTest()
    // A name the question itself says (Azhe of "the café where Azhe proposed", its 阿哲) is what it asks about, not its answer.
    const said = new Set<string>()
    for (const g of groups) for (const id of g.id === undefined ? g.alternatives : [g.id, ...g.alternatives]) said.add(this.terms.term(id))
    const isName = (term: string): boolean => !said.has(term) && test(term)
    return about.some((held) =>
      holdsAnswer(
        kind,
        [...held].map((id) => this.terms.term(id)),
        isName,
      ),
    )
  }

  // A source with weight 0 is never recalled; leaving it out also keeps every
  // touched score above 0, which is how "touched" is told apart from "not yet".
  private sourceFilter(sources: readonly RecallSource[] | undefined): ((slot: number) => boolean) | undefined {
    const weights = this.options.sourceWeights
    const allowed = new Set((sources ?? RECALL_SOURCES).filter((source) => weights[source] > 0))
    if (RECALL_SOURCES.every((source) => allowed.has(source))) return undefined
    return (slot) => allowed.has(this.records[slot]!.source)
  }

  toJSON(): SerializedRecallIndex {
    return serializeIndex(this.docsToSave(), (termId) => this.terms.term(termId), tokenizerSignature(), this.fingerprint())
  }

  /**
   * Load an index saved by toJSON. Throws RecallFormatError if the data is not a
   * valid index of this format version and tokenizer; the caller then rebuilds.
   */
  static fromJSON(data: unknown, options: RecallOptionsInput = {}): RecallIndex {
    const { vocabulary, docs } = parseSerializedIndex(data, tokenizerSignature())
    const index = new RecallIndex(options)
    const termIds = vocabulary.map((term) => index.terms.intern(term))
    for (const doc of docs) {
      const pairs = new Int32Array(doc.terms.length)
      for (let i = 0; i < pairs.length; i += 2) {
        pairs[i] = termIds[doc.terms[i]!]!
        pairs[i + 1] = doc.terms[i + 1]!
      }
      index.insert(doc, pairs, doc.length)
    }
    if (index.fingerprint() !== (data as SerializedRecallIndex).fingerprint) {
      throw new RecallFormatError('fingerprint does not match the documents')
    }
    return index
  }

  /** The index as columns (columns.ts `packColumns`): the binary cache of a large store. */
  toColumns(): IndexColumns {
    this.terms.readAll()
    const slots = [...this.slotsById.values()]
    const terms = { text: (id: number) => this.terms.term(id), postings: (id: number) => this.terms.postingsOf(id) }
    return columnsOf(this.docsToSave(), slots, terms, tokenizerSignature(), this.fingerprint())
  }

  /**
   * Load columns read by columns-read.ts `readColumns`: the documents' records now, their term
   * lists when first wanted (no posting is added one by one); RecallFormatError for another
   * tokenizer or a repeated id, and later for a list that does not check out.
   */
  static fromColumns(c: LoadedColumns, options: RecallOptionsInput = {}): RecallIndex {
    if (c.tokenizer !== tokenizerSignature()) throw new RecallFormatError(`built by tokenizer ${c.tokenizer}, this one is ${tokenizerSignature()}`)
    const index = new RecallIndex(options)
    index.terms.load(c.vocabulary, c)
    for (let slot = 0; slot < c.ids.length; slot++) {
      const id = c.ids[slot]!
      const links = c.links[slot] ?? NO_LINKS
      const kind = c.kinds[slot] ?? undefined
      const record = new LoadedRecord(c, slot, id, c.sources[slot]!, kind, links)
      index.records.push(undefined)
      index.place(slot, record)
      // One look-up per id, not two: a repeated id leaves the map short of a document.
      if (index.slotsById.size !== slot + 1) throw new RecallFormatError(`duplicate id ${id}`)
    }
    // Not checked against c.fingerprint here: the columns were checked, and recomputing the set's hash cost more than a search.
    return index
  }

  /** Read every list of a loaded cache now (the host's worker: no read of the cache later). */
  readAll(): void {
    this.terms.readAll()
  }

  private insert(meta: Omit<IndexedDocMeta, 'length'>, pairs: Int32Array, length: number): void {
    this.remove(meta.id)
    const slot = this.allocateSlot()
    const linkTargets = distinctLinkTargets(meta.links, meta.id)
    const record: DocRecord = {
      id: meta.id,
      at: meta.at,
      atMs: parseTime(meta.at),
      source: meta.source,
      kind: meta.kind,
      links: [...meta.links],
      linkTargets,
      fingerprint: meta.fingerprint,
    }
    this.terms.addPairs(slot, pairs, length)
    this.place(slot, record)
  }

  /** A document's record in its slot, with everything kept beside it (its terms are already in `terms`). */
  private place(slot: number, record: DocRecord): void {
    this.records[slot] = record
    this.noteSlot(slot, record)
    this.slotsById.set(record.id, slot)
    this.timeline.add(slot, record.atMs, record.id)
    for (const target of record.linkTargets) {
      let sources = this.backlinks.get(target)
      if (sources === undefined) this.backlinks.set(target, (sources = new Set()))
      sources.add(record.id)
    }
  }

  private noteSlot(slot: number, record: DocRecord): void {
    if (this.slotAtMs.length <= slot) {
      const size = Math.max(64, this.slotAtMs.length * 2, slot + 1)
      const at = new Float64Array(size)
      at.set(this.slotAtMs)
      const weight = new Float64Array(size)
      weight.set(this.slotSourceWeight)
      this.slotAtMs = at
      this.slotSourceWeight = weight
    }
    this.slotAtMs[slot] = record.atMs
    this.slotSourceWeight[slot] = this.options.sourceWeights[record.source]
  }

  private allocateSlot(): number {
    const reused = this.freeSlots.pop()
    if (reused !== undefined) return reused
    if (this.records.length >= MAX_SLOTS) throw new RangeError(`recall index is full (${MAX_SLOTS} documents)`)
    this.records.push(undefined)
    return this.records.length - 1
  }

  private matchedTerms(slot: number, queryTerms: ReadonlySet<number>): string[] {
    const pairs = this.terms.docTerms(slot)!.pairs
    const matched: string[] = []
    for (let i = 0; i < pairs.length; i += 2) {
      if (queryTerms.has(pairs[i]!)) matched.push(this.terms.term(pairs[i]!))
    }
    return matched.sort()
  }

  private neighbourIds(id: string): string[] {
    const slot = this.slotsById.get(id)
    const out = new Set<string>(slot === undefined ? [] : this.records[slot]!.linkTargets)
    for (const source of this.backlinks.get(id) ?? []) out.add(source)
    return [...out]
  }

  private scratchScores(): Float64Array {
    if (this.scratch.length < this.records.length) {
      this.scratch = new Float64Array(Math.max(this.records.length, this.scratch.length * 2, 64))
    }
    return this.scratch
  }

  private liveRecords(): DocRecord[] {
    return this.records.filter((r): r is DocRecord => r !== undefined)
  }

  private *docsToSave(): Iterable<DocToSave> {
    for (const [id, slot] of this.slotsById) {
      const record = this.records[slot]!
      const { pairs, length } = this.terms.docTerms(slot)!
      const doc: DocToSave = { id, at: record.at, source: record.source, links: record.links, fingerprint: record.fingerprint, length, pairs }
      if (record.kind !== undefined) doc.kind = record.kind
      yield doc
    }
  }
}

/** A kind of person to WordNet (牙医, teacher); false without the dictionaries. */
function isPerson(term: string): boolean {
  return wordKinds()?.personTerm(term) === true
}

/** A memory is about the message when it holds at least this share of what the best one holds of it. */
const ABOUT_SHARE = 0.5

/**
 * A memory holds a thing when it holds at least this much of the word: all of it, a translation, a
 * synonym, or half its characters at the default cjkCharWeight (茶 of 茶水: the word's head is evidence enough).
 */
const THING_HELD = 0.25

/**
 * Which index terms could be a name: a Chinese word CC-CEDICT only capitalises, or any Latin word
 * (the index keeps no capitals, and Mochi, Kevin or Apple are dictionary words too). Without the
 * dictionary every term could be one.
 */
function nameTest(): (term: string) => boolean {
  const dict = bilingualDictionary()
  if (dict === null) return () => true
  return (term) => (isCjkTerm(term) ? isChineseName(term, dict) : /^[a-z]/.test(term) && !isNumberTerm(term))
}

/** Each Chinese word of the message the index holds, with the characters and pairs it is found by when a memory writes it otherwise (query-scorer.ts WordPieces). */
function wordPieces(groups: readonly QueryGroup[]): WordPieces[] {
  const out: WordPieces[] = []
  for (const g of groups) {
    if (g.id === undefined || !isCjkTerm(g.term) || isSingleCjkCharacter(g.term)) continue
    const pieces = [...g.parts.chars, ...g.parts.pairs]
    if (pieces.length > 0) out.push({ word: g.id, pieces })
  }
  return out
}

/**
 * True when the name `term` may be what a message about the unknown is about: a person or a place
 * (Caroline, Paris, 德国, 巴黎), not an app, a shop or a brand the message only goes through (直接发
 * 微信行不行, 在淘宝买的): a Chinese name every sense of which CC-CEDICT describes as one (decision 125).
 */
function mayBeUnknownName(term: string): boolean {
  if (!isCjkTerm(term)) return true
  const senses = bilingualDictionary()?.sensesWithNotes(term) ?? []
  return senses.length === 0 || !senses.every((sense) => PRODUCT_SENSE.test(sense))
}

/** How CC-CEDICT describes an app, a service, a shop or a brand. */
const PRODUCT_SENSE =
  /\b(?:app|apps|application|platform|service|website|portal|search engine|e-commerce|company|corporation|brand|retailer|chain|store|supermarket|software|messaging|social media|social network(?:ing)?)\b/

/** The most specific thing the message asks about that the store holds (the rarest held word of several characters, or a Latin word): what an answer must be about. */
function subjectOf(groups: readonly QueryGroup[], idfOf: (termId: number) => number): QueryGroup | undefined {
  let best: QueryGroup | undefined
  for (const g of groups) {
    if (g.id === undefined || g.term === TIME_TERM || isSingleCjkCharacter(g.term)) continue
    if (best === undefined || idfOf(g.id) > idfOf(best.id!)) best = g
  }
  return best
}

/** True when a document holds the group's word itself or one of its translations, not only characters of it. */
function holdsWord(group: QueryGroup, held: ReadonlySet<number>): boolean {
  return (group.id !== undefined && held.has(group.id)) || group.alternatives.some((id) => held.has(id))
}

/** How much of one thing the message asks about a document holds: all of it, its translation, or pieces of the word. */
function groupCoverage(group: QueryGroup, held: ReadonlySet<number>, options: RecallOptions, groupIdf: number, idfOf: (termId: number) => number): number {
  if (group.id !== undefined && held.has(group.id)) return 1
  // A translation is evidence as specific as the translated word is in this store, never more than the word itself.
  let translated = 0
  for (const id of group.alternatives) if (held.has(id)) translated = Math.max(translated, Math.min(1, idfOf(id) / groupIdf))
  if (translated > 0) return options.translationCredit * translated
  const { chars, charCount, pairs, pairCount } = group.parts
  const charShare = charCount > 0 ? chars.filter((id) => held.has(id)).length / charCount : 0
  const pairShare = pairCount > 0 ? pairs.filter((id) => held.has(id)).length / pairCount : 0
  return Math.max(options.cjkCharWeight * charShare, pairShare)
}

/** Fingerprint of a document set as the store sees it; equals index.fingerprint() when the index is current. */
export function fingerprintDocs(docs: Iterable<RecallDoc>): string {
  return fingerprintSet([...docs].map((d) => [d.id, fingerprintDoc(d)] as const))
}

function resolveNow(now: Date | number | undefined): number {
  const ms = now instanceof Date ? now.getTime() : now
  return typeof ms === 'number' && Number.isFinite(ms) ? ms : Date.now()
}
