import { describe, expect, it } from 'vitest'
import { inertBraces, lineOf, promptReferences } from './prompt-text.ts'

describe('promptReferences mirrors DSH interpolation', () => {
  it('finds simple groups and flags malformed ones', () => {
    expect(promptReferences('a {{model}} b {{ bad }} c {{Up}}').map((r) => [r.name, r.wellFormed])).toEqual([
      ['model', true],
      [' bad ', false],
      ['Up', false],
    ])
  })
  it('ignores single braces and a lone {{ with no closing', () => {
    expect(promptReferences('{a} {b} {{ never closed')).toEqual([])
  })
  it('flags {{ that DSH cannot parse but that has a later }}', () => {
    expect(promptReferences('x {{a{b}} y').map((r) => r.wellFormed)).toEqual([false])
  })
})

describe('inertBraces', () => {
  it('leaves no group DSH would resolve', () => {
    for (const text of ['{{model}}', '{{{x}}}', 'a {{ b }} c', '}}{{', '{{{{']) {
      const safe = inertBraces(text)
      expect(safe).not.toContain('{{')
      expect(safe).not.toContain('}}')
      expect(promptReferences(safe)).toEqual([])
    }
  })
  it('keeps text without double braces unchanged', () => {
    expect(inertBraces('json {"a": {"b": 1} }')).toBe('json {"a": {"b": 1} }')
  })
})

describe('lineOf', () => {
  it('counts lines from 1', () => {
    expect(lineOf('a\nb\nc', 0)).toBe(1)
    expect(lineOf('a\nb\nc', 4)).toBe(3)
  })
})
