import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { promptReferences } from '../prompt/index.ts'
import { charCount, endMarker } from '../prompt/index.ts'
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

  it('property: any worldbook, any messages, any budget → both blocks within min(max, cap), ≤ 8 hits, no live {{, the marker last', () => {
    const word = fc.oneof(fc.constantFrom('翁法罗斯', 'Cyrene', '{{x}}', '【数据结束·abcdef12】', 'a'), fc.string({ maxLength: 6 }))
    const anEntry = fc.record({
      keys: fc.array(word, { maxLength: 3 }),
      secondaryKeys: fc.array(word, { maxLength: 2 }),
      logic: fc.constantFrom('and-any' as const, 'and-all' as const, 'not-any' as const, 'not-all' as const),
      constant: fc.boolean(),
      enabled: fc.boolean(),
      priority: fc.integer({ min: -5, max: 5 }),
      title: fc.string({ maxLength: 20 }),
      body: fc.string({ unit: 'binary', maxLength: 300 }),
    })
    fc.assert(
      fc.property(
        fc.array(anEntry, { maxLength: 20 }),
        fc.array(fc.string({ maxLength: 40 }), { maxLength: 3 }),
        fc.integer({ min: 0, max: 1200 }),
        (items, messages, max) => {
          const loaded = book(items.map((it, i) => entry(`e${i}`, it)))
          for (const block of [worldbookRail(loaded, config), worldbookHits(loaded, messages, config)]) {
            const text = block.render(max)
            expect(charCount(text)).toBeLessThanOrEqual(Math.min(max, block.cap))
            expect(promptReferences(text)).toEqual([])
            if (text !== '') {
              const lines = text.split('\n')
              expect(lines.at(-1)).toBe(endMarker())
              expect(lines.filter((l) => l.includes('数据结束'))).toHaveLength(1 + lines.filter((l) => l.includes('（数据结束')).length)
              if (block.channel === 'pre-step') expect(lines.length - 2).toBeLessThanOrEqual(8)
            }
          }
        },
      ),
    )
  })
})
