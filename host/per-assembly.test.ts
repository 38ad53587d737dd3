import { describe, expect, it } from 'vitest'
import { PerAssembly } from './per-assembly.ts'

describe('PerAssembly', () => {
  it('reads once for each assembly, and every time when asked without one', () => {
    let reads = 0
    const kept = new PerAssembly<number>()
    const read = () => ++reads
    const first = {}
    const second = {}
    expect([kept.get(first, read), kept.get(first, read)]).toEqual([1, 1])
    expect(kept.get(second, read)).toBe(2)
    expect([kept.get(undefined, read), kept.get(undefined, read)]).toEqual([3, 4])
    expect(kept.get(first, read)).toBe(1)
  })
})
