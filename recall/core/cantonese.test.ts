import { describe, expect, it } from 'vitest'
import { foldCantonese } from './cantonese.ts'
import { normalizeText } from './normalize.ts'
import { RecallIndex } from './recall-index.ts'

const AT = '2026-06-01T00:00:00Z'
const NOW = new Date('2026-06-15T12:00:00Z')

describe('foldCantonese: written Cantonese read as Mandarin', () => {
  it('reads the grammar words, pronouns and verbs that are Cantonese only', () => {
    expect(normalizeText('佢睇咗醫生')).toBe('他看了医生')
    expect(normalizeText('老豆喺屋企')).toBe('爸爸在家')
    expect(normalizeText('琴日返工好攰')).toBe('昨天上班好累')
  })

  it('leaves Mandarin alone, 食 of 食物 and 零食 included, and returns a text without Cantonese as it is', () => {
    expect(foldCantonese('零食和食物都在冰箱里')).toBe('零食和食物都在冰箱里')
    expect(foldCantonese('食饭')).toBe('吃饭')
    const plain = 'We had dim sum in Sha Tin.'
    expect(foldCantonese(plain)).toBe(plain)
  })
})

describe('RecallIndex: a Hong Kong person asks in Cantonese or in Mandarin', () => {
  const store = new RecallIndex()
  store.add({ id: 'yue', text: '陪老豆去威爾斯親王醫院覆診，佢有糖尿病。', at: AT, source: 'entry' })
  store.add({ id: 'en', text: 'Took Dad for a slow walk along the reservoir; he managed about 2km.', at: AT, source: 'entry' })
  store.add({ id: 'zh', text: '周末去海边拍照。', at: AT, source: 'entry' })

  it('a Mandarin question finds the Cantonese memory (我爸 is 老豆)', () => {
    expect(store.search('我爸爸去哪个医院复诊？', { now: NOW })[0]?.id).toBe('yue')
  })

  it('a Cantonese question finds the English memory through the Mandarin word (老豆 → 爸爸 → dad)', () => {
    const hits = store.search('老豆行咗幾遠？', { now: NOW, abstain: false })
    expect(hits.map((h) => h.id)).toContain('en')
    expect(hits.find((h) => h.id === 'en')?.matched).toContain('dad')
  })
})
