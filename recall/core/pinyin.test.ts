import { describe, expect, it } from 'vitest'
import { bilingualDictionary } from './bilingual.ts'
import { heldSpellings, syllabify, syllableSpellings, tonelessReadings } from './pinyin.ts'
import { RecallIndex } from './recall-index.ts'

const NOW = new Date('2026-06-15T12:00:00Z')
const AT = '2026-05-01T00:00:00Z'

describe('pinyin: readings as a person types them', () => {
  it('drops the tone and the capital, types ü both ways, and takes no letter for a syllable', () => {
    expect(tonelessReadings('zhe2')).toEqual(['zhe'])
    expect(tonelessReadings('A1')).toEqual(['a'])
    expect(tonelessReadings('lu:4')).toEqual(['lv', 'lu'])
    expect(tonelessReadings('P')).toEqual([])
    expect(tonelessReadings('xx5')).toEqual([])
  })

  it('reads a word as every combination of its characters’ readings, up to a limit', () => {
    const readings = (c: string): string[] => ({ 阿: ['a', 'e'], 哲: ['zhe'], 行: ['xing', 'hang'] })[c] ?? []
    const spellings = (word: string, limit: number): string[] => syllableSpellings(word, readings, limit).map((s) => s.join(''))
    expect(spellings('阿哲', 16)).toEqual(['azhe', 'ezhe'])
    expect(spellings('行行', 3)).toEqual(['xingxing', 'xinghang', 'hangxing'])
    expect(spellings('阿猫', 16)).toEqual([])
  })

  it('cuts a word into known syllables every way, every letter used', () => {
    const known = new Set(['xi', 'an', 'xian', 'a', 'zhe', 'su'])
    expect(syllabify('xian', (s) => known.has(s), 8)).toEqual([['xian'], ['xi', 'an']])
    expect(syllabify('azhe', (s) => known.has(s), 8)).toEqual([['a', 'zhe']])
    expect(syllabify('azhex', (s) => known.has(s), 8)).toEqual([])
  })

  it('keeps only the words the store holds, pruning on the characters and pairs it lacks', () => {
    const byReading: Record<string, string[]> = { a: ['啊', '阿'], zhe: ['这', '哲'] }
    const store = new Set(['阿', '哲', '阿哲', '这'])
    const asked: string[] = []
    const held = (w: string): boolean => (asked.push(w), store.has(w))
    expect(heldSpellings(['a', 'zhe'], (s) => byReading[s] ?? [], held, 100)).toEqual(['阿哲'])
    expect(asked).not.toContain('啊这') // 啊 is not held: nothing is built on it
    expect(heldSpellings(['a', 'zhe'], (s) => byReading[s] ?? [], held, 3)).toEqual([])
  })
})

describe('pinyin: a name found across scripts (decision 049)', () => {
  const dict = bilingualDictionary()!

  it('CC-CEDICT gives the readings both ways', () => {
    expect(dict.readings('哲')).toContain('zhe')
    expect(dict.spelledBy('zhe')).toContain('哲')
    expect(dict.spelledBy('§')).toEqual([])
    expect([dict.isSyllable('zhe'), dict.isSyllable('xian'), dict.isSyllable('zhx'), dict.isSyllable('')]).toEqual([true, true, false, false])
  })

  const store = new RecallIndex({})
  store.add({ id: 'gift', text: '520那天阿哲送了我一台拍立得。', at: AT, source: 'entry' })
  store.add({ id: 'debt', text: 'I owe Susu 600 yuan for the concert tickets.', at: AT, source: 'entry' })
  store.add({ id: 'run', text: '周末和同事去跑步。', at: AT, source: 'entry' })
  store.add({ id: 'friend', text: 'My best friend Peiling moved to Kaohsiung.', at: AT, source: 'entry' })

  it('an English question names a friend the memories write in Chinese', () => {
    // Nothing but the name ties this question to the store.
    expect(store.search('Tell me about Azhe.', { now: NOW }).map((h) => h.id)).toEqual(['gift'])
  })

  it('a Chinese question names a friend the memories write in pinyin', () => {
    // The segmenter knows neither name: 苏|苏 and 佩|玲 come apart, and are read together.
    expect(store.search('苏苏最近怎么样？', { now: NOW }).map((h) => h.id)).toEqual(['debt'])
    expect(store.search('佩玲搬去哪里了？', { now: NOW })[0]?.id).toBe('friend')
  })

  it('a word the dictionary translates is spelled only when the memories write it both ways (土豆 the cat, Tudou)', () => {
    const cat = new RecallIndex({})
    cat.add({ id: 'adopted', text: 'Adopted a kitten today from my friend. I named him Tudou.', at: AT, source: 'entry' })
    cat.add({ id: 'weight', text: '土豆绝育之后胖了好多，今天称了6.2公斤。', at: AT, source: 'entry' })
    cat.add({ id: 'other', text: 'Met my friend for coffee downtown.', at: AT, source: 'entry' })
    expect(
      cat
        .search('土豆最近怎么样？', { now: NOW })
        .map((h) => h.id)
        .sort(),
    ).toEqual(['adopted', 'weight'])
  })

  it('a word the dictionary translates is not spelled (苹果 is no one’s pingguo)', () => {
    const fruit = new RecallIndex({})
    fruit.add({ id: 'p', text: 'Pingguo is the name of my cat.', at: AT, source: 'entry' })
    expect(fruit.search('我买的苹果甜吗？', { now: NOW })).toEqual([])
  })
})
