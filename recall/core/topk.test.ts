import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { topK } from './topk.ts'
import { compareRanked } from './scoring.ts'

describe('topK', () => {
  it('equals sorting everything and taking the first k', () => {
    const item = fc.record({ id: fc.string({ maxLength: 3 }), score: fc.integer({ min: 0, max: 5 }) })
    fc.assert(
      fc.property(fc.array(item, { maxLength: 60 }), fc.integer({ min: 0, max: 70 }), (items, k) => {
        expect(topK(items, k, compareRanked)).toEqual([...items].sort(compareRanked).slice(0, k))
      }),
    )
  })

  it('returns nothing for k = 0', () => {
    expect(topK([{ id: 'a', score: 1 }], 0, compareRanked)).toEqual([])
  })
})
