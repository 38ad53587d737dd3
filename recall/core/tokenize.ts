// Turns any text (Chinese, English, mixed) into index terms, without a model:
//  * Intl.Segmenter word segments (ICU dictionary segmentation for CJK),
//  * plus every CJK character pair, so that a memory segmented one way is still
//    found by a query segmented another way (喜欢喝茶 -> 喜欢|喝茶 vs 爱|喝|茶水),
//  * plus every CJK character on its own, so that a one-character word in a
//    message (猫, 茶) still reaches the memory that wrote 猫咪 or 乌龙茶 (scoring
//    gives these single characters less weight than words and pairs),
//  * lower case, NFKC, a tiny English suffix stripper, small stop-word lists.

import { foldSignature } from './fold.ts'
import { normalizeText, clipText } from './normalize.ts'
import { stemEnglish } from './stem.ts'
import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS, isDemonstrativePair } from './stopwords.ts'

/**
 * Bumped whenever the rules below change the terms they produce, or the index adds
 * terms of its own (3: the time term, time-words.ts; 4: traditional characters folded
 * to simplified, fold.ts; 5: who the person's people are, aliases.ts; 6: daughters, sons, a
 * team lead and pets by breed, aliases.ts; 7: a silent e kept after one short syllable and a
 * final y read as i, stem.ts, and a relation after where it was met, 大学室友老邓, aliases.ts; 8: a
 * demonstrative with its classifier is a stop word, 那只, stopwords.ts; 9: the past forms of irregular
 * verbs read as the verb, spent → spend, stem.ts, and a contraction dropped, where'd → where; 10: written
 * Cantonese read as Mandarin, 佢睇咗 → 他看了, cantonese.ts, and its particles are stop words; 11: irregular
 * plurals read as the noun, teeth → tooth, stem.ts): a serialised
 * index built under other rules no longer matches fresh query terms.
 */
export const TOKENIZER_VERSION = 11

