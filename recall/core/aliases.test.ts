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
    // Someone else's partner, an ex, a word after the relation, a pet not introduced by its name, a relation inside a longer word, another's pet.
    expect(ties('闺蜜苏苏的男朋友叫大伟。')).toEqual([aliasTerm('friend', '苏苏')])
    for (const text of [
      '苏苏的新男朋友叫大伟。',
      '苏苏的大学室友小林。',
      '苏苏男朋友叫大伟。',
      '她男朋友阿强很高。',
      '前男友阿强又来找我了。',
      '我怕狗，小时候被咬过。',
      '猫粮吃完了。',
      '熊猫叫团团。',
      '同事的小猫叫团子。',
      '老板娘送了一个荷包蛋。',
      '男朋友说周末去爬山。',
      'My boyfriend is an engineer.',
      'My ex boyfriend Kevin called.',
      'Lisa has a dog named Max.',
      'My boss is called Dr. and nothing else.',
    ])
      expect({ text, ties: ties(text) }).toEqual({ text, ties: [] })
  })

  it('reads a pet called by its breed, a daughter, a son and a team lead', () => {
    expect(ties('家里那只柯基叫土豆，名字是林静取的。')).toEqual([aliasTerm('dog', '土豆')])
    expect(ties('我家布偶叫年糕，特别粘人。')).toEqual([aliasTerm('cat', '年糕')])
    expect(ties('We adopted a corgi named Potato.')).toEqual([aliasTerm('dog', 'potato')])
    expect(ties('女儿朵朵今天上幼儿园了。')).toEqual([aliasTerm('daughter', '朵朵')])
    expect(ties('儿子小宝会走路了。')).toEqual([aliasTerm('son', '小宝')])
    expect(ties('My team lead Tom is from Manchester.')).toEqual([aliasTerm('boss', 'tom')])
    expect(ties('周六跟大学室友老邓去打羽毛球。')).toEqual([aliasTerm('roommate', '老邓')])
    expect(relationsNamed('闺女')).toEqual(['daughter'])
    expect(relationsNamed('老大')).toEqual(['boss'])
    expect(relationsNamed('狗子')).toEqual(['dog'])
  })

  it('reads every tie of a sentence', () => {
    expect(ties('男朋友阿哲和闺蜜苏苏去吃饭。')).toEqual([aliasTerm('boyfriend', '阿哲'), aliasTerm('friend', '苏苏')])
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
  const at = '2026-05-01T12:00:00Z'
  const fillers = ['周末去爬山，累坏了。', '买了一双新跑鞋。', '公司楼下新开了一家面馆。', '最近在学做蛋糕。']
  const build = (memories: { id: string; text: string }[]): RecallIndex => {
    const index = new RecallIndex()
    for (const m of [...memories, ...fillers.map((text, i) => ({ id: `filler${i}`, text }))]) index.add({ ...m, at, source: 'entry' })
    return index
  }
  const tie = { id: 'tie', text: '男朋友阿哲是做摄影的，工作室在西溪那边。' }
  const flowers = { id: 'flowers', text: '阿哲昨天送了我一束花。' }
  // The question and the memory share no word: only the tie joins them.
  const asked = '男朋友给过我什么惊喜？'

  it('asks about 男朋友 and finds the memory that only names 阿哲; 闺蜜 finds the one about Susu, written in English', () => {
    const index = build([
      tie,
      flowers,
      { id: 'friend', text: '周末和闺蜜苏苏去灵隐寺烧香。' },
      { id: 'debt', text: 'I owe Susu 600 yuan for the concert tickets.' },
    ])
    expect(index.search(asked, { now: NOW }).find((h) => h.id === 'flowers')?.matched).toContain('阿哲')
    expect(index.search('闺蜜最近怎么样？', { now: NOW }).find((h) => h.id === 'debt')?.matched).toContain('susu')
  })

  it('forgets the tie with the memory that stated it', () => {
    const index = build([tie, flowers])
    expect(index.search(asked, { now: NOW }).map((h) => h.id)).toContain('flowers')
    index.remove('tie')
    expect(index.search(asked, { now: NOW }).map((h) => h.id)).not.toContain('flowers')
  })

  it('keeps the tie in a saved index', () => {
    const { columns } = unpackColumns(packColumns(build([tie, flowers]).toColumns(), {}), tokenizerSignature())
    const fromColumns = RecallIndex.fromColumns(columns)
    const fromJson = RecallIndex.fromJSON(JSON.parse(JSON.stringify(build([tie, flowers]).toJSON())))
    for (const index of [fromColumns, fromJson]) expect(index.search(asked, { now: NOW }).find((h) => h.id === 'flowers')?.matched).toContain('阿哲')
  })

  it("does not take another's partner for the person's, nor a word for a name", () => {
    const index = build([
      tie,
      { id: 'his-work', text: '阿哲在杭州上班。' },
      { id: 'hers', text: '苏苏的新男朋友叫大伟。' },
      { id: 'his-other', text: '大伟在阿里上班。' },
    ])
    // Both say 上班; only 阿哲 is the boyfriend.
    const hits = index.search('我男朋友在哪上班？', { now: NOW })
    expect(hits.find((h) => h.id === 'his-work')?.matched).toContain('阿哲')
    expect(hits.find((h) => h.id === 'his-other')?.matched ?? []).not.toContain('大伟')
    const trips = build([
      { id: 'trip', text: '老公出差去深圳了。' },
      { id: 'mine', text: '我下个月要出差去上海开会。' },
    ])
    expect(trips.search('我老公喜欢吃什么？', { now: NOW }).map((h) => h.id)).not.toContain('mine')
  })

  it('finds a name tied in Chinese where an English memory writes it apart in pinyin (老邓 → Lao Deng), from an English question', () => {
    const index = build([
      { id: 'tie', text: '周六跟大学室友老邓去打羽毛球。' },
      { id: 'match', text: 'Lost to Lao Deng again, 21-15 and 21-18.' },
      { id: 'other', text: 'Lost my keys again on the way home.' },
    ])
    const hit = index.search('When did my roommate beat me?', { now: NOW }).find((h) => h.id === 'match')
    expect(hit?.matched).toEqual(expect.arrayContaining(['deng', 'lao']))
  })
})
