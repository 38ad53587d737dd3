// A message turned into what the index searches for: its own terms, weighted, plus
// their translations (bilingual.ts) below them; and, for abstention, one group per
// thing the message asks about (a term and the translations that stand for it).

import type { WeightedTerm } from './bm25/score.ts'
import { bilingualDictionary, type BilingualDictionary } from './bilingual.ts'
import { clipText, normalizeText } from './normalize.ts'
import type { RecallOptions } from './options.ts'
import { CHINESE_FRAME_WORDS, CHINESE_LIGHT_WORDS, CHINESE_STOP_WORDS, ENGLISH_LIGHT_WORDS } from './stopwords.ts'
import { kinTranslations } from './people.ts'
import { pivotTranslations } from './pivot.ts'
import { relatedForms, stemEnglish } from './stem.ts'
import { colloquialSynonyms } from './synonyms.ts'
import { englishSynonyms } from './english-synonyms.ts'
import { namedTime } from './time-range.ts'
import { asksWhen, festivalsNamed, TIME_TERM } from './time-words.ts'
import { markNames } from './names.ts'
import { impliedTopics } from './asked-topics.ts'
import { wordKinds } from './word-kinds.ts'
import { englishRelationPhrases, isPlausibleName, readAliasTerm, relationsNamed } from './aliases.ts'
import { heldSpellings, syllabify, syllableSpellings } from './pinyin.ts'
import { cjkWordRuns, cjkWordsOf, isCjkTerm, isSingleCjkCharacter, tokenize } from './tokenize.ts'

/** What the query needs to know of the index. */
export interface TermLookup {
  termId(term: string): number | undefined
  documentFrequency(termId: number): number
  readonly docCount: number
  /** The term of an id, and the index's own marked terms (aliases.ts); an index without them has no aliases. */
  term?(id: number): string
  trackedTerms?(): readonly number[]
}

/** One thing the message asks about: its own term (if any document holds it) and the indexed translations that stand for it. */
export interface QueryGroup {
  term: string
  /** The term's id when some document holds it. */
  id: number | undefined
  weight: number
  /** Ids of indexed translations of the term. */
  alternatives: number[]
  /** For a CJK word of several characters: the ids of its indexed characters and (3+ characters) pairs, and how many it has. */
  parts: { chars: number[]; charCount: number; pairs: number[]; pairCount: number }
  /** The term is a name: a Chinese word the dictionary only ever capitalises (巴黎), an English word the message capitalises mid-sentence (Paris). */
  name?: boolean
  /** A Chinese name the index holds in its short form (日 of 日语 for 日本, 美 of 美剧 for 美国). */
  abbreviated?: boolean
}

export interface BuiltQuery {
  terms: WeightedTerm[]
  /** Topical groups (the time term and straddling CJK pairs are not topics). */
  groups: QueryGroup[]
}

/** A dictionary is looked up only when the message has something to translate; tests may pass their own. */
export type DictionarySource = () => BilingualDictionary | null

/** A translation in more documents than both of these is too common to be worth its postings. */
const COMMON_TRANSLATION_DF = 1000
const COMMON_TRANSLATION_SHARE = 0.01

const ENGLISH_LIGHT: ReadonlySet<string> = new Set(ENGLISH_LIGHT_WORDS.map(stemEnglish))
const CHINESE_FRAME: ReadonlySet<string> = new Set(CHINESE_FRAME_WORDS)

/** A word that says what is asked, not what about: not a topic, not translated. */
export function isLightTerm(term: string): boolean {
  if (isCjkTerm(term)) return CHINESE_LIGHT_WORDS.has(term) || CHINESE_FRAME.has(term)
  return ENGLISH_LIGHT.has(term)
}

const FUNCTION_MORPHEMES: ReadonlySet<string> = new Set([...CHINESE_STOP_WORDS, ...CHINESE_LIGHT_WORDS, ...CHINESE_FRAME_WORDS])

// Attached to a word by the segmenter (我爸, 学的, 猫叫了), never part of its meaning.
const PRONOUNS = new Set(['我', '你', '他', '她', '它'])
const PARTICLES = new Set(['的', '了', '吗', '呢', '吧', '啊', '着'])

/**
 * A Chinese word without the function words at its edges; '' when nothing else is left.
 * A function word of several characters (什么, 时候) always goes; a single character only
 * when it is a pronoun in front, a particle behind, or the word is not a dictionary word
 * (过 of 过敏 stays, 过 of 去过 goes).
 */
export function topicCore(word: string, isWord: (word: string) => boolean = () => true): string {
  let w = word
  for (let cut = w; w !== ''; w = cut) {
    if (FUNCTION_MORPHEMES.has(w)) return ''
    cut = stripEdge(w, isWord(w))
    if (cut === w) return w
  }
  return w
}

/** `word` without one function word at its front or its back (the longest first), or unchanged. */
function stripEdge(word: string, lexical: boolean): string {
  for (let n = Math.min(3, word.length - 1); n >= 1; n--) {
    const head = word.slice(0, n)
    if (FUNCTION_MORPHEMES.has(head) && (n > 1 || !lexical || PRONOUNS.has(head))) return word.slice(n)
    const tail = word.slice(-n)
    if (FUNCTION_MORPHEMES.has(tail) && (n > 1 || !lexical || PARTICLES.has(tail))) return word.slice(0, -n)
  }
  return word
}

