import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { Timeline } from './timeline.ts'

const T = Date.parse('2026-03-01T10:00:00Z')
const MIN = 60_000

describe('Timeline', () => {
  it('gives the memories just before and after, on the same day, within the window', () => {
    const t = new Timeline()
    t.add(1, T, 'b')
    t.add(0, T - MIN, 'a')
    t.add(2, T + MIN, 'c')
    t.add(3, T + 120 * MIN, 'd')
    expect(t.neighbours(1, T, 30 * MIN).sort()).toEqual([0, 2])
    expect(t.neighbours(2, T + MIN, 30 * MIN)).toEqual([1]) // d is two hours later
    expect(t.neighbours(3, T + 120 * MIN, 180 * MIN)).toEqual([2])
    // Span 2: two on each side, the window still applies.
    expect(t.neighbours(0, T - MIN, 30 * MIN, 2).sort()).toEqual([1, 2])
    expect(t.neighbours(1, T, 180 * MIN, 2).sort()).toEqual([0, 2, 3])
  })

  it('breaks equal times by id, ignores other days and unparsable times, forgets removed slots', () => {
    const t = new Timeline()
    t.add(5, T, 'z')
    t.add(4, T, 'a')
    t.add(6, T + 86_400_000, 'next-day')
    t.add(7, NaN, 'no-date')
    expect(t.neighbours(4, T, MIN)).toEqual([5])
    expect(t.neighbours(7, NaN, MIN)).toEqual([])
    t.remove(5, T)
    expect(t.neighbours(4, T, MIN)).toEqual([])
    expect(t.neighbours(6, T + 86_400_000, 86_400_000)).toEqual([])
  })

  it('property: neighbours are the items within `span` places in the (time, id) order, whatever the insertion order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 50 }), { minLength: 1, maxLength: 20 }),
        fc.integer(),
        fc.integer({ min: 0, max: 3 }),
        (minutes, seed, span) => {
          const items = minutes.map((m, slot) => ({ slot, at: T + m * MIN, id: `i${String(slot).padStart(2, '0')}` }))
          const shuffled = [...items].sort((a, b) => ((a.slot * 7919 + seed) % 97) - ((b.slot * 7919 + seed) % 97))
          const t = new Timeline()
          for (const it of shuffled) t.add(it.slot, it.at, it.id)
          const order = [...items].sort((a, b) => a.at - b.at || (a.id < b.id ? -1 : 1))
          order.forEach((item, i) => {
            const expected = order.filter((_, j) => j !== i && Math.abs(j - i) <= span).map((x) => x.slot)
            expect(t.neighbours(item.slot, item.at, 1000 * MIN, span).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b))
          })
        },
      ),
    )
  })
})

describe('Timeline.between and count', () => {
  it('agree with a filter over every document, across days and at the edges', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10 * 24 * 60 }), { maxLength: 60 }),
        fc.integer({ min: 0, max: 10 * 24 * 60 }),
        fc.integer({ min: 1, max: 5 * 24 * 60 }),
        (minutes, from, length) => {
          const t = new Timeline()
          minutes.forEach((m, slot) => t.add(slot, T + m * MIN, `i${String(slot).padStart(2, '0')}`))
          const fromMs = T + from * MIN
          const toMs = fromMs + length * MIN
          const inside = minutes.flatMap((m, slot) => (T + m * MIN >= fromMs && T + m * MIN < toMs ? [slot] : []))
          expect(t.count(fromMs, toMs)).toBe(inside.length)
          expect(t.between(fromMs, toMs, 1000).sort((a, b) => a - b)).toEqual(inside.sort((a, b) => a - b))
          expect(t.between(fromMs, toMs, 3).length).toBe(Math.min(3, inside.length))
        },
      ),
    )
  })
})

describe('Timeline, places, removals and reads interleaved', () => {
  it('answers as a list kept sorted at every step would, whatever order the places come in', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('add' as const), slot: fc.integer({ min: 0, max: 30 }), minute: fc.integer({ min: 0, max: 3 * 24 * 60 }) }),
      fc.record({ kind: fc.constant('remove' as const), slot: fc.integer({ min: 0, max: 30 }) }),
      fc.record({ kind: fc.constant('read' as const), slot: fc.integer({ min: 0, max: 30 }), max: fc.integer({ min: 1, max: 5 }) }),
    )
    fc.assert(
      fc.property(fc.array(op, { maxLength: 80 }), (ops) => {
        const t = new Timeline()
        const placed = new Map<number, { at: number; id: string }>()
        const sorted = () => [...placed].sort(([, a], [, b]) => a.at - b.at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
        for (const o of ops) {
          if (o.kind === 'add') {
            if (placed.has(o.slot)) continue
            const item = { at: T + o.minute * MIN, id: `i${String(30 - o.slot).padStart(2, '0')}` }
            placed.set(o.slot, item)
            t.add(o.slot, item.at, item.id)
          } else if (o.kind === 'remove') {
            const item = placed.get(o.slot)
            if (item === undefined) continue
            placed.delete(o.slot)
            t.remove(o.slot, item.at)
          } else {
            const day = (at: number) => Math.floor(at / 86_400_000)
            const item = placed.get(o.slot)
            if (item !== undefined) {
              const sameDay = sorted().filter(([, x]) => day(x.at) === day(item.at))
              const i = sameDay.findIndex(([slot]) => slot === o.slot)
              const expected = [sameDay[i - 1]?.[0], sameDay[i + 1]?.[0]].filter((s): s is number => s !== undefined)
              expect(t.neighbours(o.slot, item.at, 3 * 86_400_000).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b))
            }
            const from = T
            const to = T + 3 * 86_400_000
            const latest = sorted()
              .filter(([, x]) => x.at >= from && x.at < to)
              .reverse()
            // Latest first, day by day: within a day the (time, id) order, the days newest first.
            const byDay = [...new Set(latest.map(([, x]) => day(x.at)))].flatMap((d) => latest.filter(([, x]) => day(x.at) === d))
            expect(t.between(from, to, o.max)).toEqual(byDay.slice(0, o.max).map(([slot]) => slot))
            expect(t.count(from, to)).toBe(latest.length)
          }
        }
      }),
      { numRuns: 500 },
    )
  })
})