/** Longest text tokenized; the rest is ignored (entries are ≤ 400 chars by contract). */
const DEFAULT_MAX_TOKENIZE_CHARS = 20_000

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu
const APOSTROPHES = /['’]/g

let segmenter: Intl.Segmenter | undefined
function wordSegmenter(): Intl.Segmenter {
  // The locale only matters for dictionary-based scripts; 'zh' picks the CJK dictionary.
  segmenter ??= new Intl.Segmenter('zh', { granularity: 'word' })
  return segmenter
}

/** Identifies the tokenizer rules and the ICU data they ran on (segmentation depends on both). */
export function tokenizerSignature(): string {
  const icu = (globalThis as { process?: { versions?: { icu?: string } } }).process?.versions?.icu ?? 'unknown'
  return `tok${TOKENIZER_VERSION}/icu${icu}/${foldSignature()}`
}

/**
 * Index terms of `text`, repeats kept (they are term frequencies): segmenter words
 * in order of appearance, then the CJK characters and pairs. Deterministic for a
 * given tokenizerSignature().
 */
export function tokenize(text: string, maxChars: number = DEFAULT_MAX_TOKENIZE_CHARS): string[] {
  if (typeof text !== 'string' || text.length === 0) return []
  const normalized = normalizeText(clipText(text, maxChars))
  const terms: string[] = []
  const twoCharWordStarts = new Set<number>()
  for (const { segment, index, isWordLike } of wordSegmenter().segment(normalized)) {
    if (!isWordLike) continue
    if (CJK_CHAR.test(segment)) {
      const chars = codePointCount(segment)
      if (chars === 2) twoCharWordStarts.add(index)
      // A one-character word is the same term as that character, emitted below.
      if (chars > 1 && !isChineseStopWord(segment)) terms.push(segment)
    } else {
      const term = latinTerm(segment)
      if (term !== undefined) terms.push(term)
    }
  }
  pushCjkCharactersAndPairs(normalized, twoCharWordStarts, terms)
  return terms
}

/** The CJK words the segmenter finds in `text` (one-character words too), stop words left out: what a dictionary can translate. */
export function cjkWordsOf(text: string, maxChars: number = DEFAULT_MAX_TOKENIZE_CHARS): string[] {
  if (typeof text !== 'string' || text.length === 0) return []
  const words: string[] = []
  for (const { segment, isWordLike } of wordSegmenter().segment(normalizeText(clipText(text, maxChars)))) {
    if (isWordLike && CJK_CHAR.test(segment) && !isChineseStopWord(segment)) words.push(segment)
  }
  return words
}

/**
 * The Chinese words the segmenter finds, in runs of words that touch (no space, punctuation or
 * other script between them), stop words included: 我的|笔记|本|电脑 is one run, so a caller can
 * try 笔记本 as one dictionary word.
 */
export function cjkWordRuns(text: string, maxChars: number = DEFAULT_MAX_TOKENIZE_CHARS): string[][] {
  if (typeof text !== 'string' || text.length === 0) return []
  const runs: string[][] = []
  let run: string[] = []
  for (const { segment, isWordLike } of wordSegmenter().segment(normalizeText(clipText(text, maxChars)))) {
    if (isWordLike && CJK_CHAR.test(segment)) run.push(segment)
    else if (run.length > 0) {
      runs.push(run)
      run = []
    }
  }
  if (run.length > 0) runs.push(run)
  return runs
}

/** A listed stop word, or a word made only of stop characters (我的, 你们的). */
function isChineseStopWord(word: string): boolean {
  if (CHINESE_STOP_WORDS.has(word) || isDemonstrativePair(word)) return true
  for (const ch of word) if (!CHINESE_STOP_WORDS.has(ch)) return false
  return true
}

/** True for a term that is one CJK character (scored with `cjkCharWeight`). */
export function isSingleCjkCharacter(term: string): boolean {
  return codePointCount(term) === 1 && CJK_CHAR.test(term)
}

/** True for a term made of CJK characters (a word, a pair or one character). */
export function isCjkTerm(term: string): boolean {
  return CJK_CHAR.test(term)
}

function codePointCount(text: string): number {
  let n = 0
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0xdc00 || code > 0xdfff) n++
  }
  return n
}

function latinTerm(segment: string): string | undefined {
  if (ENGLISH_STOP_WORDS.has(segment)) return undefined
  // who's, where'd, we'll, they're, we've, I'm: the word without its contraction (n't stays: can't is not can).
  const word = segment.replace(/['’](?:s|d|ll|re|ve|m)$/, '').replace(APOSTROPHES, '')
  // Single letters are noise; single digits may be the answer ("3 kids").
  if (word.length === 0 || (word.length === 1 && !/\p{N}/u.test(word))) return undefined
  if (ENGLISH_STOP_WORDS.has(word)) return undefined
  return stemEnglish(word)
}

// A two-character word the segmenter already emitted at the same place is the
// same pair; emitting it again would double its weight for no reason.
function pushCjkCharactersAndPairs(text: string, skipPairStarts: ReadonlySet<number>, out: string[]): void {
  for (const match of text.matchAll(CJK_RUN)) {
    const chars = Array.from(match[0])
    let offset = match.index
    for (let i = 0; i < chars.length; i++) {
      const char = chars[i]!
      if (!CHINESE_STOP_WORDS.has(char)) out.push(char)
      const next = chars[i + 1]
      // A pair with a stop character in it (我的, 苏的, 说我) bridges no word boundary worth bridging.
      if (
        next !== undefined &&
        !skipPairStarts.has(offset) &&
        !CHINESE_STOP_WORDS.has(char) &&
        !CHINESE_STOP_WORDS.has(next) &&
        !CHINESE_STOP_WORDS.has(char + next)
      )
        out.push(char + next)
      offset += char.length
    }
  }
}