/** A translation that is a stop or light word where it lands (ever → 从, go → 去) carries no topic: not searched. */
function isLightTranslation(term: string): boolean {
  return isCjkTerm(term) ? CHINESE_STOP_WORDS.has(term) || CHINESE_LIGHT_WORDS.has(term) || CHINESE_FRAME.has(term) : ENGLISH_LIGHT.has(term)
}

/** The words of a question that name the kind of its answer: a day of the week, a sum, an age (matched on the folded text: 幾歲 is 几岁). */
const KIND_FRAMES = /星期几|礼拜几|周几|多少钱|几块钱|多大岁数|多少岁|几岁/g

/** A two-word phrase stands for both words. */
const PHRASE_WORDS = 2
/**
 * A Chinese phrase the segmenter left in pieces (每个|月) is translated word by word of its sense
 * ("every", "month"): each of those stands for one word, not for the phrase.
 */
const JOIN_WORDS = 1
/** Chinese words searched per English word (the shortest indexed ones: 猫 before 猫咪). */
const ZH_KEPT = 4

export function buildQuery(query: string, index: TermLookup, options: RecallOptions, dictionary: DictionarySource = bilingualDictionary): BuiltQuery {
  const clipped = clipText(query, options.maxQueryChars)
  const normalized = normalizeText(clipped)
  // What only the question's frame names (我是干什么的 → 工作) is searched as if written.
  const implied = impliedTopics(normalized)
  const searched = implied.length === 0 ? clipped : `${clipped}\n${implied.join('\n')}`
  // The message was clipped already: the words added to it are not clipped again.
  const searchedChars = Math.max(options.maxQueryChars, searched.length)
  const tokens = tokenize(searched, searchedChars)
  const distinct = new Set(tokens)
  if (asksWhen(clipped)) distinct.add(TIME_TERM)
  // Below the message's own words: 我爸是做什么的 is answered by 爸爸是中学数学老师, which says no 工作.
  const impliedTerms = new Set(implied.flatMap((word) => tokenize(word)))
  const weightOf = (term: string): number =>
    term === TIME_TERM ? options.timeWeight : impliedTerms.has(term) ? options.impliedWeight : isSingleCjkCharacter(term) ? options.cjkCharWeight : 1
  const dfOf = (id: number | undefined): number => (id === undefined ? 0 : index.documentFrequency(id))

  // The words the segmenter finds, without the function morphemes at their edges (我爸 → 爸,
  // 猫叫 → 猫, 学的 → 学, 什么时候 → nothing): what the message is about.
  const chineseWords = new Set<string>()
  const segmented = cjkWordsOf(searched, searchedChars)
  const dict = options.translationWeight > 0 && segmented.length > 0 ? dictionary() : null
  const isWord = (w: string): boolean => dict === null || dict.english(w).length > 0
  for (const word of segmented) {
    const core = topicCore(word, isWord)
    if (core !== '') chineseWords.add(core)
  }
  const runs = cjkWordRuns(searched, searchedChars)
  for (const { word, parts } of [...(dict === null ? [] : dictionaryJoins(runs, dict)), ...tableJoins(runs)]) {
    for (const part of parts) chineseWords.delete(part)
    chineseWords.add(word)
  }
  // 星期几, 多少钱, 几岁 say what kind of answer is wanted (answer-kind.ts), not what the message is about.
  const framed = new Set((normalized.match(KIND_FRAMES) ?? []).flatMap((phrase) => tokenize(phrase)))
  // 上周, 上个月, last week name when, which the index reads from the memories' dates (time-range.ts): no
  // words to translate (上个 → first, last). Which words name a time does not depend on the day asked (0).
  const timeWords = new Set((namedTime(normalized, 0)?.words ?? []).flatMap((word) => tokenize(word)))
  let known: { id: number; term: string; df: number }[] = []
  const groups: QueryGroup[] = []
  const knownId = (term: string): number | undefined => {
    const id = index.termId(term)
    return dfOf(id) > 0 ? id : undefined
  }
  for (const term of new Set([...distinct, ...chineseWords])) {
    const id = knownId(term)
    if (id !== undefined && distinct.has(term)) known.push({ id, term, df: dfOf(id) })
    // What the message is about: its English words and the words the segmenter finds in
    // its Chinese (one-character words too). Characters and pairs are how a word is
    // found, not topics: 什 and 么 of 什么, a pair that straddles two words (喝什|么茶).
    // A known pair stays a topic: it is what bridges two segmentations (喜欢|喝茶 and 想|喝|茶水 share 喝茶).
    const topical =
      term !== TIME_TERM &&
      !isLightTerm(term) &&
      !framed.has(term) &&
      (isCjkTerm(term) ? chineseWords.has(term) || (id !== undefined && !isSingleCjkCharacter(term) && topicCore(term, isWord) === term) : true)
    if (topical && weightOf(term) > 0) groups.push({ term, id, weight: weightOf(term), alternatives: [], parts: wordParts(term, knownId) })
  }
  if (known.length > options.maxQueryTerms) {
    known.sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : 1))
    known = known.slice(0, options.maxQueryTerms)
  }
  const weights = new Map<number, { term: string; weight: number }>()
  for (const t of known) if (weightOf(t.term) > 0) weights.set(t.id, { term: t.term, weight: weightOf(t.term) })

  // The words of a named time are searched as themselves only: the memories' dates answer them.
  const translatable = timeWords.size === 0 ? groups : groups.filter((g) => !timeWords.has(g.term))
  if (options.synonymWeight > 0) expandSynonyms(chineseWords, translatable, index, options, weights)
  if (options.translationWeight > 0) {
    translate(chineseWords, translatable, index, options, dictionary, weights, isLightTranslation)
    translatePhrases(tokens, translatable, index, options, dictionary, weights)
    if (dict !== null) translateChineseJoins(runs, translatable, index, options, dict, isWord, weights)
    spellNames(clipped, runs, translatable, index, options, dictionary, weights)
    const bare = options.pivotWeight > 0 ? translatable.filter((g) => g.alternatives.length === 0 && (isCjkTerm(g.term) ? chineseWords.has(g.term) : true)) : []
    const detourDict = bare.length > 0 ? dictionary() : null
    if (detourDict !== null) translateBare(bare, detourDict, index, options, weights)
    // A question's frame (like, name, say; 叫, 喜欢) is no topic, but its translation still ranks:
    // "do I like" finds 我最喜欢 below the words the question is about. Never counted by abstention.
    const frames = framesOf(distinct, segmented, knownId)
    if (frames.length > 0)
      translate(
        new Set(segmented),
        frames,
        index,
        { ...options, translationWeight: options.translationWeight * FRAME_SHARE, untranslatedFullWeight: false },
        dictionary,
        weights,
        (t) => isCjkTerm(t) && CHINESE_STOP_WORDS.has(t),
      )
    searchRelationNames(clipped, groups, index, options, dict ?? dictionary(), weights)
    searchFestivals(normalized, groups, index, options, weights)
    // Like every other search across languages here, only with the dictionary installed.
    if (options.placeWeight > 0 && (dict ?? dictionary()) !== null) searchPlacesWithin(clipped, translatable, index, options, weights)
  }

  markNames(clipped, groups, dict, knownId, (word) => wordKinds()?.nounWord(word) === true)
  const terms = [...weights].sort((a, b) => (a[1].term < b[1].term ? -1 : 1)).map(([id, { weight }]) => ({ id, weight }))
  return { terms, groups }
}

