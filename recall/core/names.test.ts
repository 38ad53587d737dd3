import { describe, expect, it } from 'vitest'
import { bilingualDictionary } from './bilingual.ts'
import { capitalisedRuns, isChineseName, markNames, namesTheUnknown, type NameableGroup } from './names.ts'
import { RecallIndex } from './recall-index.ts'

const NOW = new Date('2026-06-15T12:00:00Z')
const AT = '2026-01-01T00:00:00Z'

describe('capitalisedRuns: English names by their capital', () => {
  it('finds a name inside a sentence, stemmed as the tokenizer stems it, and not the first word or I', () => {
    expect(capitalisedRuns('Which hotel did I stay at in Paris?')).toEqual([['paris']])
    expect(capitalisedRuns('Paris was lovely. Where did I stay?')).toEqual([])
  })

  it('takes months and days as times, not names', () => {
    expect(capitalisedRuns('What did I do in August and on Friday?')).toEqual([])
    expect(capitalisedRuns('What gift did I get on May 20?')).toEqual([])
  })

  it('keeps a title of several words as one run, its small words inside it', () => {
    expect(capitalisedRuns('When did I watch Eternal Sunshine of the Spotless Mind?')).toEqual([['eternal', 'sunshin', 'spotless', 'mind']])
  })
})

describe('Chinese names: what CC-CEDICT only ever capitalises', () => {
  const dict = bilingualDictionary()!

  it('a country or a city is a name; a thing that shares a reading with a name is not', () => {
    for (const w of ['德国', '巴黎', '北京', '日本']) expect({ w, name: isChineseName(w, dict) }).toEqual({ w, name: true })
    for (const w of ['苹果', '地铁', '奶奶', '猫']) expect({ w, name: isChineseName(w, dict) }).toEqual({ w, name: false })
  })

  it('a festival is a time, not a name', () => {
    for (const w of ['春节', '中秋节', '圣诞节', '国庆']) expect({ w, name: isChineseName(w, dict) }).toEqual({ w, name: false })
  })

  it('a name held in its short form (日 of 日语) is not unknown', () => {
    const group: NameableGroup = { term: '日本', id: undefined, alternatives: [] }
    markNames('我去日本玩了几天？', [group], dict, (t) => (t === '日语' ? 7 : undefined))
    expect(group).toMatchObject({ name: true, abbreviated: true })
    expect(namesTheUnknown([group])).toBe(false)
    const bare: NameableGroup = { term: '日本', id: undefined, alternatives: [] }
    markNames('我去日本玩了几天？', [bare], dict, () => undefined)
    expect(namesTheUnknown([bare])).toBe(true)
  })
})

describe('RecallIndex: a question that names a place no memory mentions', () => {
  const store = new RecallIndex()
  const texts = [
    '外婆九十大寿，全家在绍兴的酒店吃饭。',
    'We stayed at a small hotel by the lake in Hangzhou.',
    '在学日语，计划明年去京都。',
    '周末去爬山。',
    '买了一双新跑鞋。',
  ]
  texts.forEach((text, i) => store.add({ id: `m${i}`, text, at: AT, source: 'entry' }))

  it('says nothing about a hotel in Paris, though it holds hotels, and says why', () => {
    const answer = store.explain('Which hotel did I stay at in Paris?', { now: NOW })
    expect(answer.hits).toEqual([])
    expect(answer.silence?.reason).toBe('unknown-name')
    expect(store.explain('Which hotel did I stay at in Paris?', { now: NOW, abstain: false }).hits.length).toBeGreaterThan(0)
    expect(store.explain('我在德国留学学的什么？', { now: NOW }).silence?.reason).toBe('unknown-name')
  })

  it('answers about a place it does mention, by its name in either language or its short form', () => {
    expect(store.search('Which hotel did I stay at in Hangzhou?', { now: NOW })[0]?.id).toBe('m1')
    expect(store.search('我在绍兴的哪家酒店吃的饭？', { now: NOW })[0]?.id).toBe('m0')
    expect(store.search('去日本的计划', { now: NOW })[0]?.id).toBe('m2')
  })

  it('takes no detour through the dictionary from a name: 日本 does not reach China (japan, the lacquer, then china)', () => {
    const abroad = new RecallIndex()
    abroad.add({ id: 'c', text: 'Year-end recap: one conference abroad, one in China.', at: AT, source: 'entry' })
    abroad.add({ id: 'k', text: 'Kyoto trip with Mo, five days in August.', at: AT, source: 'entry' })
    const hits = abroad.search('去日本玩那趟', { now: NOW, abstain: false })
    expect(hits.flatMap((h) => h.matched)).not.toContain('china')
  })

  it('a name before a thing narrows the thing (英伦摇滚乐队, 北欧国家): the memory about the thing answers', () => {
    const music = new RecallIndex()
    music.add({ id: 'r', text: 'My favourite band is Radiohead; I saw them live once in Shanghai.', at: AT, source: 'entry' })
    music.add({ id: 'i', text: 'I want to save 50,000 yuan for a trip to Iceland next year.', at: AT, source: 'entry' })
    music.add({ id: 'h', text: '外婆九十大寿，全家在绍兴的酒店吃饭。', at: AT, source: 'entry' })
    expect(music.search('我是不是看过英伦摇滚乐队的现场？', { now: NOW })[0]?.id).toBe('r')
    expect(music.search('存钱是为了去哪个北欧国家来着', { now: NOW })[0]?.id).toBe('i')
    // Before an action, or alone, the name is still the topic.
    expect(music.explain('我去德国住的哪家酒店？', { now: NOW }).silence?.reason).toBe('unknown-name')
    expect(music.explain('我在巴黎住的哪家酒店？', { now: NOW }).silence?.reason).toBe('unknown-name')
  })

  it('an app or a brand the message only goes through is no unknown name (decision 125)', () => {
    const work = new RecallIndex()
    work.add({ id: 'boss', text: 'My manager at work is called Rachel; she prefers updates by email, not chat.', at: AT, source: 'entry' })
    work.add({ id: 'tea', text: '我最喜欢喝的是铁观音，办公室抽屉里常备一罐。', at: AT, source: 'entry' })
    work.add({ id: 'hike', text: '周末去爬山，天气很好。', at: AT, source: 'entry' })
    work.add({ id: 'shoes', text: '买了一双新跑鞋。', at: AT, source: 'entry' })
    expect(work.search('跟我上司汇报工作她喜欢哪种方式？直接发微信行不行啊', { now: NOW })[0]?.id).toBe('boss')
    // A place still is: 德国 and 巴黎 above.
  })

  it('a month in the question is no unknown name', () => {
    expect(store.search('Which hotel did I stay at in August?', { now: NOW }).length).toBeGreaterThan(0)
  })
})
