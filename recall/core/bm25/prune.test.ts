// The pruned search (prune.ts) against the walk of every list: for any store and any
// query — Chinese, English, mixed, translated through the dictionary — the same hits in
// the same order with the same scores to the last bit, the same abstention, the same
// reason for silence; from a live index and from one loaded from its binary cache.

import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { packColumns } from '../columns.ts'
import { unpackColumns } from '../columns-read.ts'
import type { RecallDoc } from '../doc.ts'
import { RECALL_SOURCES, type RecallOptionsInput } from '../options.ts'
import type { SearchOptions } from '../answer.ts'
import { RecallIndex } from '../recall-index.ts'
import { ExhaustiveRecallIndex } from '../testing/exhaustive-index.ts'
import { tokenizerSignature } from '../tokenize.ts'
import { TermIndex } from './index.ts'
import { scoreBest } from './prune.ts'
import { QueryScorer, type TextScoring } from './query-scorer.ts'
import { accumulateBm25 } from './score.ts'

// A few words most memories hold (the long lists pruning skips), rarer ones, and pairs the
// dictionary joins across languages (猫 / cat, 茶 / tea, 妈妈 / mother …).
const COMMON = ['今天', '朋友', 'today', 'friend', '开心', 'went']
const RARE = [
  '猫',
  '橘猫',
  'cat',
  '乌龙茶',
  'tea',
  '茶',
  '妈妈',
  'mother',
  '医院',
  'hospital',
  '下雨',
  'rain',
  '吉他',
  'guitar',
  '西湖',
  'lake',
  'Caroline',
  '昨天',
  'yesterday',
]
const word = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...COMMON) }, { weight: 2, arbitrary: fc.constantFrom(...RARE) })
const text = fc.oneof(
  { weight: 6, arbitrary: fc.array(word, { minLength: 1, maxLength: 14 }).map((w) => w.join(' ')) },
  { weight: 3, arbitrary: fc.array(word, { minLength: 1, maxLength: 10 }).map((w) => w.join('')) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
)
const doc = fc.record({
  text,
  // Minutes apart over a few days: neighbours in time exist, and recency differs.
  minute: fc.integer({ min: 0, max: 4 * 24 * 60 }),
  source: fc.constantFrom(...RECALL_SOURCES),
  link: fc.option(fc.integer({ min: 0, max: 260 }), { freq: 4 }),
})
const store = fc.oneof(fc.array(doc, { minLength: 1, maxLength: 40 }), fc.array(doc, { minLength: 120, maxLength: 260 }))
const query = fc.oneof(
  fc.array(fc.constantFrom(...COMMON, ...RARE, 'when', '什么时候', 'what'), { minLength: 1, maxLength: 7 }).map((w) => w.join(' ')),
  fc.array(fc.constantFrom(...COMMON, ...RARE), { minLength: 1, maxLength: 5 }).map((w) => `${w.join('')}吗？`),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
)
// Small depths too, so that a store of a hundred memories has more candidates than can rank.
const options: fc.Arbitrary<RecallOptionsInput> = fc.record(
  {
    neighbourSeeds: fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 25 })),
    linkSeeds: fc.integer({ min: 0, max: 5 }),
    abstainDepth: fc.integer({ min: 1, max: 6 }),
    recencyWeight: fc.constantFrom(0, 0.1, 0.5),
    sourceWeights: fc.record({ entry: fc.constantFrom(1, 0.5), anchor: fc.constantFrom(1.3, 0), dream: fc.constantFrom(0.8, 2) }, { requiredKeys: [] }),
    b: fc.constantFrom(0, 0.5, 1),
  },
  { requiredKeys: [] },
)
const search = fc.record(
  {
    limit: fc.oneof(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 30 })),
    abstain: fc.boolean(),
    translate: fc.boolean(),
    sources: fc.subarray([...RECALL_SOURCES], { minLength: 1 }),
    // A filter that refuses every id ending in one digit: many of the best-ranked among them.
    filter: fc.integer({ min: 0, max: 9 }).map((d) => (id: string) => !id.endsWith(String(d))),
  },
  { requiredKeys: ['limit'] },
)
const NOW = new Date('2026-03-05T00:00:00Z')

function docsOf(store: readonly { text: string; minute: number; source: RecallDoc['source']; link: number | null }[]): RecallDoc[] {
  return store.map((d, n) => {
    const out: RecallDoc = { id: `m${n}`, text: d.text, at: new Date(Date.UTC(2026, 2, 1) + d.minute * 60_000).toISOString(), source: d.source }
    if (d.link !== null) out.links = [`m${d.link}|related`]
    return out
  })
}

function both(docs: readonly RecallDoc[], opts: RecallOptionsInput): { pruned: RecallIndex; oracle: RecallIndex } {
  const pruned = new RecallIndex(opts)
  const oracle = new ExhaustiveRecallIndex(opts)
  for (const d of docs) {
    pruned.add(d)
    oracle.add(d)
  }
  return { pruned, oracle }
}

