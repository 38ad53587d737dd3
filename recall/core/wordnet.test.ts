import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { findLine, kindsBreadthFirst, openWordNet, parseSynset, placesBreadthFirst, reachesUp, wordNet, type NounSynset } from './wordnet.ts'

describe('findLine: binary search over a sorted index', () => {
  const buf = Buffer.from(
    [
      '  1 licence text, indented',
      '  2 more licence',
      'far n 1 2 @ ; 1 0 08033653',
      'far_away a 1 0 1 0 00444378',
      'farm n 2 1 @ 2 1 1 2',
      'zebra n 1 0 1 0 3',
      '',
    ].join('\n'),
  )

  it('finds a word, not a longer word it begins, and not the licence', () => {
    expect(findLine(buf, 'far')).toBe('far n 1 2 @ ; 1 0 08033653')
    expect(findLine(buf, 'far_away')?.startsWith('far_away ')).toBe(true)
    expect(findLine(buf, 'farm')?.startsWith('farm ')).toBe(true)
    expect(findLine(buf, 'zebra')?.startsWith('zebra ')).toBe(true)
    for (const missing of ['fa', 'farms', 'licence', 'aaa', 'zzz']) expect({ missing, line: findLine(buf, missing) }).toEqual({ missing, line: undefined })
  })
})

describe('parseSynset and kindsBreadthFirst', () => {
  const tree: Record<number, NounSynset> = {
    1: { lemmas: ['root'], hyponyms: [2, 3], hypernyms: [2], parts: [], named: false },
    2: { lemmas: ['a'], hyponyms: [4, 1], hypernyms: [1], parts: [], named: false },
    3: { lemmas: ['b', 'b2'], hyponyms: [4], hypernyms: [1], parts: [], named: false },
    4: { lemmas: ['c'], hyponyms: [], hypernyms: [2, 3], parts: [], named: false },
  }
  const read = (offset: number): NounSynset => tree[offset]!

  it('reads the lemmas and the noun hyponyms and hypernyms of a data.noun line', () => {
    const line = '00000100 04 n 02 musical_instrument 0 instrument(a) 0 003 @ 00000050 n 0000 ~ 00000200 n 0000 ~i 00000300 n 0000 | a device'
    expect(parseSynset(line)).toEqual({ lemmas: ['musical instrument', 'instrument'], hyponyms: [200, 300], hypernyms: [50], parts: [], named: false })
  })

  it('reads the parts and whether the synset names something (an instance of its kind)', () => {
    const line = '00000100 15 n 01 Japan 0 003 @i 00000050 n 0000 %p 00000200 n 0000 %m 00000300 n 0000 | a country'
    expect(parseSynset(line)).toEqual({ lemmas: ['japan'], hyponyms: [], hypernyms: [50], parts: [200], named: true })
  })

  it('walks the tree breadth first, each synset once, up to the limit', () => {
    expect(kindsBreadthFirst([1], read, 100)).toEqual(['a', 'b', 'b2', 'c'])
    expect(kindsBreadthFirst([1], read, 2)).toEqual(['a', 'b'])
  })

  it('gives the named parts of named places two levels down, never the parts of a common noun', () => {
    const places: Record<number, NounSynset> = {
      1: { lemmas: ['japan'], hyponyms: [], hypernyms: [], parts: [2, 3, 5], named: true },
      2: { lemmas: ['honshu', 'hondo'], hyponyms: [], hypernyms: [], parts: [4, 1], named: true },
      3: { lemmas: ['osaka'], hyponyms: [], hypernyms: [], parts: [], named: true },
      4: { lemmas: ['tokyo'], hyponyms: [], hypernyms: [], parts: [6], named: true },
      5: { lemmas: ['seabed'], hyponyms: [], hypernyms: [], parts: [], named: false },
      6: { lemmas: ['shibuya'], hyponyms: [], hypernyms: [], parts: [], named: true },
      7: { lemmas: ['car'], hyponyms: [], hypernyms: [], parts: [8], named: false },
      8: { lemmas: ['wheel'], hyponyms: [], hypernyms: [], parts: [], named: false },
    }
    const at = (offset: number): NounSynset => places[offset]!
    expect(placesBreadthFirst([1], at, 100)).toEqual(['honshu', 'hondo', 'osaka', 'tokyo'])
    expect(placesBreadthFirst([1], at, 2)).toEqual(['honshu', 'hondo'])
    expect(placesBreadthFirst([7], at, 100)).toEqual([])
  })

  it('climbs hypernyms to an ancestor, through a cycle without looping', () => {
    expect(reachesUp(4, 1, read)).toBe(true)
    expect(reachesUp(3, 1, read)).toBe(true)
    expect(reachesUp(1, 3, read)).toBe(false)
  })
})

