import { describe, expect, it } from 'vitest'
import { asksWhen, festivalsNamed, mentionsTime } from './time-words.ts'
import { RecallIndex } from './recall-index.ts'

describe('time words', () => {
  it('notices a memory that says when', () => {
    for (const t of ['i went there yesterday', 'last week we met', 'on saturday', 'back in 2019', '我们昨天去了西湖', '上个月搬家了', '3月12号'])
      expect(mentionsTime(t)).toBe(true)
    for (const t of ['i may go', 'we march on', 'a lovely lake', '我喜欢喝茶', 'in 12345 steps']) expect(mentionsTime(t)).toBe(false)
  })

  it('notices a question that asks when', () => {
    for (const q of ['When did she paint it?', 'How long ago was her birthday?', '你什么时候去的？', '哪天搬的家']) expect(asksWhen(q)).toBe(true)
    for (const q of ['What did she paint?', 'Where is it?', '你喜欢什么茶？']) expect(asksWhen(q)).toBe(false)
  })

  it('a "when" question ranks the dated one of two equal memories first; other questions do not care', () => {
    const index = new RecallIndex({ recencyWeight: 0, neighbourShare: 0, feedbackWeight: 0 })
    index.add({ id: 'a-plain', text: 'Melanie went to the pottery class', at: '2026-01-01T00:00:00Z', source: 'entry' })
    index.add({ id: 'b-dated', text: 'Melanie went to the pottery class yesterday', at: '2026-02-01T00:00:00Z', source: 'entry' })
    const now = new Date('2026-06-01T00:00:00Z')
    expect(index.search('When did Melanie go to the pottery class?', { now }).map((h) => h.id)).toEqual(['b-dated', 'a-plain'])
    expect(index.search('Did Melanie go to the pottery class?', { now }).map((h) => h.id)).toEqual(['a-plain', 'b-dated'])
    const off = new RecallIndex({ recencyWeight: 0, neighbourShare: 0, feedbackWeight: 0, timeWeight: 0 })
    off.add({ id: 'a-plain', text: 'Melanie went to the pottery class', at: '2026-01-01T00:00:00Z', source: 'entry' })
    off.add({ id: 'b-dated', text: 'Melanie went to the pottery class yesterday', at: '2026-02-01T00:00:00Z', source: 'entry' })
    expect(off.search('When did Melanie go to the pottery class?', { now }).map((h) => h.id)).toEqual(['a-plain', 'b-dated'])
  })

  it('reads a festival named by its lunar day, and a calendar date as a date', () => {
    expect(festivalsNamed('去年八月十五那天')).toEqual(['中秋节'])
    expect(festivalsNamed('大年三十回老家')).toEqual(['除夕'])
    expect(festivalsNamed('正月十五吃元宵')).toEqual(['元宵节'])
    expect(festivalsNamed('八月十五号交房租')).toEqual([])
    expect(festivalsNamed('八月份去了趟上海')).toEqual([])
  })

  it('a question about 八月十五 finds the memory about 中秋节', () => {
    const index = new RecallIndex({})
    index.add({ id: 'mid-autumn', text: '中秋节阿哲来我家吃饭，爸爸和他喝了半瓶黄酒。', at: '2025-10-06T12:00:00Z', source: 'entry' })
    index.add({ id: 'other', text: '阿哲请我爸喝过一次咖啡。', at: '2025-08-15T12:00:00Z', source: 'entry' })
    const now = new Date('2026-06-15T12:00:00Z')
    expect(index.search('去年八月十五那天，我男朋友跟我爸喝的什么酒？', { now })[0]?.id).toBe('mid-autumn')
  })
})
