import { describe, expect, it } from 'vitest'
import { aliasTerm, aliasTermsOf, englishRelationPhrases, isPlausibleName, readAliasTerm, relationsNamed } from './aliases.ts'
import { packColumns } from './columns.ts'
import { unpackColumns } from './columns-read.ts'
import { normalizeText } from './normalize.ts'
import { RecallIndex } from './recall-index.ts'
import { tokenize, tokenizerSignature } from './tokenize.ts'

const ties = (text: string): string[] => aliasTermsOf(normalizeText(text), text, (name) => tokenize(name)[0]!)
const NOW = new Date('2026-06-15T12:00:00Z')

describe('aliases: who the person calls what', () => {
  it('reads a relation tied to a name, in Chinese and in English', () => {
    expect(ties('男朋友阿哲是做摄影的。')).toEqual([aliasTerm('boyfriend', '阿哲')])
    expect(ties('弟弟小川在成都读大二。')).toEqual([aliasTerm('younger brother', '小川')])
    expect(ties('開始去健身房重訓，教練叫阿豪。')).toEqual([aliasTerm('coach', '阿豪')])
    expect(ties('我养了一只橘猫，叫团子，三岁。')).toEqual([aliasTerm('cat', '团子')])
    expect(ties('我的上司陈经理说下周开会。')).toEqual([aliasTerm('boss', '陈经理')])
    expect(ties('My manager at work is called Rachel.')).toEqual([aliasTerm('boss', 'rachel')])
    expect(ties('My boyfriend Kevin is an engineer.')).toEqual([aliasTerm('boyfriend', 'kevin')])
    expect(ties("I've been seeing a therapist named Dr. Wen.")).toEqual([aliasTerm('therapist', 'wen')])
  })

  it('reads no tie where there is none', () => {
    // Someone else's boyfriend; a word after the relation; a pet not introduced by its name; a relation inside a longer word.
    expect(ties('闺蜜苏苏的男朋友叫大伟。')).toEqual([aliasTerm('friend', '苏苏')])
    expect(ties('我怕狗，小时候被咬过。')).toEqual([])
    expect(ties('猫粮吃完了。')).toEqual([])
    expect(ties('老板娘送了一个荷包蛋。')).toEqual([])
    expect(ties('男朋友说周末去爬山。')).toEqual([])
    expect(ties('My boyfriend is an engineer.')).toEqual([])
  })

  it("leaves to the query side what only a dictionary can tell: 小学 after 弟弟 is no name, 团子 after 叫 is a pet's", () => {
    const isWord = (w: string): boolean => ['小学', '团子', '分租'].includes(w)
    expect(isPlausibleName('younger brother', '小学', isWord)).toBe(false)
    expect(isPlausibleName('roommate', '分租', isWord)).toBe(false)
    expect(isPlausibleName('cat', '团子', isWord)).toBe(true)
    expect(isPlausibleName('boyfriend', '阿哲', isWord)).toBe(true)
    expect(isPlausibleName('boss', 'rachel', isWord)).toBe(true)
  })

  it('reads its own terms back, and nothing else', () => {
    expect(readAliasTerm(aliasTerm('younger brother', '小川'))).toEqual({ relation: 'younger brother', name: '小川' })
    expect(readAliasTerm('小川')).toBeUndefined()
    expect(readAliasTerm('⟨time⟩')).toBeUndefined()
  })

  it('knows which relations a question names', () => {
    expect(relationsNamed('男朋友')).toEqual(['boyfriend'])
    expect(relationsNamed('对象')).toEqual(['boyfriend', 'girlfriend'])
    expect(relationsNamed('我家那位')).toEqual(['boyfriend', 'girlfriend', 'husband', 'wife'])
    expect(relationsNamed(tokenize('manager')[0]!)).toEqual(['boss'])
    expect(relationsNamed('猫粮')).toEqual([])
    expect(englishRelationPhrases("what's my little brother majoring in?")).toEqual([{ relation: 'younger brother', lastWord: tokenize('brother')[0] }])
  })
})

describe('RecallIndex: a question about a relation finds the memories that use the name', () => {
  const memories = [
    { id: 'tie', text: '男朋友阿哲是做摄影的，工作室在西溪那边。' },
    { id: 'fight', text: '和阿哲吵了一架，因为他又忘了我们的纪念日。' },
    { id: 'debt', text: 'I owe Susu 600 yuan for the concert tickets.' },
    { id: 'friend', text: '周末和闺蜜苏苏去灵隐寺烧香。' },
    { id: 'other', text: '同事小王请我吃了一顿火锅，聊到很晚。' },
  ]
  const build = (): RecallIndex => {
    const index = new RecallIndex()
    for (const m of memories) index.add({ ...m, at: '2026-05-01T12:00:00Z', source: 'entry' })
    return index
  }

  it('asks about 男朋友 and finds 阿哲; asks about 闺蜜 and finds Susu, written in English', () => {
    const index = build()
    // The memory that says 男朋友 itself may come first; the one that only names him comes next.
    expect(
      index
        .search('我跟男朋友为啥吵架？', { now: NOW })
        .slice(0, 2)
        .map((h) => h.id),
    ).toContain('fight')
    expect(index.search('我是不是还欠闺蜜钱？', { now: NOW }).map((h) => h.id)).toContain('debt')
  })

  it('forgets the tie with the memory that stated it', () => {
    const index = build()
    index.remove('tie')
    expect(index.search('我跟男朋友为啥吵架？', { now: NOW }).map((h) => h.id)).not.toContain('fight')
  })

  it('keeps the tie in a saved index', () => {
    const { columns } = unpackColumns(packColumns(build().toColumns(), {}), tokenizerSignature())
    const loaded = RecallIndex.fromColumns(columns)
    const fromJson = RecallIndex.fromJSON(JSON.parse(JSON.stringify(build().toJSON())))
    for (const index of [loaded, fromJson]) expect(index.search('我跟男朋友为啥吵架？', { now: NOW }).map((h) => h.id)).toContain('fight')
  })
})
