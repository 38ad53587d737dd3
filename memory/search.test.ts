import { afterEach, beforeEach, expect, it } from 'vitest'
import { RecallKeeper } from './recall-keeper.ts'
import { searchEntries } from './search.ts'
import { MemoryStore } from './store.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

// limit 1 used to fetch 1 * 4 + 20 = 24 hits and drop the pending ones afterwards.
const PENDING = 30

it('no over-fetch: `cyrene memory search` and the host recall find the day entry under more than limit * 4 + 20 better-ranked pending entries (issue 8)', async () => {
  const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  const day = await store.write(
    { text: '下午喝了一杯乌龙茶，看着窗外的雨，想起了很多往事。', kind: 'fact', axis: '智', reason: '事实', at: '2025-01-01T10:00:00+08:00' },
    { by: 'person' },
  )
  // Shorter, newer and saying 乌龙茶 twice: each ranks above the day entry. Without kind, axis and reason the gate sends them to 余页/待定.
  for (let i = 0; i < PENDING; i++) {
    const r = await store.write({ text: `乌龙茶，乌龙茶 ${i}`, at: '2026-03-01T10:00:00+08:00' }, { by: 'model' })
    expect(r.gate).toBe('pending')
  }
  const all = await searchEntries(store, '乌龙茶', { limit: PENDING + 1, includePending: true })
  expect(all.map((h) => h.entry.id).indexOf(day.id)).toBe(PENDING)

  expect((await searchEntries(store, '乌龙茶', { limit: 1 })).map((h) => h.entry.id)).toEqual([day.id])
  const keeper = await RecallKeeper.open(store.root)
  expect((await keeper.search('乌龙茶', 1)).map((h) => h.id)).toEqual([day.id])
  // A limit of 0 asks for nothing (it used to give one hit).
  expect(await searchEntries(store, '乌龙茶', { limit: 0 })).toEqual([])
  expect(await keeper.search('乌龙茶', 0)).toEqual([])
  // With pending entries allowed, the page is full of them.
  expect((await searchEntries(store, '乌龙茶', { limit: 3, includePending: true })).every((h) => h.entry.area === 'pending')).toBe(true)
})
