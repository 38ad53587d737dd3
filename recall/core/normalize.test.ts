import { describe, expect, it } from 'vitest'
import { clipText, normalizeText } from './normalize.ts'

describe('normalizeText', () => {
  it('folds width and case, drops invisible characters, spaces out controls', () => {
    expect(normalizeText('ＨＥＬＬＯ\u200B World\u0007!')).toBe('hello world !')
  })

  it('replaces half surrogate pairs instead of passing them on', () => {
    expect(normalizeText('a\uD800b')).toBe('a\uFFFDb')
    expect(normalizeText('😀')).toBe('😀')
  })
})

describe('clipText', () => {
  it('keeps short text and cuts long text', () => {
    expect(clipText('喝茶', 5)).toBe('喝茶')
    expect(clipText('abcdef', 3)).toBe('abc')
  })

  it('never leaves half of a surrogate pair at the end', () => {
    expect(clipText('a😀b', 2)).toBe('a')
    expect(clipText('a😀b', 3)).toBe('a😀')
  })
})
