import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { abstainVerdict, coverage, shouldAbstain, type AbstainInput, describeSilence } from './abstain.ts'
import { RecallIndex } from './recall-index.ts'

const RULE = { minCoverage: 0.24, enoughRareTerms: 2, minSpecificMass: 0, specificCoverage: 0 } // values chosen for readable arithmetic, not the defaults
const SPECIFIC = { ...RULE, minSpecificMass: 0.5, specificCoverage: 0.5 }
const input = (queryMass: number, bestMatchedMass: number, rareTermMass = 5): AbstainInput => ({ queryMass, bestMatchedMass, rareTermMass })

describe('shouldAbstain (pure)', () => {
  it('abstains when nothing matched at all', () => {
    expect(shouldAbstain(input(10, 0), RULE)).toBe(true)
    expect(shouldAbstain(input(0, 0), { ...RULE, minCoverage: 0 })).toBe(true)
  })

  it('abstains when the best hit covers too little of the query, keeps it otherwise', () => {
    expect(shouldAbstain(input(10, 2), RULE)).toBe(true) // 20 %
    expect(shouldAbstain(input(10, 2.4), RULE)).toBe(false) // 24 %: at the line, kept
    expect(shouldAbstain(input(10, 9), RULE)).toBe(false)
  })

  it('keeps a strong match inside a long message (enough rare-word mass)', () => {
    expect(shouldAbstain(input(100, 9.9, 5), RULE)).toBe(true)
    expect(shouldAbstain(input(100, 10, 5), RULE)).toBe(false)
  })

  it('never abstains on a match when the coverage rule is off', () => {
    expect(shouldAbstain(input(100, 0.1), { ...RULE, minCoverage: 0 })).toBe(false)
  })

  it('abstains on a hit that holds only common words (under half a never-seen word) and covers under half the message', () => {
    // rareTermMass 5: the hit holds 2 (a common word) of a message of 8 → 25 % coverage, under 2.5 specific.
    expect(abstainVerdict(input(8, 2), SPECIFIC)).toBe('weak-match')
    expect(abstainVerdict(input(8, 2.5), SPECIFIC)).toBe('keep') // half a never-seen word: specific enough
    expect(abstainVerdict(input(4, 2), SPECIFIC)).toBe('keep') // half the message covered
    expect(abstainVerdict(input(10, 2), SPECIFIC)).toBe('low-coverage') // under the plain line first
    expect(abstainVerdict(input(8, 2), RULE)).toBe('keep') // minSpecificMass 0: that part off
  })

  it('abstains on a question about a person the store never mentions unless the hit covers enough of it', () => {
    const person = (q: number, m: number): AbstainInput => ({ ...input(q, m), unknownPerson: true })
    expect(abstainVerdict(person(10, 3), SPECIFIC)).toBe('unknown-person') // 30 % covered, by a specific word
    expect(abstainVerdict(input(10, 3), SPECIFIC)).toBe('keep') // the same without the unknown person
    expect(abstainVerdict(person(10, 6), SPECIFIC)).toBe('keep') // 60 %: the hit covers most of it
  })

  it('abstains on a question that names a place or thing no memory holds unless the hit covers enough of it', () => {
    const named = (q: number, m: number): AbstainInput => ({ ...input(q, m), unknownName: true })
    expect(abstainVerdict(named(10, 3), SPECIFIC)).toBe('unknown-name') // 30 % covered (hotel of "a hotel in Paris")
    expect(abstainVerdict(named(10, 6), SPECIFIC)).toBe('keep') // 60 %: the hit covers most of it
    expect(abstainVerdict(named(10, 3), { ...SPECIFIC, specificCoverage: 0 })).toBe('keep') // the share line off: the rule off
    expect(describeSilence({ reason: 'unknown-name', coverage: 0.3, needed: 0.6 })).toContain('30 %')
  })

  it('coverage is a share in [0, 1], 0 for an empty query', () => {
    expect(coverage(input(0, 3))).toBe(0)
    expect(coverage(input(4, 1))).toBe(0.25)
    expect(coverage(input(4, 9))).toBe(1)
  })

  it('property: more matched mass never turns keeping into abstaining', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 100, noNaN: true }),
        fc.double({ min: 0, max: 50, noNaN: true }),
        (q, a, extra) => {
          for (const rule of [RULE, SPECIFIC]) if (!shouldAbstain(input(q, a), rule)) expect(shouldAbstain(input(q, a + extra), rule)).toBe(false)
        },
      ),
    )
  })
})

describe('abstention inside RecallIndex.search (the one recall path)', () => {
  const NOW = new Date('2026-06-01T00:00:00Z')
  const index = new RecallIndex()
  const docs = [
    ['tea', 'Caroline loves oolong tea, especially in the morning.'],
    ['paint', 'Caroline painted a sunrise over the lake last year.'],
    ['run', 'Caroline ran a charity race for mental health.'],
    ['zh', '我最喜欢喝乌龙茶，咖啡喝了会心慌。'],
  ] as const
  for (const [id, text] of docs) index.add({ id, text, at: '2026-01-01T00:00:00Z', source: 'entry' })

  it('answers a question about what the store holds', () => {
    expect(index.search('What tea does Caroline love?', { now: NOW })[0]!.id).toBe('tea')
    expect(index.search('我喜欢喝什么茶？', { now: NOW })[0]!.id).toBe('zh')
  })

  it('says nothing about a person and an event it never saw, though one common word matches', () => {
    expect(index.search('When did Melanie adopt the puppy from the shelter in the morning?', { now: NOW })).toEqual([])
    expect(index.search('罗马帝国是怎么灭亡的？', { now: NOW })).toEqual([])
    // The same queries with the rule off: the noise the rule keeps out.
    expect(index.search('When did Melanie adopt the puppy from the shelter in the morning?', { now: NOW, abstain: false }).length).toBeGreaterThan(0)
  })

  it('the option abstainCoverage 0 keeps every match', () => {
    const open = new RecallIndex({ abstainCoverage: 0 })
    for (const [id, text] of docs) open.add({ id, text, at: '2026-01-01T00:00:00Z', source: 'entry' })
    expect(open.search('When did Melanie adopt the puppy from the shelter in the morning?', { now: NOW }).length).toBeGreaterThan(0)
  })
})

describe('describeSilence', () => {
  it('says each reason in words, with the coverage for abstention', () => {
    expect(describeSilence({ reason: 'empty-index', coverage: 0 })).toMatch(/no memory is indexed/)
    expect(describeSilence({ reason: 'low-coverage', coverage: 0.12, needed: 0.2 })).toMatch(/12 %.*20 %/)
    expect(describeSilence({ reason: 'weak-match', coverage: 0.3, needed: 0.5 })).toMatch(/30 %.*50 %.*common words/)
  })
})
