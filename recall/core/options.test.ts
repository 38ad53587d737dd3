import { describe, expect, it } from 'vitest'
import { DEFAULT_RECALL_OPTIONS, resolveOptions } from './options.ts'

describe('resolveOptions', () => {
  it('returns the documented defaults when given nothing', () => {
    expect(resolveOptions()).toEqual(DEFAULT_RECALL_OPTIONS)
  })

  it('overlays given values, including one source weight at a time', () => {
    const options = resolveOptions({ recencyHalfLifeDays: 30, sourceWeights: { anchor: 2 } })
    expect(options.recencyHalfLifeDays).toBe(30)
    expect(options.sourceWeights).toEqual({ ...DEFAULT_RECALL_OPTIONS.sourceWeights, anchor: 2 })
  })

  it('falls back to the default for nonsense values', () => {
    const options = resolveOptions({ k1: Number.NaN, b: -1, recencyHalfLifeDays: 0, linkShare: Infinity, maxQueryTerms: -3 })
    expect(options.k1).toBe(DEFAULT_RECALL_OPTIONS.k1)
    expect(options.b).toBe(DEFAULT_RECALL_OPTIONS.b)
    expect(options.recencyHalfLifeDays).toBe(DEFAULT_RECALL_OPTIONS.recencyHalfLifeDays)
    expect(options.linkShare).toBe(DEFAULT_RECALL_OPTIONS.linkShare)
    expect(options.maxQueryTerms).toBe(DEFAULT_RECALL_OPTIONS.maxQueryTerms)
  })

  it('caps b at 1 and accepts 0 where 0 means "off"', () => {
    expect(resolveOptions({ b: 3 }).b).toBe(1)
    expect(resolveOptions({ recencyWeight: 0, linkShare: 0, linkSeeds: 0 })).toMatchObject({ recencyWeight: 0, linkShare: 0, linkSeeds: 0 })
  })

  it('does not share the default source weights object', () => {
    const options = resolveOptions()
    options.sourceWeights.entry = 5
    expect(DEFAULT_RECALL_OPTIONS.sourceWeights.entry).toBe(1)
  })
})
