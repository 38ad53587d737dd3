// Translations one detour away, through the dictionary itself: CC-CEDICT glosses 作家 "author"
// and 作者 "author; writer", so "writer" never reaches 作家 directly, nor 地铁 ("subway") the
// English "metro" (轨道交通: "metro; rapid transit; subway"). Walking word → translation →
// back → translation again reaches them. Each step spreads a word's share evenly over its
// translations (a word with many senses, "train", spreads thin; "subway" does not), so what
// is reached by several ways, or by specific ones, weighs most. No table of our own: only the
// two look-ups bilingual.ts already has.

import type { BilingualDictionary } from './bilingual.ts'
import { isCjkTerm } from './tokenize.ts'

/** Translations followed from each word on the way (the dictionary's first, shortest ones). */
const FANOUT = 8
/** The least share of the walk a word must get to be returned (below it, a word's rarer senses: 猫 → "hide" → 藏); so at most 50 words per walk are kept. */
export const PIVOT_MIN_SHARE = 0.02

export interface PivotWord {
  word: string
  /** The share of the walk that ends at this word, in (0, 1]. */
  share: number
}

/**
 * Words in the other language three translation steps from `term` (there, back, there again),
 * without the direct translations and `term` itself, each with at least `PIVOT_MIN_SHARE` of the walk, largest first
 * (ties by word). `skip` drops a word anywhere on the way (stop and light words carry no meaning).
 */
export function pivotTranslations(term: string, dict: BilingualDictionary, skip: (word: string) => boolean): readonly PivotWord[] {
  // The walk depends on the dictionary and the skip rule alone: kept per pair, a few thousand words at most.
  let bySkip = walks.get(dict)
  if (bySkip === undefined) walks.set(dict, (bySkip = new WeakMap()))
  let cache = bySkip.get(skip)
  if (cache === undefined) bySkip.set(skip, (cache = new Map()))
  const known = cache.get(term)
  if (known !== undefined) return known
  if (cache.size >= CACHED_WALKS) cache.clear()
  const found = walk(term, dict, skip)
  cache.set(term, found)
  return found
}

const CACHED_WALKS = 4096
type Skip = (word: string) => boolean
const walks = new WeakMap<BilingualDictionary, WeakMap<Skip, Map<string, readonly PivotWord[]>>>()

function walk(term: string, dict: BilingualDictionary, skip: (word: string) => boolean): PivotWord[] {
  const across = (word: string): readonly string[] => (isCjkTerm(word) ? dict.english(word) : dict.chinese(word))
  const direct = new Set(across(term))
  let shares = new Map<string, number>([[term, 1]])
  for (let step = 0; step < 3; step++) {
    const next = new Map<string, number>()
    for (const [word, share] of shares) {
      const out = across(word)
        // A name's senses describe it (巴黎: "Paris, capital of France"), they do not translate it: no detour through one.
        .filter((w) => w !== term && !skip(w) && !(isCjkTerm(w) && dict.isName(w)))
        .slice(0, FANOUT)
      for (const w of out) next.set(w, (next.get(w) ?? 0) + share / out.length)
    }
    shares = next
  }
  return [...shares]
    .filter(([word, share]) => share >= PIVOT_MIN_SHARE && !direct.has(word))
    .map(([word, share]) => ({ word, share }))
    .sort((a, b) => b.share - a.share || (a.word < b.word ? -1 : 1))
}
