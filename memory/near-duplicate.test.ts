import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { findNearDuplicate, isNearDuplicate, NEAR_DUPLICATE_THRESHOLD, NearDuplicateIndex, similarity, withoutNearDuplicates } from './near-duplicate.ts'

const SAME: [string, string][] = [
  ['我喜欢乌龙茶', '我喜欢乌龙茶。'],
  ['我喜欢乌龙茶', '我很喜欢乌龙茶！'],
  ['我喜欢乌龙茶', '对方喜欢乌龙茶'],
  ['她喜欢喝乌龙茶', '我喜欢喝乌龙茶'],
  ['我们约好 5 月 1 日去爬山', '我们约好5月1日去爬山。'],
  ['I like oolong tea', 'I really like oolong tea.'],
  ['The user likes oolong tea', 'I like oolong tea'],
  ['She has a cat named Mochi', 'she has a cat named mochi!'],
  ['每天早上跑步 5 公里', '每天早上都跑步5公里'],
  ['Loves hiking with her dog on weekends', 'loves hiking with her dog on weekends.'],
]

const DIFFERENT: [string, string, string][] = [
  ['我喜欢乌龙茶', '我不喜欢乌龙茶', 'negation'],
  ['我喜欢乌龙茶', '我没有喜欢乌龙茶', 'negation'],
  ['I like oolong tea', "I don't like oolong tea", 'negation'],
  ['I like oolong tea', 'I do not like oolong tea', 'negation'],
  ['She will come to the party', 'She will never come to the party', 'negation'],
  ['我喜欢乌龙茶', '我喜欢红茶', 'changed preference'],
  ['I like oolong tea', 'I like green tea', 'changed preference'],
  ['I prefer tea over coffee', 'I prefer coffee over tea', 'changed preference (order)'],
  ['最喜欢的颜色是蓝色', '最喜欢的颜色是绿色', 'changed preference'],
  ['我们约好5月1日去爬山', '我们约好6月1日去爬山', 'new date'],
  ['Dentist appointment on 2026-03-04', 'Dentist appointment on 2026-03-11', 'new date'],
  ['周六去看电影', '周日去看电影', 'new date'],
  ['她养了两只猫', '她养了三只猫', 'new number'],
  ['Runs 5 km every morning', 'Runs 10 km every morning', 'new number'],
  ['I love my job', 'I hate my job', 'opposite feeling'],
]

describe('near-duplicate measure', () => {
  it.each(SAME)('merges %j and %j', (a, b) => {
    expect(similarity(a, b)).toBeGreaterThanOrEqual(NEAR_DUPLICATE_THRESHOLD)
    expect(isNearDuplicate(b, a)).toBe(true)
  })

  it.each(DIFFERENT)('keeps %j and %j apart (%s)', (a, b) => {
    expect(similarity(a, b)).toBeLessThan(NEAR_DUPLICATE_THRESHOLD)
    expect(isNearDuplicate(a, b)).toBe(false)
  })

  it('finds the closest candidate and none below the threshold', () => {
    const list = [
      { id: 'a', text: '我喜欢红茶' },
      { id: 'b', text: '我很喜欢乌龙茶' },
    ]
    expect(findNearDuplicate('我喜欢乌龙茶', list)?.item.id).toBe('b')
    expect(findNearDuplicate('我喜欢咖啡', list)).toBeUndefined()
    expect(findNearDuplicate('', list)).toBeUndefined()
  })

  it('withoutNearDuplicates keeps the first of each group, in order', () => {
    const list = ['我喜欢乌龙茶', 'I like oolong tea', '我很喜欢乌龙茶', '我不喜欢乌龙茶', 'I really like oolong tea']
    expect(withoutNearDuplicates(list.map((text) => ({ text }))).map((x) => x.text)).toEqual(['我喜欢乌龙茶', 'I like oolong tea', '我不喜欢乌龙茶'])
  })

  it('property: symmetric, within 0…1, identical texts with something to say are duplicates', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const s = similarity(a, b)
        expect(s).toBeGreaterThanOrEqual(0)
        expect(s).toBeLessThanOrEqual(1)
        expect(similarity(b, a)).toBeCloseTo(s, 12)
      }),
    )
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z乌龙茶猫狗山水]{1,20}$/), (a) => {
        expect(isNearDuplicate(a, a)).toBe(similarity(a, a) > 0)
      }),
    )
  })
})

describe('NearDuplicateIndex', () => {
  // Few pieces, so that texts often share most of their units, negations and numbers included.
  const piece = fc.constantFrom('我', '喜欢', '乌龙茶', '红茶', '不', '每天', '跑步', '5', '公里', 'I', 'like', 'tea', 'not', 'cat', 'Mochi', '两只', '猫')
  const text = fc.array(piece, { minLength: 1, maxLength: 8 }).map((parts) => parts.join(' '))

  it('compares a text changed under the same id as it is now', () => {
    const index = new NearDuplicateIndex()
    index.add('a', '我喜欢乌龙茶')
    expect(index.find('我很喜欢乌龙茶')?.id).toBe('a')
    index.add('a', '我喜欢红茶')
    expect(index.find('我很喜欢乌龙茶')).toBeUndefined()
  })

  it('finds what comparing with every text added before finds', () => {
    fc.assert(
      fc.property(fc.array(text, { minLength: 1, maxLength: 40 }), (texts) => {
        const index = new NearDuplicateIndex()
        const added: { id: string; text: string }[] = []
        texts.forEach((t, i) => {
          const brute = findNearDuplicate(t, added)
          const found = index.find(t)
          expect(found?.similarity).toBe(brute?.similarity)
          if (found !== undefined) expect(similarity(t, added.find((a) => a.id === found.id)!.text)).toBe(found.similarity)
          const id = `e${i % 7}`
          const at = added.findIndex((a) => a.id === id)
          if (at >= 0) added.splice(at, 1)
          added.push({ id, text: t })
          index.add(id, t)
        })
      }),
      { numRuns: 200 },
    )
  })
})