// Each group's term looked up in the other language; an indexed translation joins the
// search at `translationWeight` of the term's own weight (never above a term the
// message itself holds) and is recorded as standing for the group.
function translate(
  chineseWords: ReadonlySet<string>,
  groups: QueryGroup[],
  index: TermLookup,
  options: RecallOptions,
  dictionary: DictionarySource,
  weights: Map<number, { term: string; weight: number }>,
  skip: (term: string) => boolean,
): void {
  const wanted = groups.filter((g) => (isCjkTerm(g.term) ? chineseWords.has(g.term) : true))
  if (wanted.length === 0) return
  const dict = dictionary()
  if (dict === null) return
  for (const group of wanted) {
    const candidates = isCjkTerm(group.term) ? dict.english(group.term) : [...kinTranslations(group.term), ...dict.chinese(group.term)]
    // Below the word itself when some memory holds the word; when none does, the
    // translation is the only way to the memory, and there is nothing to stay below.
    const direct = group.id === undefined && options.untranslatedFullWeight ? 1 : options.translationWeight
    const most = isCjkTerm(group.term) ? Infinity : ZH_KEPT
    searchTranslations(
      group,
      candidates,
      most,
      (c) => direct * (isSingleCjkCharacter(c) ? Math.max(group.weight, options.cjkCharWeight) : group.weight),
      skip,
      index,
      weights,
    )
    // The dictionary's words are not always the person's (subway for a memory's metro, 按揭 for
    // one that says 房贷): a translation's everyday synonyms search below it.
    if (options.synonymWeight <= 0) continue
    const share =
      group.id === undefined && group.alternatives.length === 0 && options.untranslatedFullWeight ? 1 : options.translationWeight * options.synonymWeight
    let widened = 0
    for (const candidate of candidates) {
      if (!isCjkTerm(group.term) && widened >= ZH_KEPT) break
      if (skip(candidate)) continue
      let found = false
      for (const synonym of isCjkTerm(candidate) ? colloquialSynonyms(candidate) : englishSynonyms(candidate)) {
        const usable = usableForms(synonym, group, index)
        if (usable.length === 0) continue
        found = true
        standFor(group, usable, share * group.weight, weights)
      }
      if (found) widened++
    }
    // An English word's everyday synonyms are translated too (bday: birthday → 生日; bro: brother → 弟弟).
    if (isCjkTerm(group.term)) continue
    const viaSynonyms = englishSynonyms(group.term).flatMap((synonym) => dict.chinese(synonym))
    searchTranslations(group, viaSynonyms, ZH_KEPT, () => share * group.weight, skip, index, weights)
  }
}

/** Up to `most` of `candidates` the index holds (not `skip`ped) join the search at `weightOf(candidate)` and stand for `group`. */
function searchTranslations(
  group: QueryGroup,
  candidates: readonly string[],
  most: number,
  weightOf: (candidate: string) => number,
  skip: (term: string) => boolean,
  index: TermLookup,
  weights: Map<number, { term: string; weight: number }>,
): void {
  let kept = 0
  for (const candidate of candidates) {
    if (kept >= most) break
    if (skip(candidate)) continue
    const usable = usableForms(candidate, group, index)
    if (usable.length === 0) continue
    kept++
    standFor(group, usable, weightOf(candidate), weights)
  }
}

