import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { selectWithinBudget } from './budget.ts'

const docs = (entries: Record<string, string>): Map<string, { text: string }> => new Map(Object.entries(entries).map(([id, text]) => [id, { text }]))
const hits = (...ids: string[]) => ids.map((id, i) => ({ id, score: 10 - i }))
const length = (s: string): number => Array.from(s).length

describe('selectWithinBudget', () => {
  it('takes whole entries while they fit, in rank order', () => {
    const result = selectWithinBudget(hits('a', 'b'), docs({ a: '喝茶', b: 'tea' }), 100, 50)
    expect(result.picked.map((p) => [p.id, p.text, p.truncated])).toEqual([
      ['a', '喝茶', false],
      ['b', 'tea', false],
    ])
    expect(result.cut).toEqual([])
    expect(result.usedChars).toBe(5)
  })

  it('cuts an entry at perEntryMax and reports it', () => {
    const result = selectWithinBudget(hits('a'), docs({ a: '茶'.repeat(100) }), 1000, 30)
    expect(length(result.picked[0]!.text)).toBe(30)
    expect(result.picked[0]!.text.endsWith('…')).toBe(true)
    expect(result.cut).toEqual([{ id: 'a', reason: 'entry-limit', originalChars: 100, keptChars: 30 }])
  })

  it('shortens the entry that reaches the budget edge, and drops what no longer fits', () => {
    const result = selectWithinBudget(hits('a', 'b', 'c'), docs({ a: 'x'.repeat(60), b: 'y'.repeat(60), c: 'z'.repeat(60) }), 100, 80, {
      minChars: 10,
    })
    expect(result.picked.map((p) => p.id)).toEqual(['a', 'b'])
    expect(length(result.picked[1]!.text)).toBe(40)
    expect(result.cut).toEqual([
      { id: 'b', reason: 'budget', originalChars: 60, keptChars: 40 },
      { id: 'c', reason: 'no-room', originalChars: 60, keptChars: 0 },
    ])
    expect(result.usedChars).toBe(100)
  })

  it('lets a later, shorter hit use room a long one could not', () => {
    const result = selectWithinBudget(hits('a', 'long', 'short'), docs({ a: 'x'.repeat(90), long: 'y'.repeat(50), short: 'ok' }), 100, 100, {
      minChars: 20,
    })
    expect(result.picked.map((p) => p.id)).toEqual(['a', 'short'])
    expect(result.cut.map((c) => [c.id, c.reason])).toEqual([['long', 'no-room']])
  })

  it('counts per-entry overhead against the budget', () => {
    const result = selectWithinBudget(hits('a', 'b'), docs({ a: 'x'.repeat(10), b: 'y'.repeat(10) }), 25, 50, {
      overheadPerEntry: 5,
      minChars: 8,
    })
    expect(result.picked.map((p) => p.id)).toEqual(['a'])
    expect(result.usedChars).toBe(15)
  })

  it('counts characters as code points and never splits an emoji', () => {
    const result = selectWithinBudget(hits('a'), docs({ a: '😀'.repeat(40) }), 1000, 30)
    expect(result.picked[0]!.text).toBe('😀'.repeat(29) + '…')
  })

  it('reports a hit whose document is missing and takes a repeated id once', () => {
    const result = selectWithinBudget(hits('gone', 'a', 'a'), docs({ a: 'tea' }), 100, 50)
    expect(result.picked.map((p) => p.id)).toEqual(['a'])
    expect(result.cut).toEqual([{ id: 'gone', reason: 'missing', originalChars: 0, keptChars: 0 }])
  })

  it('accepts a lookup function', () => {
    const result = selectWithinBudget(hits('a'), (id) => (id === 'a' ? 'tea' : undefined), 100, 50)
    expect(result.picked.map((p) => p.text)).toEqual(['tea'])
  })

  it('never exceeds either limit and accounts for every hit', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 120 })
    fc.assert(
      fc.property(
        fc.array(text, { maxLength: 12 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 0, max: 150 }),
        fc.integer({ min: 0, max: 6 }),
        (texts, budget, perEntry, overhead) => {
          const ids = texts.map((_, i) => `e${i}`)
          const result = selectWithinBudget(hits(...ids), docs(Object.fromEntries(texts.map((t, i) => [`e${i}`, t]))), budget, perEntry, {
            overheadPerEntry: overhead,
          })
          const used = result.picked.reduce((sum, p) => sum + length(p.text) + overhead, 0)
          expect(used).toBe(result.usedChars)
          expect(used).toBeLessThanOrEqual(budget)
          for (const p of result.picked) expect(length(p.text)).toBeLessThanOrEqual(perEntry)
          const dropped = result.cut.filter((c) => c.reason === 'no-room').map((c) => c.id)
          expect([...result.picked.map((p) => p.id), ...dropped].sort()).toEqual([...ids].sort())
          for (const p of result.picked) {
            expect(p.truncated).toBe(result.cut.some((c) => c.id === p.id))
          }
        },
      ),
    )
  })
})
