import { describe, expect, it } from 'vitest'
import { RecallIndex } from '../recall-index.ts'

const NOW = new Date('2026-06-15T12:00:00Z')

describe('QueryScorer: a word held whole scores once, not again through its pieces', () => {
  const texts = {
    word: '昨天在海边求婚成功了。',
    pieces: '他要求我们结婚前先把房子买好。',
    english: 'The proposal is locked in: Saturday 27 June, 8am boat from the ferry terminal.',
    other: '今天下雨，在家看书。',
  }
  const store = (wordPiecesOnce: boolean): RecallIndex => {
    const index = new RecallIndex({ wordPiecesOnce })
    // A day apart each: no memory lends to its neighbour in time.
    Object.entries(texts).forEach(([id, text], day) => index.add({ id, text, at: new Date(Date.UTC(2026, 0, 1 + day * 3)).toISOString(), source: 'entry' }))
    return index
  }
  const scores = (index: RecallIndex, query: string): Record<string, number> =>
    Object.fromEntries(index.search(query, { now: NOW, abstain: false, limit: 10 }).map((h) => [h.id, h.score]))

  it('the memory holding 求婚 scores less than the word plus its characters; the one holding only 求 and 婚 keeps them', () => {
    const on = scores(store(true), '求婚那天几点上船？')
    const off = scores(store(false), '求婚那天几点上船？')
    expect(on.word).toBeLessThan(off.word!)
    expect(on.pieces).toBe(off.pieces)
    expect(on.english).toBe(off.english)
    // Without the lean toward the message's own script, the English memory that answers comes closer.
    expect(on.english! / on.word!).toBeGreaterThan(off.english! / off.word!)
  })
})