/** How the index holds a translation of a group's word: whole, or a Chinese word the segmenter split in the memories (情人|节) as its pairs; never the word itself, never a too common one. */
function usableForms(word: string, group: QueryGroup, index: TermLookup): { id: number; term: string; share: number }[] {
  const forms = isCjkTerm(word) ? indexedForms(word, index) : heldWhole(word, index)
  return forms.filter(({ id }) => id !== group.id && !tooCommon(id, index))
}

/** The forms join the search at `weight` (each at its share, never lowering a term already heavier) and stand for the group in abstention. */
function standFor(
  group: QueryGroup,
  forms: readonly { id: number; term: string; share: number }[],
  weight: number,
  weights: Map<number, { term: string; weight: number }>,
): void {
  for (const form of forms) {
    if (!group.alternatives.includes(form.id)) group.alternatives.push(form.id)
    const had = weights.get(form.id)
    if (had === undefined || had.weight < weight * form.share) weights.set(form.id, { term: form.term, weight: weight * form.share })
  }
}

// A country or a region the message names (日本, Japan, 加州) searches for the places within it
// that memories hold (places.ts: 大阪, Osaka, Kyoto), below the name like an everyday synonym, and
// standing for it in abstention: a trip written as Osaka is the trip to Japan asked about.
function searchPlacesWithin(
  text: string,
  groups: QueryGroup[],
  index: TermLookup,
  options: RecallOptions,
  weights: Map<number, { term: string; weight: number }>,
): void {
  // Worked out from WordNet and the dictionary (word-kinds.ts), shipped with the package.
  const kinds = wordKinds()
  if (kinds === null) return
  // WordNet is asked for the name as written (italy), not as tokenize stems it (itali).
  const written = new Map<string, string>()
  for (const word of text.match(/[A-Za-z]{2,}/g) ?? []) written.set(stemEnglish(word.toLowerCase()), word.toLowerCase())
  for (const group of groups) {
    const name = isCjkTerm(group.term) ? (isSingleCjkCharacter(group.term) ? undefined : group.term) : written.get(group.term)
    if (name === undefined) continue
    const forms = kinds.placesWithin(name).flatMap((place) => heldWhole(place, index))
    if (forms.length === 0) continue
    // Never the name's full weight, even when no memory holds the name: a memory may name several places within it.
    standFor(group, forms, options.placeWeight * group.weight, weights)
  }
}

/** Detour translations searched per word (pivot.ts: each reached by at least 2 % of the walk), the largest shares that the index holds. */
const PIVOT_KEPT = 3

// A word none of whose translations any memory holds is tried first by the other words of each
// translation's family (焦虑: anxious → anxiety, worried → worry: stem.ts `relatedForms`; an English
// word by its own), below the word like an everyday synonym; still bare, one detour further through
// the dictionary (writer: 作者, 作手, 撰述… → pivot.ts: writer → 作者 → author → 作家), below a direct
// translation. Either stands for the word in abstention as a translation does.
function translateBare(
  bare: readonly QueryGroup[],
  dict: BilingualDictionary,
  index: TermLookup,
  options: RecallOptions,
  weights: Map<number, { term: string; weight: number }>,
): void {
  for (const group of bare) {
    const english = isCjkTerm(group.term) ? dict.english(group.term).filter((t) => !isLightTranslation(t)) : [group.term]
    const share = isCjkTerm(group.term) ? options.translationWeight * options.synonymWeight : options.synonymWeight
    for (const term of english) {
      const forms = relatedForms(term).flatMap((form) => (isLightTranslation(form) ? [] : heldWhole(form, index)))
      if (forms.length === 0) continue
      // Cutting endings also finds strangers (brother → broth, passion → pass): a form is of the
      // family only when the dictionary gives it a Chinese word of two characters or more in common.
      const own = new Set(dict.chinese(term).filter((w) => !isSingleCjkCharacter(w)))
      const usable = forms.filter(({ id, term: form }) => !tooCommon(id, index) && dict.chinese(form).some((w) => own.has(w)))
      if (usable.length > 0) standFor(group, usable, share * group.weight, weights)
    }
    // The detour is for a word no memory holds, nor any direct translation of it: a word the store
    // holds is searched as itself, and the walk (hundreds of look-ups) was most of a new word's cost.
    if (group.alternatives.length > 0 || group.id !== undefined) continue
    // A name is translated by its own name or not at all: 日本 → Japan → 漆 (japan, lacquer) → china.
    if (group.name === true || (isCjkTerm(group.term) && dict.isName(group.term))) continue
    let kept = 0
    for (const { word } of pivotTranslations(group.term, dict, isLightTranslation)) {
      if (kept >= PIVOT_KEPT) break
      const forms = usableForms(word, group, index)
      if (forms.length === 0) continue
      kept++
      standFor(group, forms, options.pivotWeight * (isSingleCjkCharacter(word) ? Math.min(group.weight, options.cjkCharWeight) : group.weight), weights)
    }
  }
}

/** Readings tried per Chinese word, cuts per Latin word, and characters tried per cut (pinyin.ts). */
const SPELLINGS_KEPT = 16
const CUTS_KEPT = 8
const SPELLING_TRIES = 2_000

