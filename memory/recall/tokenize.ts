// Turns any text (Chinese, English, mixed) into index terms, without a model:
//  * Intl.Segmenter word segments (ICU dictionary segmentation for CJK),
//  * plus every CJK character pair, so that a memory segmented one way is still
//    found by a query segmented another way (喜欢喝茶 -> 喜欢|喝茶 vs 爱|喝|茶水),
//  * lower case, NFKC, a tiny English suffix stripper, small stop-word lists.

import { normalizeText, clipText } from './normalize.ts'
import { stemEnglish } from './stem.ts'
import { CHINESE_STOP_WORDS, ENGLISH_STOP_WORDS } from './stopwords.ts'

/**
 * Bumped whenever the rules below change the terms they produce: a serialised
 * index built under other rules no longer matches fresh query terms.
 */
export const TOKENIZER_VERSION = 1

/** Longest text tokenized; the rest is ignored (entries are ≤ 400 chars by contract). */
export const DEFAULT_MAX_TOKENIZE_CHARS = 20_000

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
  return `tok${TOKENIZER_VERSION}/icu${icu}`
}

/** Index terms of `text`, in order of appearance, repeats kept (they are term frequencies). */
export function tokenize(text: string, maxChars: number = DEFAULT_MAX_TOKENIZE_CHARS): string[] {
  if (typeof text !== 'string' || text.length === 0) return []
  const normalized = normalizeText(clipText(text, maxChars))
  const terms: string[] = []
  const twoCharWordStarts = new Set<number>()
  for (const { segment, index, isWordLike } of wordSegmenter().segment(normalized)) {
    if (!isWordLike) continue
    if (CJK_CHAR.test(segment)) {
      if (segment.length === 2) twoCharWordStarts.add(index)
      if (!CHINESE_STOP_WORDS.has(segment)) terms.push(segment)
    } else {
      const term = latinTerm(segment)
      if (term !== undefined) terms.push(term)
    }
  }
  pushCjkBigrams(normalized, twoCharWordStarts, terms)
  return terms
}

function latinTerm(segment: string): string | undefined {
  if (ENGLISH_STOP_WORDS.has(segment)) return undefined
  const word = segment.replace(/['’]s$/, '').replace(APOSTROPHES, '')
  // Single letters are noise; single digits may be the answer ("3 kids").
  if (word.length === 0 || (word.length === 1 && !/\p{N}/u.test(word))) return undefined
  if (ENGLISH_STOP_WORDS.has(word)) return undefined
  return stemEnglish(word)
}

// A two-character word the segmenter already emitted at the same place is the
// same pair; emitting it again would double its weight for no reason.
function pushCjkBigrams(text: string, skipStarts: ReadonlySet<number>, out: string[]): void {
  for (const match of text.matchAll(CJK_RUN)) {
    const run = match[0]
    const start = match.index
    const chars = Array.from(run)
    let offset = start
    for (let i = 0; i + 1 < chars.length; i++) {
      const pair = chars[i]! + chars[i + 1]!
      if (!skipStarts.has(offset) && !CHINESE_STOP_WORDS.has(pair)) out.push(pair)
      offset += chars[i]!.length
    }
  }
}
