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

  it('reads a festival named by its lunar day, and a calendar date, an age or a year as what they are', () => {
    expect(festivalsNamed('去年八月十五那天')).toEqual([{ day: '八月十五', festival: '中秋节' }])
    expect(festivalsNamed('大年三十回老家')).toEqual([{ day: '大年三十', festival: '除夕' }])
    expect(festivalsNamed('正月十五吃元宵')).toEqual([{ day: '正月十五', festival: '元宵节' }])
    for (const t of ['八月十五号交房租', '八月份去了趟上海', '我今年三十岁', '去年三十号发的工资', '明年三十周年', '五月初五号'])
      expect({ t, f: festivalsNamed(t) }).toEqual({ t, f: [] })
  })

  it('a question about 八月十五 finds the memory about 中秋节, and one that wrote the day still answers', () => {
    const index = new RecallIndex({})
    const texts = [
      '中秋节阿哲来我家吃饭，爸爸和他喝了半瓶黄酒。',
      '八月份和阿哲去看了一场电影。',
      '周末去爬山，晚上喝了点啤酒。',
      '爸爸最近在学书法。',
      '买了一双新跑鞋。',
      '公司楼下新开了一家面馆。',
    ]
    texts.forEach((text, i) => index.add({ id: i === 0 ? 'mid-autumn' : `m${i}`, text, at: '2025-10-06T12:00:00Z', source: 'entry' }))
    const now = new Date('2026-06-15T12:00:00Z')
    // An August memory shares 八月 itself; the festival's is found beside it, by 中秋.
    const hits = index.search('去年八月十五那天，我男朋友跟我爸喝的什么酒？', { now }).slice(0, 3)
    expect(hits.find((h) => h.id === 'mid-autumn')?.matched).toContain('中秋')
    index.add({ id: 'the-day', text: '八月十五那天下了一场大雨。', at: '2025-10-06T12:00:00Z', source: 'entry' })
    const answer = index.explain('八月十五那天我在哪？', { now })
    expect(answer.hits[0]?.id).toBe('the-day')
    expect(answer.coverage).toBeGreaterThanOrEqual(0.5)
  })
})