// A name no dictionary knows, written in one script and asked about in the other (decision 049):
// a Chinese word read as pinyin (苏苏 → susu) finds the memory that wrote Susu, and a Latin word
// the dictionary has no Chinese for, cut into syllables (Azhe → a·zhe), finds the memory that
// wrote 阿哲. The spelling searches and stands for the word as a translation does.
function spellNames(
  text: string,
  runs: readonly (readonly string[])[],
  groups: QueryGroup[],
  index: TermLookup,
  options: RecallOptions,
  dictionary: DictionarySource,
  weights: Map<number, { term: string; weight: number }>,
): void {
  const dict = dictionary()
  if (dict === null) return
  const held = (term: string): boolean => heldWhole(term, index).length > 0
  const spell = (group: QueryGroup, forms: readonly { id: number; term: string; share: number }[]): void => {
    const share = group.id === undefined && options.untranslatedFullWeight ? 1 : options.translationWeight
    standFor(group, forms, share * group.weight, weights)
  }
  for (const { word, stands } of chineseNameCandidates(runs, groups)) {
    // A word the dictionary translates is a word, not a name (苹果 is not pingguo to anyone)… unless the
    // person writes it both ways: 土豆 the cat in Chinese memories, "I named him Tudou" in English ones.
    const everyday = dict.english(word).length > 0 && !dict.isName(word)
    if (everyday && heldWhole(word, index).length === 0) continue
    const forms = heldPinyin(word, dict, index, !everyday)
    for (const group of stands) spell(group, forms)
  }
  for (const word of new Set((text.match(/[A-Za-z]{2,}/g) ?? []).map((w) => w.toLowerCase()))) {
    const group = groups.find((g) => g.term === stemEnglish(word))
    if (group === undefined || dict.chinese(group.term).length > 0) continue
    const found = syllabify(word, (syllable) => dict.isSyllable(syllable), CUTS_KEPT).flatMap((cut) =>
      cut.length < 2 ? [] : heldSpellings(cut, (syllable) => dict.spelledBy(syllable), held, SPELLING_TRIES),
    )
    spell(
      group,
      found.flatMap((form) => heldWhole(form, index)),
    )
  }
}

/**
 * The Chinese words that may be names: each topic of two characters or more, and each run of two
 * or three characters the segmenter left one by one, as a name it does not know comes apart
 * (苏|苏, 佩|玲), standing for the groups of its characters.
 */
function chineseNameCandidates(runs: readonly (readonly string[])[], groups: readonly QueryGroup[]): { word: string; stands: QueryGroup[] }[] {
  const out = groups.filter((g) => isCjkTerm(g.term) && Array.from(g.term).length >= 2).map((g) => ({ word: g.term, stands: [g] }))
  for (const run of runs)
    for (let i = 0; i < run.length; i++)
      for (const piece of loneCharacters(run, i)) {
        const stands = groups.filter((g) => piece.includes(g.term))
        if (stands.length > 0) out.push({ word: piece.join(''), stands })
      }
  return out
}

/** A translation held by a large share of a large store (时, 次 for "time") ranks almost nothing and would walk tens of thousands of postings: left out. */
function tooCommon(id: number, index: TermLookup): boolean {
  const df = index.documentFrequency(id)
  return df > COMMON_TRANSLATION_DF && df > COMMON_TRANSLATION_SHARE * index.docCount
}

function heldWhole(term: string, index: TermLookup): { id: number; term: string; share: number }[] {
  const id = index.termId(term)
  return id !== undefined && index.documentFrequency(id) > 0 ? [{ id, term, share: 1 }] : []
}

// Each Chinese topic's everyday synonyms (synonyms.ts: 对象 ~ 男朋友, 睡 ~ 失眠) join the search
// like a translation: below the word itself, as the word when no memory holds it, and
// standing for the topic in abstention.
function expandSynonyms(
  chineseWords: ReadonlySet<string>,
  groups: QueryGroup[],
  index: TermLookup,
  options: RecallOptions,
  weights: Map<number, { term: string; weight: number }>,
): void {
  for (const group of groups) {
    if (isCjkTerm(group.term) ? !chineseWords.has(group.term) : group.term === TIME_TERM) continue
    for (const synonym of isCjkTerm(group.term) ? colloquialSynonyms(group.term) : englishSynonyms(group.term)) {
      if (isLightTranslation(synonym)) continue
      const share = group.id === undefined && options.untranslatedFullWeight ? 1 : options.synonymWeight
      const weight = share * (isSingleCjkCharacter(synonym) ? Math.min(group.weight, options.cjkCharWeight) : group.weight)
      for (const form of indexedForms(synonym, index)) {
        if (form.id === group.id) continue
        if (!group.alternatives.includes(form.id)) group.alternatives.push(form.id)
        const had = weights.get(form.id)
        if (had === undefined || had.weight < weight * form.share) weights.set(form.id, { term: form.term, weight: weight * form.share })
      }
    }
  }
}

// Two English words in a row that CC-CEDICT glosses together ("valentine's day" → 情人节,
// "younger brother" → 弟弟): the Chinese word searches as a translation of both, and stands for
// each of the two in abstention. A word-by-word translation never finds it (day → 天, 日).
function translatePhrases(
  tokens: readonly string[],
  groups: QueryGroup[],
  index: TermLookup,
  options: RecallOptions,
  dictionary: DictionarySource,
  weights: Map<number, { term: string; weight: number }>,
): void {
  const english = tokens.filter((t) => !isCjkTerm(t) && t !== TIME_TERM)
  if (english.length < 2) return
  const dict = dictionary()
  if (dict === null) return
  const groupOf = (term: string): QueryGroup | undefined => groups.find((g) => g.term === term)
  for (let i = 0; i + 1 < english.length; i++) {
    const pair = [groupOf(english[i]!), groupOf(english[i + 1]!)]
    searchPhrase(dict.chinese(`${english[i]} ${english[i + 1]}`), (word) => indexedForms(word, index), pair, index, options, weights)
  }
}