describe('pruned search = the walk of every list', () => {
  it('gives the same answer for any store, query and options', () => {
    fc.assert(
      fc.property(store, fc.array(query, { minLength: 1, maxLength: 4 }), options, search, (s, queries, opts, so) => {
        const { pruned, oracle } = both(docsOf(s), opts)
        const searchOptions: SearchOptions = { ...so, now: NOW }
        for (const q of queries) expect(pruned.explain(q, searchOptions)).toEqual(oracle.explain(q, searchOptions))
      }),
      { numRuns: 120 },
    )
  })

  it('gives the same answer from an index loaded from its binary cache, and after it changes', () => {
    fc.assert(
      fc.property(store, fc.array(query, { minLength: 1, maxLength: 3 }), fc.integer({ min: 0, max: 259 }), (s, queries, drop) => {
        const docs = docsOf(s)
        // Shallow, so that a store of a hundred memories has more candidates than can rank.
        const shallow = { neighbourSeeds: 2, linkSeeds: 1, abstainDepth: 2 }
        const { pruned, oracle } = both(docs, shallow)
        const loaded = RecallIndex.fromColumns(unpackColumns(packColumns(pruned.toColumns(), null), tokenizerSignature()).columns, shallow)
        for (const q of queries) expect(loaded.explain(q, { now: NOW })).toEqual(oracle.explain(q, { now: NOW }))
        // A removal leaves a term's bounds above what its documents hold: still bounds.
        loaded.remove(`m${drop}`)
        oracle.remove(`m${drop}`)
        for (const q of queries) expect(loaded.explain(q, { now: NOW, limit: 3 })).toEqual(oracle.explain(q, { now: NOW, limit: 3 }))
      }),
      { numRuns: 60 },
    )
  })
})

describe('scoreBest', () => {
  const counts = (terms: readonly string[]): Map<string, number> => {
    const m = new Map<string, number>()
    for (const t of terms) m.set(t, (m.get(t) ?? 0) + 1)
    return m
  }
  const params = { k1: 1.2, b: 0.5 }

  function textScoring(
    index: TermIndex,
    query: readonly { id: number; weight: number }[],
    depth: number,
    multiplier: (slot: number) => number,
    n: number,
  ): TextScoring {
    return {
      scorer: new QueryScorer(index, query, params),
      scores: new Float64Array(n),
      accept: undefined,
      admitted: undefined,
      multiplier,
      sourceWeight: new Float64Array(n).fill(1),
      recencyHigh: 1.1,
      highestMultiplier: 1.1,
      depth,
      admittedDepth: depth,
    }
  }

  // Terms from very common to rare, so that some lists are long and the bounds are close to the scores.
  const vocabulary = ['a', 'a', 'a', 'a', 'b', 'b', 'b', 'c', 'c', 'd', 'e', 'f', 'g']
  const queryTerm = fc.record({ term: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), weight: fc.constantFrom(0.25, 0.5, 0.8, 1, 1.5) })

  it('returns the best `depth` documents with the full walk’s scores, and leaves most of a long list unscored', () => {
    let fewer = 0
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.constantFrom(...vocabulary), { minLength: 1, maxLength: 12 }), { minLength: 150, maxLength: 300 }),
        fc.uniqueArray(queryTerm, { selector: (t) => t.term, minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 10_000 }),
        (docs, terms, depth, seed) => {
          const index = new TermIndex()
          docs.forEach((t, slot) => index.add(slot, counts(t), t.length))
          const query = terms.flatMap(({ term, weight }) => {
            const id = index.termId(term)
            return id === undefined ? [] : [{ id, weight }]
          })
          // Recency-like: a multiplier in [1, 1.1] by slot.
          const multiplier = (slot: number): number => 1 + (0.1 * ((slot * 7919 + seed) % 101)) / 100
          const pruned = textScoring(index, query, depth, multiplier, docs.length)
          const kept = scoreBest(index, pruned, params)
          const full = textScoring(index, query, depth, multiplier, docs.length)
          const touched = accumulateBm25(index, query, params, full.scores)
          for (const slot of touched) full.scores[slot]! *= multiplier(slot)
          const rank = (scores: Float64Array, slots: readonly number[]): [number, number][] =>
            [...slots]
              .sort((x, y) => scores[y]! - scores[x]! || x - y)
              .slice(0, depth)
              .map((slot) => [slot, scores[slot]!])
          expect(rank(pruned.scores, kept)).toEqual(rank(full.scores, touched))
          // Every slot not returned is back at 0.
          const returned = new Set(kept)
          for (let slot = 0; slot < docs.length; slot++) if (!returned.has(slot)) expect(pruned.scores[slot]).toBe(0)
          if (kept.length < touched.length / 2) fewer++
        },
      ),
      { numRuns: 200 },
    )
    // The point of it: most of the time, far fewer documents are scored than share a word with the query.
    expect(fewer).toBeGreaterThan(100)
  })
})
