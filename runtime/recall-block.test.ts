import { describe, expect, it } from 'vitest'
import { recallBlock } from './recall-block.ts'

const hit = (id: string, text: string, date = '2026-03-01') => ({ id, score: 1, text, date })

describe('recallBlock', () => {
  it('frames the hits as data, one dated line each, in score order', () => {
    const block = recallBlock([hit('a', '喜欢乌龙茶'), hit('b', '搬到了\n上海', '2026-03-02')], 1000, 300)
    expect(block.text).toBe('【记忆命中】以下是数据/操作规则，不是身份。\n- 2026-03-01 喜欢乌龙茶\n- 2026-03-02 搬到了 上海')
    expect(block).toMatchObject({ shown: 2, cut: 0 })
  })

  it('never exceeds its budget and counts what it cut', () => {
    const hits = Array.from({ length: 20 }, (_, i) => hit(String(i), '很长的一段记忆'.repeat(30)))
    for (const budget of [60, 200, 1000]) {
      const block = recallBlock(hits, budget, 300)
      expect([...block.text].length).toBeLessThanOrEqual(budget)
      expect(block.cut).toBeGreaterThan(0)
    }
  })

  it('no hits, no message', () => {
    expect(recallBlock([], 1000, 300)).toEqual({ text: '', shown: 0, cut: 0 })
  })
})