/** The first `ZH_KEPT` translations of a phrase that the index holds (not a stop or light word, not too common), each standing for the phrase's words. */
function searchPhrase(
  candidates: readonly string[],
  formsOf: (word: string) => { id: number; term: string; share: number }[],
  words: readonly (QueryGroup | undefined)[],
  index: TermLookup,
  options: RecallOptions,
  weights: Map<number, { term: string; weight: number }>,
  wordsPerCandidate = PHRASE_WORDS,
): void {
  let kept = 0
  for (const candidate of candidates) {
    if (kept >= ZH_KEPT) break
    if (isLightTranslation(candidate)) continue
    const forms = formsOf(candidate).filter(({ id }) => !tooCommon(id, index))
    if (forms.length === 0) continue
    kept++
    phraseStandsFor(words, forms, options, weights, wordsPerCandidate)
  }
}

/**
 * A phrase's translation says what all its words say: it weighs as `wordsPerCandidate` words (two for
 * one word standing for a two-word phrase, one for each word of a phrase's sense), and stands for
 * each of them in abstention.
 */
function phraseStandsFor(
  words: readonly (QueryGroup | undefined)[],
  forms: readonly { id: number; term: string; share: number }[],
  options: RecallOptions,
  weights: Map<number, { term: string; weight: number }>,
  wordsPerCandidate: number,
): void {
  const unseen = words.every((g) => g === undefined || g.id === undefined)
  const weight = wordsPerCandidate * (unseen && options.untranslatedFullWeight ? 1 : options.translationWeight)
  for (const { id, term, share } of forms) {
    for (const g of words) if (g !== undefined && !g.alternatives.includes(id)) g.alternatives.push(id)
    const had = weights.get(id)
    if (had === undefined || had.weight < weight * share) weights.set(id, { term, weight: weight * share })
  }
}

/** Longest word read from characters the segmenter left apart. */
const LONE_CHARS = 3

/**
 * The runs of two to `LONE_CHARS` characters the segmenter left one by one from `from` on, shortest
 * first, none of them a function morpheme: where a word it does not know came apart (仓|鼠, 苏|苏).
 */
function loneCharacters(run: readonly string[], from: number): string[][] {
  const out: string[][] = []
  for (let end = from + 1; end <= Math.min(run.length, from + LONE_CHARS); end++) {
    const w = run[end - 1]!
    if (!isSingleCjkCharacter(w) || FUNCTION_MORPHEMES.has(w)) break
    if (end - from >= 2) out.push(run.slice(from, end))
  }
  return out
}

/**
 * Words of our own tables the segmenter cuts in two (心理|医生, 咨询|师): two or three segments in a
 * row that are an everyday synonym (synonyms.ts) or a relation (aliases.ts) are that word, and the
 * message is about it. Longest first.
 */
export function tableJoins(runs: readonly (readonly string[])[]): { word: string; parts: string[] }[] {
  const out: { word: string; parts: string[] }[] = []
  for (const run of runs)
    for (let i = 0; i < run.length; i++)
      for (let n = Math.min(3, run.length - i); n >= 2; n--) {
        const parts = run.slice(i, i + n)
        const word = parts.join('')
        if (colloquialSynonyms(word).length === 0 && relationsNamed(word).length === 0) continue
        out.push({ word, parts })
        i += n - 1
        break
      }
  return out
}

/**
 * Words the segmenter does not know come apart into characters (仓|鼠, 车|贷): two or three such
 * characters in a row that CC-CEDICT holds as one word are that word, and the message is about it,
 * not about its characters (a hamster is no mouse, a car loan no car). Longest first.
 */
export function dictionaryJoins(runs: readonly (readonly string[])[], dict: BilingualDictionary): { word: string; parts: string[] }[] {
  const out: { word: string; parts: string[] }[] = []
  for (const run of runs)
    for (let i = 0; i < run.length; i++) {
      const parts = loneCharacters(run, i)
        .reverse()
        .find((piece) => dict.english(piece.join('')).length > 0)
      if (parts === undefined) continue
      out.push({ word: parts.join(''), parts })
      i += parts.length - 1
    }
  return out
}

/** The longest Chinese word the dictionary is looked up with (bilingual.ts keeps headwords of up to four characters). */
const ZH_PHRASE_CHARS = 4

