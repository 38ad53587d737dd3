import { describe, expect, it } from 'vitest'
import { RecallIndex } from './recall-index.ts'
import { colloquialSynonyms } from './synonyms.ts'

describe('colloquialSynonyms', () => {
  it('links the words of a group both ways, and nothing else', () => {
    expect(colloquialSynonyms('对象')).toContain('男朋友')
    expect(colloquialSynonyms('男朋友')).toContain('对象')
    expect(colloquialSynonyms('妈')).toEqual(expect.arrayContaining(['妈妈', '母亲']))
    expect(colloquialSynonyms('对象')).not.toContain('对象')
    expect(colloquialSynonyms('桌子')).toEqual([])
  })

  it('the days of the week in their three ways; a kind beside its instances, never the instances beside each other', () => {
    expect(colloquialSynonyms('礼拜四')).toEqual(expect.arrayContaining(['星期四', '周四']))
    expect(colloquialSynonyms('钢琴')).toContain('乐器')
    expect(colloquialSynonyms('钢琴')).not.toContain('吉他')
    expect(colloquialSynonyms('抗生素')).toEqual(expect.arrayContaining(['青霉素', '头孢']))
    expect(colloquialSynonyms('青霉素')).not.toContain('头孢')
  })

  it('a word in two groups has the words of both (猫: its own, and 宠物)', () => {
    expect(colloquialSynonyms('猫')).toEqual(expect.arrayContaining(['猫咪', '宠物']))
  })
})

describe('internet slang finds the plain word a memory used', () => {
  const at = '2026-05-01T10:00:00Z'
  const now = new Date('2026-06-15T12:00:00Z')
  const store = (options = {}): RecallIndex => {
    const index = new RecallIndex(options)
    index.add({ id: 'period', text: '这个月例假推迟了一周，有点慌。', at, source: 'entry' })
    index.add({ id: 'coder', text: '表哥在杭州当程序员，天天加班到十点。', at, source: 'entry' })
    index.add({ id: 'shop', text: '网购了一台空气炸锅，双十一便宜两百。', at, source: 'entry' })
    index.add({ id: 'park', text: '周末去西湖边散步，人特别多。', at, source: 'entry' })
    index.add({ id: 'commute', text: '公司搬到了未来科技城，通勤变成一个小时了。', at, source: 'entry' })
    return index
  }

  it.each([
    ['大姨妈来了没', 'period'],
    ['码农最近咋样', 'coder'],
    ['又剁手了啥', 'shop'],
    // Not slang: a phrase of two words the table joins (上班|路上 → 上班路上 ~ 通勤).
    ['上班路上得花多久', 'commute'],
  ])('%s → %s among the first two, and not at all without the table', (question, id) => {
    expect(
      store()
        .search(question, { now })
        .slice(0, 2)
        .map((h) => h.id),
    ).toContain(id)
    expect(
      store({ synonymWeight: 0 })
        .search(question, { now })
        .map((h) => h.id),
    ).not.toContain(id)
  })
})
