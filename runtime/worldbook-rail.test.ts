import { describe, expect, it } from 'vitest'
import { charCount, endMarker } from '../memory/index.ts'
import { entry } from '../worldbook/testing/entries.ts'
import type { LoadedWorldbook } from '../worldbook/index.ts'
import { HITS_CAP, HITS_PRIORITY, RAIL_CAP, RAIL_PRIORITY, recentUserTexts, worldbookHits, worldbookRail } from './worldbook-rail.ts'

const book = (entries: LoadedWorldbook['entries']): LoadedWorldbook => ({ entries, skipped: [], warnings: [], overridden: [], unreadable: [] })
const config = { recentMessages: 2, railChars: RAIL_CAP, hitChars: HITS_CAP, hitEntries: 8 }

describe('the worldbook as VoiceBlocks for the budget pass', () => {
  const constants = Array.from({ length: 6 }, (_, i) => entry(`c${i}`, { constant: true, priority: i, body: '常'.repeat(120) }))
  const keyword = Array.from({ length: 10 }, (_, i) => entry(`k${i}`, { keys: ['钥匙'], priority: i, body: '键'.repeat(40) }))

  it('rail:worldbook: channel rail, cap 560, render(max) within min(max, cap), highest priority first, whole entries', () => {
    const rail = worldbookRail(book([...constants, ...keyword]), config)
    expect(rail).toMatchObject({ id: 'rail:worldbook', channel: 'rail', cap: RAIL_CAP, priority: RAIL_PRIORITY })
    const full = rail.render(10_000)
    expect(charCount(full)).toBeLessThanOrEqual(RAIL_CAP)
    expect(
      full
        .split('\n')
        .slice(1, -1)
        .map((l) => l.slice(2, 4)),
    ).toEqual(['c5', 'c4', 'c3', 'c2'])
    const small = rail.render(200)
    expect(charCount(small)).toBeLessThanOrEqual(200)
    expect(small).toContain('- c5：')
    expect(small.split('\n').at(-1)).toBe(endMarker())
    expect(rail.render(10)).toBe('')
    expect(worldbookRail(book([...constants]), { ...config, railChars: 100 }).cap).toBe(100)
  })

  it('step:worldbook: channel pre-step, cap 800, at most 8 entries, only entries the messages call up', () => {
    const hits = worldbookHits(book([...constants, ...keyword]), ['拿钥匙来'], config)
    expect(hits).toMatchObject({ id: 'step:worldbook', channel: 'pre-step', cap: HITS_CAP, priority: HITS_PRIORITY })
    expect(hits.hits).toHaveLength(10)
    const text = hits.render(10_000)
    expect(charCount(text)).toBeLessThanOrEqual(HITS_CAP)
    // Ten would fit in 800 characters; the entry limit stops at eight, by priority.
    expect(hits.rendered().shown).toEqual(['k9', 'k8', 'k7', 'k6', 'k5', 'k4', 'k3', 'k2'])
    expect(hits.rendered().leftOut.map((l) => l.why)).toEqual(['too-many', 'too-many'])
    expect(worldbookHits(book(keyword), ['没有'], config).render(800)).toBe('')
    expect(worldbookHits(book(keyword), ['拿钥匙来'], { ...config, hitEntries: 2 }).rendered().shown).toEqual(['k9', 'k8'])
  })

  it('recentUserTexts: what the person typed in the last N messages, history then the new ones, each message once', () => {
    const user = (id: string, text: string) => ({ id, source: { kind: 'user' }, content: [{ type: 'text', text }] })
    const notice = { id: 'n', source: { kind: 'plugin' }, content: [{ type: 'text', text: '翁法罗斯' }] }
    const model = { id: 'm', source: { kind: 'model' }, content: [{ type: 'text', text: '翁法罗斯' }] }
    const history = [user('1', '一'), model, user('2', '二'), notice]
    expect(recentUserTexts(history, [user('3', '三')], 2)).toEqual(['二', '三'])
    expect(recentUserTexts(history, [user('2', '二')], 3)).toEqual(['一', '二'])
    expect(recentUserTexts(history, [], 9)).toEqual(['一', '二'])
    expect(recentUserTexts([], [notice], 2)).toEqual([])
  })
})