// Words the segmenter split that the dictionary holds whole (笔记|本 → 笔记本 "laptop", while
// 笔记 is "notes" and 本 a measure word): the joined word is translated as an English
// phrase is (translatePhrases), standing for each of its parts. Tried only for joins that are
// no word of the message already. So is a word a second cut finds across the segmenter's
// boundaries (升职 in 上|回升|职: recutWords), for the segments it overlaps.
function translateChineseJoins(
  runs: readonly (readonly string[])[],
  groups: QueryGroup[],
  index: TermLookup,
  options: RecallOptions,
  dict: BilingualDictionary,
  isWord: (word: string) => boolean,
  weights: Map<number, { term: string; weight: number }>,
): void {
  const segments = new Set(runs.flat())
  for (const run of runs) {
    for (let i = 0; i < run.length; i++) {
      let joined = run[i]!
      for (let j = i + 1; j < run.length && j <= i + 2; j++) {
        joined += run[j]!
        if (Array.from(joined).length > ZH_PHRASE_CHARS) break
        if (segments.has(joined) || FUNCTION_MORPHEMES.has(joined)) continue
        const parts = run.slice(i, j + 1).map((w) => groups.find((g) => g.term === topicCore(w, isWord)))
        if (parts.every((g) => g === undefined)) continue
        searchPhrase(dict.english(joined), (word) => heldWhole(word, index), parts, index, options, weights, JOIN_WORDS)
      }
    }
  }
  for (const { word, segments } of recutWords(runs, dict)) {
    const parts = segments.map((w) => groups.find((g) => g.term === topicCore(w, isWord)))
    if (parts.some((g) => g !== undefined)) searchPhrase(dict.english(word), (w) => heldWhole(w, index), parts, index, options, weights, JOIN_WORDS)
  }
}

/** Names searched per relation (the ones most memories tie to it). */
const NAMES_PER_RELATION = 3

/**
 * 我男朋友 means the person the store calls 阿哲: the names memories tie to a relation the message
 * names (aliases.ts) search beside the word, below it like a translation, and stand for it in
 * abstention. A Chinese name is searched by its pinyin too (苏苏 → Susu).
 */
function searchRelationNames(
  text: string,
  groups: readonly QueryGroup[],
  index: TermLookup,
  options: RecallOptions,
  dict: BilingualDictionary | null,
  weights: Map<number, { term: string; weight: number }>,
): void {
  const tracked = index.trackedTerms?.() ?? []
  if (tracked.length === 0 || index.term === undefined) return
  const asked = new Map<QueryGroup, readonly string[]>()
  for (const group of groups) {
    const relations = relationsNamed(group.term)
    if (relations.length > 0) asked.set(group, relations)
  }
  // "little brother" is the younger one, whatever "brother" alone could be.
  for (const { relation, lastWord } of englishRelationPhrases(text.toLowerCase())) {
    const group = groups.find((g) => g.term === lastWord)
    if (group !== undefined) asked.set(group, [relation])
  }
  if (asked.size === 0) return
  const wanted = new Set([...asked.values()].flat())
  const names = new Map<string, { name: string; df: number }[]>()
  for (const { id, relation, name, plausible } of aliasesOf(index, tracked, dict)) {
    if (!wanted.has(relation) || !plausible) continue
    const df = index.documentFrequency(id)
    if (df === 0) continue
    const list = names.get(relation)
    if (list === undefined) names.set(relation, [{ name, df }])
    else list.push({ name, df })
  }
  for (const [group, relations] of asked)
    for (const relation of relations) {
      const ties = (names.get(relation) ?? []).sort((a, b) => b.df - a.df || (a.name < b.name ? -1 : 1)).slice(0, NAMES_PER_RELATION)
      for (const { name } of ties) {
        const forms = isCjkTerm(name) ? indexedForms(name, index) : heldWhole(name, index)
        if (dict !== null && isCjkTerm(name)) forms.push(...heldPinyin(name, dict, index))
        standFor(group, forms, options.translationWeight * group.weight, weights)
      }
    }
}

/**
 * How the index holds a Chinese name spelt in toneless pinyin: each reading written as one word
 * (阿哲 → Azhe), and the first reading whose every syllable it holds as a word of its own, each at
 * its share (老邓 → Lao Deng), unless `syllablesApart` is false.
 */
function heldPinyin(name: string, dict: BilingualDictionary, index: TermLookup, syllablesApart = true): { id: number; term: string; share: number }[] {
  const readings = syllableSpellings(name, (char) => dict.readings(char), SPELLINGS_KEPT)
  const out = readings.flatMap((syllables) => heldWhole(stemEnglish(syllables.join('')), index))
  if (!syllablesApart) return out
  for (const syllables of readings) {
    if (syllables.length < 2) continue
    const apart = syllables.map((syllable) => heldWhole(stemEnglish(syllable), index)[0])
    if (apart.every((form) => form !== undefined)) {
      for (const form of apart) out.push({ ...form!, share: 1 / syllables.length })
      break
    }
  }
  return out
}

/** 八月十五 asks about 中秋节 (time-words.ts). */
function searchFestivals(
  normalized: string,
  groups: QueryGroup[],
  index: TermLookup,
  options: RecallOptions,
  weights: Map<number, { term: string; weight: number }>,
): void {
  for (const { day, festival } of festivalsNamed(normalized)) {
    // 中秋节 is also written 中秋: the short name is held whole where the long one is only pairs.
    const short = festival.endsWith('节') ? heldWhole(festival.slice(0, -1), index) : []
    const forms = short.length > 0 ? short : indexedForms(festival, index)
    if (forms.length === 0) continue
    const named = groups.filter((g) => day.includes(g.term))
    // The festival is asked about as much as its day: a topic of its own at the day's weight, and
    // the day's words and the festival stand for each other, so a memory that wrote either covers both.
    const own: QueryGroup = { term: festival, id: undefined, weight: 1, alternatives: [], parts: wordParts(festival, (t) => heldWhole(t, index)[0]?.id) }
    standFor(own, forms, 1, weights)
    for (const group of named) {
      standFor(group, forms, options.translationWeight * group.weight, weights)
      if (group.id !== undefined) own.alternatives.push(group.id)
    }
    groups.push(own)
  }
}

