import { describe, expect, it } from 'vitest'
import type { WorldEntry } from './entry.ts'
import { entry } from './testing/entries.ts'
import { constantEntries, keyMatches, matchEntries } from './match.ts'

describe('keys', () => {
  it('CJK keys match as substrings', () => {
    expect(keyMatches('我昨天梦见了翁法罗斯的海', '翁法罗斯')).toBe(true)
    expect(keyMatches('我昨天梦见了海', '翁法罗斯')).toBe(false)
  })

  it('Latin keys match whole words only, in any case and width, also right beside Chinese', () => {
    expect(keyMatches('I met CYRENE today', 'cyrene')).toBe(true)
    expect(keyMatches("cyrene's smile", 'Cyrene')).toBe(true)
    expect(keyMatches('我想见Cyrene呀', 'cyrene')).toBe(true)
    expect(keyMatches('我想见ＣＹＲＥＮＥ', 'cyrene')).toBe(true)
    expect(keyMatches('Cyrenes everywhere', 'Cyrene')).toBe(false)
    expect(keyMatches('a titanic ship', 'Titan')).toBe(false)
    expect(keyMatches('the Titan fell', 'titan')).toBe(true)
    expect(keyMatches('Astral   Express', 'Astral Express')).toBe(false)
    expect(keyMatches('the astral express is here', 'Astral Express')).toBe(true)
  })

  it('keys that end in punctuation still match (C++, .NET)', () => {
    expect(keyMatches('I write C++ daily', 'C++')).toBe(true)
    expect(keyMatches('moved to .NET', '.NET')).toBe(true)
  })
})

describe('matchEntries', () => {
  const book = [
    entry('翁法罗斯', { priority: 10 }),
    entry('黄金裔', { priority: 30 }),
    entry('常驻', { constant: true, keys: ['翁法罗斯'] }),
    entry('关掉的', { enabled: false, keys: ['翁法罗斯'] }),
  ]

  it('keyword entries by priority, never constant or switched-off ones', () => {
    const hits = matchEntries(book, ['说说翁法罗斯和黄金裔'])
    expect(hits.map((h) => h.entry.name)).toEqual(['黄金裔', '翁法罗斯'])
    expect(hits[1]!.keys).toEqual(['翁法罗斯'])
  })

  it('looks in every message given (the last N), and in nothing else', () => {
    expect(matchEntries(book, ['翁法罗斯', '然后呢']).map((h) => h.entry.name)).toEqual(['翁法罗斯'])
    expect(matchEntries(book, ['然后呢'])).toEqual([])
    expect(matchEntries(book, [])).toEqual([])
  })

  it('equal priorities go by name, whatever the order given', () => {
    const two = [entry('b'), entry('a')]
    expect(matchEntries(two, ['a b']).map((h) => h.entry.name)).toEqual(['a', 'b'])
  })

  describe('secondary keys (SillyTavern optional filter)', () => {
    const at = (logic: WorldEntry['logic']) => entry('列车', { keys: ['列车'], secondaryKeys: ['晚点', '地铁'], logic })
    const called = (logic: WorldEntry['logic'], text: string) => matchEntries([at(logic)], [text]).length === 1

    it('AND ANY: the primary key and at least one secondary', () => {
      expect(called('and-any', '列车晚点了')).toBe(true)
      expect(called('and-any', '列车来了')).toBe(false)
    })
    it('AND ALL: the primary key and every secondary', () => {
      expect(called('and-all', '地铁列车晚点了')).toBe(true)
      expect(called('and-all', '列车晚点了')).toBe(false)
    })
    it('NOT ANY: the primary key and none of the secondary', () => {
      expect(called('not-any', '星穹列车到站')).toBe(true)
      expect(called('not-any', '列车晚点了')).toBe(false)
    })
    it('NOT ALL: the primary key, unless every secondary is there', () => {
      expect(called('not-all', '列车晚点了')).toBe(true)
      expect(called('not-all', '地铁列车晚点了')).toBe(false)
    })
    it('the primary key is always needed; without secondary keys the logic is ignored', () => {
      expect(called('not-any', '晚点的地铁')).toBe(false)
      expect(matchEntries([entry('x', { logic: 'and-all' })], ['x'])).toHaveLength(1)
    })
  })

  it('constantEntries: enabled constant entries by priority', () => {
    const list = [entry('a', { constant: true, priority: 1 }), entry('b', { constant: true, priority: 9 }), entry('c', { constant: true, enabled: false })]
    expect(constantEntries(list).map((e) => e.name)).toEqual(['b', 'a'])
  })
})

describe('match_whole_words and case_sensitive (issue 21)', () => {
  it('match_whole_words: no makes every key a substring; case_sensitive keeps case (width still folded)', () => {
    expect(keyMatches('beasts of the bay', 'beast')).toBe(false)
    expect(keyMatches('beasts of the bay', 'beast', { wholeWords: false })).toBe(true)
    expect(keyMatches('the Beast', 'beast', { caseSensitive: true })).toBe(false)
    expect(keyMatches('the Ｂｅａｓｔ', 'Beast', { caseSensitive: true })).toBe(true)
  })
})
