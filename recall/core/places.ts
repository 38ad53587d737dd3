// A person writes the city and asks about the country: 在大阪环球影城 is written, 去日本那次 is
// asked; "three days in Kyoto" is written, 我们在日本待了几天 is asked; 在大理骑车环洱海 is written,
// 去云南那次 is asked. Two sources say what lies within a place: WordNet divides a named place
// into its parts (Japan → Honshu, Osaka, Kyoto, Sapporo; California → Los Angeles), which
// CC-CEDICT names in Chinese (Osaka → 大阪); and CC-CEDICT's own senses say where a Chinese place
// lies ("Lijiang, prefecture-level city in Yunnan Province 云南省": bilingual.ts `within`). The
// parts a memory holds search like an everyday synonym of the place (query.ts): below the word
// itself, standing for it.
//
// Only downwards: a memory about Japan does not answer a question about Osaka.

import { senseTerms, withoutMarks, type BilingualDictionary } from './bilingual.ts'
import { isCjkTerm } from './tokenize.ts'
import type { WordNet } from './wordnet.ts'

/** Parts read per place, breadth first: a country's regions and largest cities come first. */
const PLACES_KEPT = 200
/** A Chinese name's sense longer than this is a description, not the place's English name. */
const NAME_WORDS = 3
/** Shorter English names are abbreviations (AK, Ga.): they would find other words. */
const MIN_ENGLISH_NAME = 4
/** What may follow the place's name in a sense that is the place: "Osaka city", "Hokkaido island". */
const PLACE_SENSE = /^ (?:city|province|prefecture|island|state|county|region|municipality|district)\b/

/**
 * The places within the place `word` names (a simplified Chinese name, 日本, or an English word
 * as written, lower case, japan), as words a memory may hold: Chinese names (大阪) and one-word
 * English names no dictionary reads as an everyday word (osaka, not nice nor bath). [] for a word
 * that names no place WordNet divides.
 */
export function placesWithin(word: string, dict: BilingualDictionary, wordnet: WordNet): string[] {
  const names = isCjkTerm(word) ? (dict.isName(word) ? dict.senses(word).filter(isEnglishName) : []) : [word]
  const out = new Set<string>()
  for (const name of names) {
    for (const place of wordnet.placesWithin(name, PLACES_KEPT)) {
      const terms = senseTerms(place)
      if (terms.length === 0 || terms.length > 2) continue
      const chinese = dict.chinese(terms.join(' '))
      const named = chinese.filter((zh) => namesThePlace(dict.senses(zh), place, dict.isName(zh)))
      for (const zh of named) out.add(zh)
      // Nice, Bath, Reading: a place named by an everyday word would find the word (CC-CEDICT
      // translates it as one); AZ, Fla. are no words.
      if (terms.length === 1 && place.length >= MIN_ENGLISH_NAME && !place.includes('.') && named.length === chinese.length) out.add(terms[0]!)
    }
  }
  // A Chinese place, asked in Chinese or by its English name (yunnan → 云南), and the places in those.
  const chinese = isCjkTerm(word) ? [word] : dict.chinese(senseTerms(word).join(' ')).filter((zh) => namesThePlace(dict.senses(zh), word, dict.isName(zh)))
  for (const zh of chinese) {
    const first = dict.within(zh)
    for (const place of first) out.add(place)
    for (const place of first) for (const inner of dict.within(place)) if (out.size < PLACES_KEPT) out.add(inner)
  }
  return [...out]
}

/**
 * A Chinese word is the place when a sense of it says where the place is ("Kyoto, Japan": 京都 is
 * also "capital"), or when it is only ever a name and a sense is the place's name itself (北京
 * "Beijing", 大阪 "Osaka city"); not a thing named after the place (京剧 "Beijing opera").
 */
function namesThePlace(senses: readonly string[], place: string, named: boolean): boolean {
  return senses.some((raw) => {
    const sense = withoutMarks(raw)
    if (sense.startsWith(`${place},`)) return true
    return named && sense.startsWith(place) && (sense.length === place.length || PLACE_SENSE.test(sense.slice(place.length)))
  })
}

function isEnglishName(sense: string): boolean {
  return /^[a-z][a-z .'-]*$/.test(sense) && sense.split(' ').length <= NAME_WORDS
}