describe('openWordNet over files in place', () => {
  const dir = mkdtempSync(join(tmpdir(), 'wordnet-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  // Offsets are byte positions in data.noun, as WordNet's are.
  const head = '  1 licence\n'
  const contest = (race: number): string => `${String(head.length).padStart(8, '0')} 04 n 01 contest 0 001 ~ ${String(race).padStart(8, '0')} n 0000 | a game\n`
  const raceAt = head.length + contest(0).length
  const race = `${String(raceAt).padStart(8, '0')} 04 n 02 race 0 footrace 0 000 | a run\n`
  writeFileSync(join(dir, 'data.noun'), head + contest(raceAt) + race)
  writeFileSync(
    join(dir, 'index.noun'),
    `${head}contest n 1 1 ~ 1 3 ${String(head.length).padStart(8, '0')}\nrace n 1 0 1 0 ${String(raceAt).padStart(8, '0')}\n`,
  )
  writeFileSync(join(dir, 'index.adj'), `${head}fast a 1 0 1 7 00000001\n`)

  it('counts the tags of each part of speech, ½ for being listed at all, 0 when not', () => {
    const wn = openWordNet(dir)
    expect(wn.tags('contest')).toEqual({ noun: 3.5, verb: 0, quality: 0 })
    expect(wn.tags('fast')).toEqual({ noun: 0, verb: 0, quality: 7.5 })
    expect(wn.tags('race')).toEqual({ noun: 0.5, verb: 0, quality: 0 })
  })

  it('follows hyponyms by byte offset', () => {
    const wn = openWordNet(dir)
    expect(wn.kinds('contest', 10)).toEqual(['race', 'footrace'])
    expect(wn.kinds('race', 10)).toEqual([])
    expect(wn.kinds('unknown', 10)).toEqual([])
  })

  it('a damaged data file gives no kinds rather than an error', () => {
    const broken = mkdtempSync(join(tmpdir(), 'wordnet-broken-'))
    writeFileSync(join(broken, 'index.noun'), `contest n 1 0 1 3 00000099\n`)
    writeFileSync(join(broken, 'data.noun'), 'short\n')
    expect(openWordNet(broken).kinds('contest', 10)).toEqual([])
    rmSync(join(broken, 'data.noun'))
    expect(openWordNet(broken).kinds('contest', 10)).toEqual([])
    rmSync(broken, { recursive: true, force: true })
  })
})

describe('the installed WordNet 3.1', () => {
  const wn = wordNet()!

  it('is installed (a dependency) and reads as the real database', () => {
    expect(wn).not.toBeNull()
    expect(wn.kinds('competition', 3000)).toContain('marathon')
    expect(wn.kinds('musical instrument', 3000)).toContain('piano')
  })

  it('a dentist is a person; the commonest dog and cat are not (other senses are)', () => {
    expect(wn.isA('dentist', 'person')).toBe(true)
    expect(wn.isA('teacher', 'person')).toBe(true)
    expect(wn.isA('dog', 'person')).toBe(false)
    expect(wn.isA('cat', 'person')).toBe(false)
    expect(wn.isA('evening', 'time period')).toBe(true)
  })

  it('divides a country into its places, and a common noun into none', () => {
    expect(wn.placesWithin('japan', 200)).toEqual(expect.arrayContaining(['osaka', 'kyoto', 'hokkaido', 'tokyo']))
    expect(wn.placesWithin('france', 200)).toContain('paris')
    expect(wn.placesWithin('car', 200)).toEqual([])
    expect(wn.placesWithin('hand', 200)).toEqual([])
    expect(wn.placesWithin('nowhereland', 200)).toEqual([])
  })

  it('tells a quality from a thing by how SemCor tags it', () => {
    const far = wn.tags('far')
    expect(far.quality).toBeGreaterThan(far.noun)
    const bank = wn.tags('bank')
    expect(bank.noun).toBeGreaterThan(bank.quality)
  })
})
