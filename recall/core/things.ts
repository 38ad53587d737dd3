// The things a Chinese message asks about. "我买的股票涨了吗？" asks about 股票; a memory that shares
// only 买 or 涨 with it is about buying or rising something else. When the memories found hold none
// of the message's things, nor a kind of one ("我报名了什么比赛？" is answered by a marathon, a kind
// of 比赛), recall says nothing (abstain.ts `missing-thing`; docs/decisions/048).
//
// What a word is comes from two dictionaries, not from a list: CC-CEDICT's first sense says an
// action ("to buy"), WordNet says whether that sense is mostly a noun or a quality (远 "far", 辣
// "hot") or a time (晚上 "evening"), and how general it is (东西 "thing" has thousands of kinds: it names nothing in
// particular), and WordNet's tree gives the kinds, which CC-CEDICT brings back to Chinese.

import type { BilingualDictionary } from './bilingual.ts'
import { isCjkTerm, isSingleCjkCharacter, tokenize } from './tokenize.ts'
import type { WordNet } from './wordnet.ts'

/** A noun with at least this many kinds is general: it names no particular thing (thing, stuff, matter). */
export const GENERAL_KINDS = 3000

export interface ThingLexicon {
  dict: BilingualDictionary
  wordnet: WordNet
}

/**
 * True when the Chinese `word` names a thing: its first sense WordNet knows is mostly a noun, and
 * not a general one; false for an action (its first sense is "to …") or a quality. A word neither
 * dictionary places (a name, a new word) is a thing.
 */
export function isThing(word: string, lexicon: ThingLexicon): boolean {
  const placed = firstPlacedSense(word, lexicon)
  if (placed === undefined) return true
  if (placed === ACTION || !placed.mostlyNoun || isTime(placed.sense, lexicon.wordnet)) return false
  return lexicon.wordnet.kinds(placed.sense, GENERAL_KINDS).length < GENERAL_KINDS
}

/**
 * True when the Chinese `word` is, in the first sense WordNet knows, mostly a noun: what it names
 * is a thing of some kind (国家 "country", 摇滚 "rock 'n' roll"), however general. False for an
 * action or a quality, and for a word neither dictionary places. Reads no kinds: cheap per word.
 */
export function isNounWord(word: string, lexicon: ThingLexicon): boolean {
  const placed = firstPlacedSense(word, lexicon)
  return placed !== undefined && placed !== ACTION && placed.mostlyNoun
}

const ACTION = 'action'

/**
 * The first CC-CEDICT sense of `word` that WordNet tags as a noun or a quality, and whether it is
 * mostly a noun there; `ACTION` when a sense before it is an action ("to …"); undefined when no
 * sense is placed.
 */
function firstPlacedSense(word: string, { dict, wordnet }: ThingLexicon): { sense: string; mostlyNoun: boolean } | typeof ACTION | undefined {
  for (const sense of dict.senses(word)) {
    if (sense.startsWith('to ')) return ACTION
    const tags = wordnet.tags(sense)
    if (tags.noun === 0 && tags.quality === 0) continue
    return { sense, mostlyNoun: tags.noun >= tags.quality }
  }
  return undefined
}

// 晚上 "evening", 周末 "weekend": a part of the day or the year is when, not what.
function isTime(sense: string, wordnet: WordNet): boolean {
  return wordnet.isA(sense, 'time period') || wordnet.isA(sense, 'time unit')
}

/**
 * True when `term` (a Chinese word, or an English word as tokenize gives it) is, in its commonest
 * sense WordNet knows, a kind of person: 牙医, 老师, dentist; not 狗.
 */
export function isPersonNoun(term: string, { dict, wordnet }: ThingLexicon): boolean {
  if (!isCjkTerm(term)) return wordnet.isA(term, 'person')
  for (const sense of dict.senses(term)) {
    if (sense.startsWith('to ')) return false
    const tags = wordnet.tags(sense)
    if (tags.noun === 0) continue
    return wordnet.isA(sense, 'person')
  }
  return false
}

/**
 * The index terms a kind of the Chinese `word` is written with: the English stem of a one-word kind
 * (marathon) and the Chinese words of two characters or more CC-CEDICT gives for a kind (钢琴 for
 * piano). A single character stands for too many things to be evidence of one.
 */
export function kindTerms(word: string, { dict, wordnet }: ThingLexicon): Set<string> {
  const out = new Set<string>()
  const addChinese = (key: string): void => {
    for (const zh of dict.chinese(key)) if (!isSingleCjkCharacter(zh)) out.add(zh)
  }
  for (const sense of dict.senses(word)) {
    if (sense.startsWith('to ')) continue
    for (const kind of wordnet.kinds(sense, GENERAL_KINDS)) {
      const terms = tokenize(kind)
      if (terms.length === 1) {
        out.add(terms[0]!)
        addChinese(terms[0]!)
      } else if (terms.length === 2) addChinese(terms.join(' '))
    }
  }
  return out
}
