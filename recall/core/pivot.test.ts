import { describe, expect, it } from 'vitest'
import { fakeDictionary } from './testing/fake-dictionary.ts'
import { PIVOT_MIN_SHARE, pivotTranslations } from './pivot.ts'

const dictionary = fakeDictionary

describe('pivotTranslations: translations one detour away through the dictionary', () => {
  // CC-CEDICT's shape: 作家 is glossed "author" only, so "writer" does not reach it directly.
  const dict = dictionary({ 作者: ['author', 'writer'], 作家: ['author'], 文学家: ['writer', 'literat'], 文人: ['literat', 'scholar'] })

  it('reaches writer → 作者 → author → 作家, and never returns a direct translation or the word itself', () => {
    const words = pivotTranslations('writer', dict, () => false).map((p) => p.word)
    expect(words).toContain('作家')
    expect(words).not.toContain('作者')
    expect(words).not.toContain('文学家')
    expect(words).not.toContain('writer')
  })

  it('shares add up over the ways that lead to a word and never exceed the whole walk', () => {
    const found = pivotTranslations('writer', dict, () => false)
    const total = found.reduce((sum, p) => sum + p.share, 0)
    expect(total).toBeGreaterThan(0)
    expect(total).toBeLessThanOrEqual(1 + 1e-9)
    for (const p of found) expect(p.share).toBeGreaterThanOrEqual(PIVOT_MIN_SHARE)
    for (let i = 1; i < found.length; i++) expect(found[i - 1]!.share).toBeGreaterThanOrEqual(found[i]!.share)
  })

  it('a word skipped on the way cuts the paths through it', () => {
    expect(pivotTranslations('writer', dict, (w) => w === 'author').map((p) => p.word)).not.toContain('作家')
  })

  it('works the other way round (Chinese → English) and knows nothing of an unknown word', () => {
    expect(pivotTranslations('作家', dict, () => false).map((p) => p.word)).toContain('writer')
    expect(pivotTranslations('钢琴', dict, () => false)).toEqual([])
  })
})
