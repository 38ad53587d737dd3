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

describe('pattern keys (/source/flags, decision 333)', () => {
  it('match as SillyTavern tests them: on the text as written, with their own flags, whatever the entry says of case and words', () => {
    expect(keyMatches('My cats sleep', '/\\bcats?\\b/i')).toBe(true)
    expect(keyMatches('concatenate', '/\\bcats?\\b/i')).toBe(false)
    expect(keyMatches('My CATS sleep', '/\\bcats?\\b/')).toBe(false)
    expect(keyMatches('我昨天梦见了昔涟', '/昔.?涟/')).toBe(true)
    expect(keyMatches('a\nb', '/a.b/')).toBe(false)
    expect(keyMatches('a\nb', '/a.b/s')).toBe(true)
    expect(keyMatches('x\nstart here', '/^start/')).toBe(false)
    expect(keyMatches('x\nstart here', '/^start/m')).toBe(true)
    expect(keyMatches('café', '/caf\\u00e9/')).toBe(true)
    expect(keyMatches('plain cat', '/cat/y')).toBe(false)
    expect(keyMatches('cat first', '/cat/y')).toBe(true)
    expect(keyMatches('foo bar', '/(?<=foo )bar/')).toBe(true)
    expect(keyMatches('a bar', '/(?<=foo )bar/')).toBe(false)
  })

  it('a /…/ that JavaScript refuses as a pattern is plain text there and here; one the engine cannot run never matches', () => {
    expect(keyMatches('see /usr/bin for it', '/usr/bin')).toBe(true)
    expect(keyMatches('cats', '/cat(?=s)/')).toBe(false)
  })

  it('a pattern built to stall a backtracking engine answers at once (run on RE2, linear in the text)', () => {
    // With JavaScript's own engine this test would not end: (a+)+$ against a long run of a's that fails at the end.
    expect(keyMatches(`${'a'.repeat(50_000)}!`, '/(a+)+$/')).toBe(false)
    expect(matchEntries([entry('卡', { keys: ['/^(a|aa)+$/'] })], [`${'a'.repeat(50_000)}b`])).toEqual([])
  })

  it('an entry fires on its pattern key among the others', () => {
    const hits = matchEntries([entry('猫', { keys: ['/\\bkitt(y|en)s?\\b/i', '猫'] })], ['I adopted a Kitten'])
    expect(hits.map((h) => h.keys)).toEqual([['/\\bkitt(y|en)s?\\b/i']])
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
