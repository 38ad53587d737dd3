import { describe, expect, it } from 'vitest'
import { composeMemoryBlock } from './memory-block.ts'

const anchors = [
  { key: 'self', title: '我是谁', text: '我是昔涟。' },
  { key: 'user', title: '你是谁', text: '你是阿远，写小说的人。' },
  { key: 'origin', title: '来处', text: '' },
  { key: 'goal', title: '去处', text: '一起写完第一本书。' },
]
const recent = [
  { date: '2026-11-29', text: '今天改完了第三章。' },
  { date: '2026-11-28', text: '喜欢乌龙茶，不加糖。' },
]

describe('composeMemoryBlock', () => {
  it('anchors first, empty anchors left out, then the newest days', () => {
    const r = composeMemoryBlock(anchors, recent, 1200)
    expect(r.text).toBe('【我是谁】我是昔涟。\n【你是谁】你是阿远，写小说的人。\n【去处】一起写完第一本书。\n【近来】\n- 2026-11-29 今天改完了第三章。\n- 2026-11-28 喜欢乌龙茶，不加糖。')
    expect(r.cut).toBe(0)
  })

  it('never exceeds the budget and counts what it cut', () => {
    const long = anchors.map((a) => ({ ...a, text: a.text + '很长'.repeat(400) }))
    const many = Array.from({ length: 100 }, (_, i) => ({ date: `2026-10-${String(i % 28 + 1).padStart(2, '0')}`, text: '一件值得记住的小事'.repeat(3) }))
    for (const budget of [0, 50, 300, 1200]) {
      const r = composeMemoryBlock(long, many, budget)
      expect([...r.text].length).toBeLessThanOrEqual(budget)
      expect(r.cut).toBeGreaterThan(0)
    }
  })

  it('an empty memory gives an empty block', () => {
    expect(composeMemoryBlock([], [], 1200)).toEqual({ text: '', cut: 0 })
  })
})
