import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { charCount, clip, fitWithinBudget } from './budget.ts'

/** Half of a surrogate pair on its own: what a cut inside an emoji leaves behind. */
const hasLoneSurrogate = (text: string): boolean => /\p{Cs}/u.test(text)
/** Any well-formed text: every code point, emoji sequences, combining marks. */
const anyText = fc.oneof(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ unit: 'grapheme', maxLength: 120 }))
const limit = fc.integer({ min: 0, max: 250 })

it('charCount counts code points', () => {
  expect(charCount('昔涟😀a')).toBe(4)
})

describe('clip (issue 8: one clip for every block)', () => {
  it('cuts with the ellipsis inside the limit, between code points', () => {
    expect(clip('喝茶'.repeat(10), 5)).toBe('喝茶喝茶…')
    expect(clip('😀'.repeat(10), 4)).toBe('😀😀😀…')
    expect(clip('tea', 3)).toBe('tea')
    expect(clip('tea', 0)).toBe('')
    expect(clip('tea', 1)).toBe('…')
  })

  it('trimEnd drops the whitespace left at the cut; a custom ellipsis counts within the limit', () => {
    expect(clip('ab   cdef', 6, { trimEnd: true })).toBe('ab…')
    expect(clip('ab   cdef', 6)).toBe('ab   …')
    expect(clip('abcdef', 5, { ellipsis: '...' })).toBe('ab...')
    expect(clip('abcdef', 2, { ellipsis: '...' })).toBe('')
  })

  it('property: never more than the limit in code points, never a lone surrogate, unchanged when it fits', () => {
    fc.assert(
      fc.property(anyText, limit, fc.boolean(), (text, max, trimEnd) => {
        const out = clip(text, max, { trimEnd })
        expect(charCount(out)).toBeLessThanOrEqual(max)
        expect(hasLoneSurrogate(out)).toBe(false)
        if (charCount(text) <= max) expect(out).toBe(text)
        else if (out !== '') {
          expect(out.endsWith('…')).toBe(true)
          expect(text.startsWith(out.slice(0, -1))).toBe(true)
        }
      }),
    )
  })

  it('property: without trimEnd a cut text is exactly the limit long', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: 250 }), (text, max) => {
        fc.pre(charCount(text) > max)
        expect(charCount(clip(text, max))).toBe(max)
      }),
    )
  })
})

describe('fitWithinBudget (issue 8: one fit that returns the items)', () => {
  const items = (...texts: string[]) => texts.map((text, i) => ({ key: i, text }))
  const textOf = (item: { text: string }) => item.text

  it('returns the items themselves, whole while they fit, then shortens the one at the edge', () => {
    const given = items('x'.repeat(30), 'y'.repeat(30), 'z'.repeat(30))
    const fit = fitWithinBudget(given, textOf, 50, { minChars: 10 })
    expect(fit.picked.map((p) => p.item)).toEqual([given[0], given[1]])
    expect(fit.picked[1]!.text).toBe('y'.repeat(19) + '…')
    expect(fit.cut.map((c) => [c.item, c.reason])).toEqual([
      [given[1], 'budget'],
      [given[2], 'no-room'],
    ])
    expect(fit.usedChars).toBe(50)
  })

  it('an item without text is reported missing; a later shorter item uses room a long one could not', () => {
    const given = [
      { key: 0, text: 'x'.repeat(40) },
      { key: 1, text: undefined },
      { key: 2, text: 'y'.repeat(30) },
      { key: 3, text: 'ok' },
    ]
    const fit = fitWithinBudget(given, (item) => item.text, 50, { minChars: 20 })
    expect(fit.picked.map((p) => p.item.key)).toEqual([0, 3])
    expect(fit.cut.map((c) => [c.item.key, c.reason])).toEqual([
      [1, 'missing'],
      [2, 'no-room'],
    ])
  })

  it('property: never over the budget or the per-item limit, items in the order given, each accounted for once', () => {
    fc.assert(
      fc.property(
        fc.array(anyText, { maxLength: 12 }),
        fc.integer({ min: 0, max: 600 }),
        fc.integer({ min: 0, max: 200 }),
        fc.integer({ min: 0, max: 6 }),
        fc.boolean(),
        (texts, budget, perItemMax, overheadPerItem, trimEnd) => {
          const given = items(...texts)
          const fit = fitWithinBudget(given, textOf, budget, { perItemMax, overheadPerItem, trimEnd })
          const used = fit.picked.reduce((sum, p) => sum + charCount(p.text) + overheadPerItem, 0)
          expect(used).toBe(fit.usedChars)
          expect(used).toBeLessThanOrEqual(budget)
          const order = fit.picked.map((p) => given.indexOf(p.item))
          expect(order).toEqual([...order].sort((a, b) => a - b))
          expect(order.every((i) => i >= 0)).toBe(true)
          for (const p of fit.picked) {
            expect(charCount(p.text)).toBeLessThanOrEqual(perItemMax)
            expect(hasLoneSurrogate(p.text)).toBe(false)
            expect(p.truncated).toBe(p.text !== p.item.text)
          }
          const dropped = fit.cut.filter((c) => c.reason === 'no-room').map((c) => c.item)
          expect([...fit.picked.map((p) => p.item), ...dropped].sort((a, b) => a.key - b.key)).toEqual(given)
        },
      ),
    )
  })
})
