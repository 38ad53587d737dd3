// The names a message asks about. "Which hotel did I stay at in Paris?" presumes Paris: when no
// memory holds the name in any form (the word, a translation, its short form), whatever else of
// the question a memory holds (hotel, 酒店) is about somewhere else, and abstention says so
// (abstain.ts `unknown-name`; docs/decisions/046). A name is told by how it is written:
// Chinese by CC-CEDICT, which capitalises the pinyin of a name (德国 De2guo2, 苹果 ping2guo3);
// English by the capital a name keeps inside a sentence. No list of names is kept.

import type { BilingualDictionary } from './bilingual.ts'
import { mentionsTime } from './time-words.ts'
import { cjkWordRuns, isCjkTerm, tokenize } from './tokenize.ts'

/** What naming reads and marks of a query's topic groups (query.ts QueryGroup). */
export interface NameableGroup {
  term: string
  id: number | undefined
  alternatives: readonly number[]
  name?: boolean
  abbreviated?: boolean
}

/**
 * A country or region is written by its first character before these (日语, 德语, 美剧, 韩剧,
 * 日料, 川菜, 港币, 美元): a memory with 日语 is about 日本 in part.
 */
const SHORT_FORM_TAILS = ['语', '文', '剧', '料', '菜', '式', '籍', '币', '元', '企', '股', '军', '系']

/** Words a title keeps inside it (Eternal Sunshine of the Spotless Mind). */
const TITLE_JOINERS = /^(?:of|the|and|a|an|in|on|for|to)$/

/** "May" and "March" are months when capitalised; mentionsTime leaves them out because in lower case they are mostly verbs. */
const CAPITALISED_MONTHS = /^(?:May|March)$/

/** A Chinese word every reading of which is a name, and not the name of a time (bilingual.ts leaves festivals out). */
export function isChineseName(word: string, dict: BilingualDictionary): boolean {
  return dict.isName(word) && !mentionsTime(word)
}

/**
 * Marks the groups that are names (`name`), and a Chinese name the index holds in its short form
 * (`abbreviated`); a Chinese name right before a thing word (`isThingWord`) only narrows it, and is
 * not marked. A run of capitalised English words is one name: it is marked only when no word
 * of it is known (a title the store holds in part is not unknown). Runs after translation, which
 * decides what is known.
 */
export function markNames(
  text: string,
  groups: readonly NameableGroup[],
  dict: BilingualDictionary | null,
  knownId: (term: string) => number | undefined,
  isThingWord: (word: string) => boolean = () => false,
): void {
  let runs: string[][] | undefined
  for (const g of groups) {
    if (dict === null || !isCjkTerm(g.term) || !isChineseName(g.term, dict) || beforeAThing(g.term, (runs ??= cjkWordRuns(text)), isThingWord)) continue
    g.name = true
    const head = Array.from(g.term)[0]!
    if (SHORT_FORM_TAILS.some((tail) => knownId(head + tail) !== undefined)) g.abbreviated = true
  }
  const byTerm = new Map(groups.map((g) => [g.term, g]))
  const unknown = (g: NameableGroup | undefined): boolean => g === undefined || (g.id === undefined && g.alternatives.length === 0)
  for (const run of capitalisedRuns(text)) {
    const named = run.map((term) => byTerm.get(term))
    if (!named.every(unknown)) continue
    for (const g of named) if (g !== undefined) g.name = true
  }
}

/**
 * True when the Chinese name is written right before a word that names a thing (英伦|摇滚, 北欧|国家): there a
 * name narrows a kind of that thing, and the thing is what the message is about — a memory about
 * Radiohead or Iceland answers it without the name. A name before an action (德国|留学, 日本|玩)
 * or standing alone stays the message's topic.
 */
function beforeAThing(name: string, runs: readonly string[][], isThingWord: (word: string) => boolean): boolean {
  // The text of a run before each of its words: a name the segmenter split (英|伦) still ends there.
  for (const run of runs) {
    let before = ''
    for (let i = 0; i + 1 < run.length; i++) {
      before += run[i]!
      const next = run[i + 1]!
      if (before.endsWith(name) && Array.from(next).length > 1 && isThingWord(next)) return true
    }
  }
  return false
}

/** True when the message names something by a name no memory holds in any form. */
export function namesTheUnknown(groups: readonly NameableGroup[]): boolean {
  return groups.some((g) => g.name === true && g.id === undefined && g.alternatives.length === 0 && g.abbreviated !== true)
}

/**
 * Runs of English words written with a capital inside a sentence, as the tokenizer gives them
 * (stemmed, lower case). The first word of a sentence and "I" say nothing; a month or a day is a
 * time, not a name.
 */
export function capitalisedRuns(text: string): string[][] {
  const runs: string[][] = []
  for (const sentence of text.split(/[.!?。！？\n]+/)) {
    const words = sentence.match(/[A-Za-z][A-Za-z'’-]*|[^A-Za-z\s]+/g) ?? []
    let run: string[] = []
    for (let i = 0; i <= words.length; i++) {
      const word = words[i]
      if (word !== undefined && i > 0 && isCapitalisedName(word)) run.push(...tokenize(word).filter((t) => !isCjkTerm(t)))
      else if (word !== undefined && run.length > 0 && TITLE_JOINERS.test(word)) continue
      else if (run.length > 0) {
        runs.push(run)
        run = []
      }
    }
  }
  return runs
}

function isCapitalisedName(word: string): boolean {
  return /^[A-Z][a-z]/.test(word) && !mentionsTime(word.toLowerCase()) && !CAPITALISED_MONTHS.test(word)
}
