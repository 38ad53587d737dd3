import { describe, expect, it } from 'vitest'
import { assignSides } from './order.ts'

const IDS = Array.from({ length: 20 }, (_, i) => `s${i}`)

describe('A/B sides', () => {
  it('the same seed gives the same sides; a scenario keeps its sides when others are left out', () => {
    expect(assignSides(IDS, 42)).toEqual(assignSides(IDS, 42))
    expect(assignSides(['s3'], 42).s3).toEqual(assignSides(IDS, 42).s3)
  })

  it('each scenario gets one of each, and over 20 scenarios both orders occur; another seed changes some', () => {
    const sides = assignSides(IDS, 42)
    for (const s of Object.values(sides)) expect([s.A, s.B].sort()).toEqual(['base', 'change'])
    const baseFirst = Object.values(sides).filter((s) => s.A === 'base').length
    expect(baseFirst).toBeGreaterThan(0)
    expect(baseFirst).toBeLessThan(20)
    const other = assignSides(IDS, 43)
    expect(IDS.some((id) => other[id]?.A !== sides[id]?.A)).toBe(true)
  })
})
