import { describe, expect, it } from 'vitest'
import { isPersonWord, kinTranslations } from './people.ts'
import { RecallIndex } from './recall-index.ts'

const NOW = new Date('2026-06-15T12:00:00Z')

describe('people.ts', () => {
  it('names the people of a life in both languages (English by stem), and nothing else', () => {
    for (const w of ['brother', 'mum', 'wife', '弟弟', '男朋友', '外婆']) expect({ w, person: isPersonWord(w) }).toEqual({ w, person: true })
    for (const w of ['work', '工作', '猫', 'wif']) expect({ w, person: isPersonWord(w) }).toEqual({ w, person: false })
  })

  it('gives the everyday Chinese words for an English kinship word', () => {
    expect(kinTranslations('brother')).toContain('哥哥')
    expect(kinTranslations('mum')).toContain('妈妈')
    expect(kinTranslations('bro')).toContain('弟弟')
    expect(kinTranslations('sis')).toContain('妹妹')
    expect(kinTranslations('cat')).toEqual([])
  })
})

describe('RecallIndex: a question about someone no memory mentions', () => {
  const at = '2026-01-01T00:00:00Z'
  const store = new RecallIndex()
  const texts = ['哥哥在澳洲的农场工作。', '我在医院工作，常上夜班。', '周末去爬山。', '买了一双新跑鞋。', '妈妈开了一家早餐店。', '猫最近掉毛。']
  texts.forEach((text, i) => store.add({ id: `m${i}`, text, at, source: 'entry' }))

  it('says nothing about a brother the store never mentions, though it holds 工作', () => {
    const answer = store.explain('我弟弟在哪里工作？', { now: NOW })
    expect(answer.hits).toEqual([])
    expect(answer.silence?.reason).toBe('unknown-person')
    expect(store.explain('我弟弟在哪里工作？', { now: NOW, abstain: false }).hits.length).toBeGreaterThan(0)
  })

  it('answers about a person it does mention, in either language', () => {
    expect(store.search('我哥哥在哪里工作？', { now: NOW })[0]?.id).toBe('m0')
    expect(store.search('Where does my brother work?', { now: NOW })[0]?.id).toBe('m0')
    expect(store.search("What does my mum's shop sell?", { now: NOW })[0]?.id).toBe('m4')
  })
})
