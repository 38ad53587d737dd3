import { describe, expect, it } from 'vitest'
import { fingerprintDoc, fingerprintSet, hashString } from './fingerprint.ts'

const doc = { id: 'e1', text: '喝茶', at: '2026-01-01T00:00:00Z', source: 'entry' }

describe('fingerprints', () => {
  it('is stable and 14 hex digits', () => {
    expect(hashString('喝茶')).toBe(hashString('喝茶'))
    expect(hashString('喝茶')).toMatch(/^[0-9a-f]{14}$/)
  })

  it('changes when anything recall reads changes', () => {
    const base = fingerprintDoc(doc)
    expect(fingerprintDoc({ ...doc, text: '喝咖啡' })).not.toBe(base)
    expect(fingerprintDoc({ ...doc, at: '2026-01-02T00:00:00Z' })).not.toBe(base)
    expect(fingerprintDoc({ ...doc, source: 'anchor' })).not.toBe(base)
    expect(fingerprintDoc({ ...doc, kind: 'lesson' })).not.toBe(base)
    expect(fingerprintDoc({ ...doc, links: ['e0|因果'] })).not.toBe(base)
    expect(fingerprintDoc({ ...doc })).toBe(base)
  })

  it('keeps fields apart (no ambiguity from concatenation)', () => {
    expect(fingerprintDoc({ ...doc, id: 'e1', text: 'ab' })).not.toBe(fingerprintDoc({ ...doc, id: 'e1a', text: 'b' }))
  })

  it('fingerprints a set independently of order', () => {
    const a: [string, string] = ['a', '1']
    const b: [string, string] = ['b', '2']
    expect(fingerprintSet([a, b])).toBe(fingerprintSet([b, a]))
    expect(fingerprintSet([a, b])).not.toBe(fingerprintSet([a]))
  })
})