interface ReadAlias {
  id: number
  relation: string
  name: string
  plausible: boolean
}

/** Each index's alias terms, read once: the tracked list only grows, so a reading is extended, never redone. */
const readAliases = new WeakMap<TermLookup, ReadAlias[]>()

function aliasesOf(index: TermLookup, tracked: readonly number[], dict: BilingualDictionary | null): readonly ReadAlias[] {
  let known = readAliases.get(index)
  if (known === undefined) readAliases.set(index, (known = []))
  // A headword, whatever its senses say (出差: "to go on an official or business trip"), is no name.
  const isWord = (word: string): boolean => dict !== null && (dict.english(word).length > 0 || dict.senses(word).length > 0) && !dict.isName(word)
  for (let i = known.length; i < tracked.length; i++) {
    const id = tracked[i]!
    const alias = readAliasTerm(index.term!(id))
    known.push(
      alias === undefined ? { id, relation: '', name: '', plausible: false } : { id, ...alias, plausible: isPlausibleName(alias.relation, alias.name, isWord) },
    )
  }
  return known
}

/** Longest word a second cut reads. */
const RECUT_CHARS = 4

/**
 * The dictionary words a second cut of each run finds across the segmenter's boundaries, with
 * the segments each one overlaps: read from the end, the longest word first (backward maximum
 * matching), which cuts 上回升职 as 上回|升职 where the segmenter read 上|回升|职.
 */
export function recutWords(runs: readonly (readonly string[])[], dict: BilingualDictionary): { word: string; segments: string[] }[] {
  const out: { word: string; segments: string[] }[] = []
  const isRecut = (word: string): boolean => !FUNCTION_MORPHEMES.has(word) && dict.english(word).length > 0
  for (const run of runs) {
    const spans: { segment: string; from: number; to: number }[] = []
    for (const segment of run) {
      const from = spans.length === 0 ? 0 : spans[spans.length - 1]!.to
      spans.push({ segment, from, to: from + Array.from(segment).length })
    }
    const chars = run.flatMap((segment) => Array.from(segment))
    for (let end = chars.length; end > 0;) {
      let length = Math.min(RECUT_CHARS, end)
      while (length >= 2 && !isRecut(chars.slice(end - length, end).join(''))) length--
      if (length < 2) {
        end--
        continue
      }
      const start = end - length
      const overlapped = spans.filter((s) => s.from < end && s.to > start)
      const aligned = overlapped[0]!.from === start && overlapped[overlapped.length - 1]!.to === end
      // Only a word across a boundary: one inside a segment (一起 in 一起去) is that segment's business.
      if (!aligned && overlapped.length > 1) out.push({ word: chars.slice(start, end).join(''), segments: overlapped.map((s) => s.segment) })
      end = start
    }
  }
  return out
}

/**
 * How the index holds a Chinese word: whole, or (a word of three or more characters the
 * segmenter split, 情人|节 for 情人节) as its pairs, each a share of the word.
 */
function indexedForms(word: string, index: TermLookup): { id: number; term: string; share: number }[] {
  const whole = heldWhole(word, index)
  const chars = Array.from(word)
  if (whole.length > 0 || chars.length < 3 || !isCjkTerm(word)) return whole
  const forms: { id: number; term: string; share: number }[] = []
  for (let i = 0; i + 1 < chars.length; i++) {
    if (CHINESE_STOP_WORDS.has(chars[i]!) || CHINESE_STOP_WORDS.has(chars[i + 1]!)) continue
    for (const form of heldWhole(chars[i]! + chars[i + 1]!, index)) forms.push({ ...form, share: 1 / (chars.length - 1) })
  }
  return forms
}

/** A frame word's translation, relative to a topic's (bench/own tuning half hit@5: 0 → 0.888, 0.3 → 0.897, 0.5 → 0.905, 0.8 → 0.905). */
const FRAME_SHARE = 0.5

/** The message's frame words (English light words, Chinese frame words), as groups of their own for translation only. */
function framesOf(distinct: ReadonlySet<string>, segmented: readonly string[], knownId: (term: string) => number | undefined): QueryGroup[] {
  const words = [...distinct].filter((t) => !isCjkTerm(t) && ENGLISH_LIGHT.has(t))
  for (const w of segmented) if (CHINESE_FRAME.has(w) && !words.includes(w)) words.push(w)
  return words.map((term) => ({ term, id: knownId(term), weight: 1, alternatives: [], parts: { chars: [], charCount: 0, pairs: [], pairCount: 0 } }))
}

// A word found only in pieces (半马 in a memory that says 半程马拉松) still counts for
// part of its weight in abstention: its indexed characters, and for a long word its pairs.
function wordParts(term: string, knownId: (term: string) => number | undefined): QueryGroup['parts'] {
  const chars = isCjkTerm(term) ? Array.from(term) : []
  const parts: QueryGroup['parts'] = {
    chars: [],
    charCount: chars.length > 1 ? chars.length : 0,
    pairs: [],
    pairCount: chars.length > 2 ? chars.length - 1 : 0,
  }
  if (parts.charCount === 0) return parts
  for (const ch of chars) {
    const id = knownId(ch)
    if (id !== undefined) parts.chars.push(id)
  }
  for (let i = 0; parts.pairCount > 0 && i + 1 < chars.length; i++) {
    const id = knownId(chars[i]! + chars[i + 1]!)
    if (id !== undefined) parts.pairs.push(id)
  }
  return parts
}
