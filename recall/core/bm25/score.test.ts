import { describe, expect, it } from 'vitest'
import { TermIndex } from './index.ts'
import { accumulateBm25, inverseDocumentFrequency, termScore } from './score.ts'

const params = { k1: 1.2, b: 0.75 }

describe('BM25 pieces', () => {
  it('gives rarer terms a larger, always positive idf', () => {
    expect(inverseDocumentFrequency(100, 1)).toBeGreaterThan(inverseDocumentFrequency(100, 10))
    expect(inverseDocumentFrequency(100, 100)).toBeGreaterThan(0)
  })

  it('rises with term frequency but saturates', () => {
    const s1 = termScore(1, 1, 10, 10, params)
    const s2 = termScore(1, 2, 10, 10, params)
    const s50 = termScore(1, 50, 10, 10, params)
    expect(s2).toBeGreaterThan(s1)
    expect(s50).toBeLessThan(params.k1 + 1)
  })

  it('prefers the shorter of two documents with the same matches, unless b = 0', () => {
    expect(termScore(1, 1, 5, 10, params)).toBeGreaterThan(termScore(1, 1, 20, 10, params))
    expect(termScore(1, 1, 5, 10, { k1: 1.2, b: 0 })).toBe(termScore(1, 1, 20, 10, { k1: 1.2, b: 0 }))
  })
})

describe('accumulateBm25', () => {
  it('sums per document, skips rejected documents and reports touched slots once', () => {
    const index = new TermIndex()
    index.add(
      0,
      new Map([
        ['tea', 1],
        ['cat', 1],
      ]),
      2,
    )
    index.add(1, new Map([['tea', 1]]), 1)
    index.add(2, new Map([['dog', 1]]), 1)
    const scores = new Float64Array(3)
    const terms = [index.termId('cat')!, index.termId('tea')!].map((id) => ({ id, weight: 1 }))
    const touched = accumulateBm25(index, terms, params, scores, (slot) => slot !== 1)
    expect(touched).toEqual([0])
    expect(scores[0]).toBeGreaterThan(0)
    expect(scores[1]).toBe(0)
    expect(scores[2]).toBe(0)
  })

  it('scales a term by its weight', () => {
    const index = new TermIndex()
    index.add(0, new Map([['tea', 1]]), 1)
    index.add(1, new Map([['cat', 1]]), 1)
    const full = new Float64Array(2)
    const half = new Float64Array(2)
    accumulateBm25(index, [{ id: index.termId('tea')!, weight: 1 }], params, full)
    accumulateBm25(index, [{ id: index.termId('tea')!, weight: 0.5 }], params, half)
    expect(half[0]).toBeCloseTo(full[0]! / 2)
  })
})
