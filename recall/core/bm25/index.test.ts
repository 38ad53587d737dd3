import { describe, expect, it } from 'vitest'
import { MAX_TERM_FREQUENCY, TermIndex, postingFrequency, postingSlot } from './index.ts'

const counts = (...terms: string[]): Map<string, number> => {
  const m = new Map<string, number>()
  for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1)
  return m
}

describe('TermIndex', () => {
  it('tracks document frequency, count and average length', () => {
    const index = new TermIndex()
    index.add(0, counts('tea', 'tea', 'cat'), 3)
    index.add(1, counts('tea'), 1)
    expect(index.docCount).toBe(2)
    expect(index.averageLength).toBe(2)
    expect(index.documentFrequency(index.termId('tea')!)).toBe(2)
    expect(index.documentFrequency(index.termId('cat')!)).toBe(1)
    const postings = Array.from(index.postingsOf(index.termId('tea')!)).map((p) => [postingSlot(p), postingFrequency(p)])
    expect(postings).toEqual([
      [0, 2],
      [1, 1],
    ])
  })

  it('forgets a removed document completely', () => {
    const index = new TermIndex()
    index.add(0, counts('tea', 'cat'), 2)
    index.add(1, counts('tea'), 1)
    index.remove(0)
    expect(index.docCount).toBe(1)
    expect(index.averageLength).toBe(1)
    expect(index.documentFrequency(index.termId('cat')!)).toBe(0)
    expect(Array.from(index.postingsOf(index.termId('tea')!)).map(postingSlot)).toEqual([1])
    expect(index.docTerms(0)).toBeUndefined()
    index.remove(0) // twice is harmless
    expect(index.docCount).toBe(1)
  })

  it('lets a freed slot be reused and refuses a taken one', () => {
    const index = new TermIndex()
    index.add(0, counts('tea'), 1)
    expect(() => index.add(0, counts('cat'), 1)).toThrow(/in use/)
    index.remove(0)
    index.add(0, counts('cat'), 1)
    expect(index.documentFrequency(index.termId('tea')!)).toBe(0)
    expect(index.documentFrequency(index.termId('cat')!)).toBe(1)
  })

  it('rejects impossible slots', () => {
    expect(() => new TermIndex().add(-1, counts('tea'), 1)).toThrow(RangeError)
    expect(() => new TermIndex().add(2 ** 23, counts('tea'), 1)).toThrow(RangeError)
  })

  it('caps a stored frequency instead of corrupting the slot', () => {
    const index = new TermIndex()
    index.add(5, new Map([['tea', 1000]]), 1000)
    const [posting] = index.postingsOf(index.termId('tea')!)
    expect(postingSlot(posting!)).toBe(5)
    expect(postingFrequency(posting!)).toBe(MAX_TERM_FREQUENCY)
    // The document keeps its true frequency (it is what gets serialised).
    expect(Array.from(index.docTerms(5)!.pairs)).toEqual([index.termId('tea'), 1000])
  })
})
