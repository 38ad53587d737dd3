import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { keeperCacheFile, legacySearchCacheFile, ONE_SHOT_OPEN, RecallKeeper, recallCacheDir } from './keeper.ts'
import { writeRecallSeal } from './cache.ts'
import { searchEntries } from './search.ts'
import { MemoryStore } from '../memory/index.ts'
import { tempHome } from '../memory/testing/tmp.ts'

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
  expect(all.map((h) => h.id).indexOf(day.id)).toBe(PENDING)

  expect((await searchEntries(store, '乌龙茶', { limit: 1 })).map((h) => h.id)).toEqual([day.id])
  const keeper = await RecallKeeper.open(store.root)
  expect((await keeper.search('乌龙茶', 1)).map((h) => h.id)).toEqual([day.id])
  // A limit of 0 asks for nothing (it used to give one hit).
  expect(await searchEntries(store, '乌龙茶', { limit: 0 })).toEqual([])
  expect(await keeper.search('乌龙茶', 0)).toEqual([])
  // With pending entries allowed, the page is full of them.
  expect((await searchEntries(store, '乌龙茶', { limit: 3, includePending: true })).every((h) => h.area === 'pending')).toBe(true)
})

const write = (store: MemoryStore, text: string, extra: Record<string, unknown> = {}) =>
  store.write({ text, kind: 'preference', axis: '美', reason: '偏好', ...extra }, { by: 'person' })

it('finds memories across Chinese segmentation and English word forms, and skips pending unless asked', async () => {
  const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  const tea = await write(store, '我最喜欢喝乌龙茶，不加糖。')
  const cats = await write(store, 'She adopted two cats last spring.')
  await write(store, '周末去爬山。')
  const pending = await store.write({ text: '乌龙茶也许该换成红茶', kind: 'decision', axis: '德', reason: '还没想好' }, { by: 'model' })
  expect(pending.gate).toBe('pending')
  expect((await searchEntries(store, '乌龙')).map((h) => h.id)).toEqual([tea.id])
  expect((await searchEntries(store, 'cat')).map((h) => h.id)).toEqual([cats.id])
  expect((await searchEntries(store, '乌龙茶', { includePending: true })).map((h) => h.id).sort()).toEqual([tea.id, pending.id].sort())
  expect(await searchEntries(store, '   ')).toEqual([])
})

it("one index and one cache: the person's search saves the keeper's cache, removes the old search cache, and follows a hand edit", async () => {
  const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  const first = await write(store, '喜欢乌龙茶')
  // The second index of earlier versions left its cache here: derived data, removed on the next save.
  mkdirSync(recallCacheDir(store.root), { recursive: true })
  writeFileSync(legacySearchCacheFile(store.root), '{"format":"cyrene-recall-index"}')
  expect((await searchEntries(store, '乌龙茶')).map((h) => h.id)).toEqual([first.id])
  expect(statSync(keeperCacheFile(store.root)).isFile()).toBe(true)
  expect(existsSync(legacySearchCacheFile(store.root))).toBe(false)
  expect((await RecallKeeper.open(store.root)).opened).toMatchObject({ cache: 'used', filesRead: 0 })
  // A person rewrites the entry's text by hand in the day file.
  const file = `${store.root}/${(await store.get(first.id))!.file}`
  writeFileSync(file, readFileSync(file, 'utf8').replace('喜欢乌龙茶', '改喝茉莉花茶了'))
  expect(await searchEntries(store, '乌龙')).toEqual([])
  expect((await searchEntries(store, '茉莉花')).map((h) => h.id)).toEqual([first.id])
})

it('a corrupt cache is rebuilt, never fatal', async () => {
  const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  const a = await write(store, '喜欢乌龙茶')
  await searchEntries(store, '乌龙茶')
  writeFileSync(keeperCacheFile(store.root), '{ not an index')
  expect((await searchEntries(store, '乌龙茶')).map((h) => h.id)).toEqual([a.id])
  expect((await RecallKeeper.open(store.root)).opened.cache).toBe('used')
})

it('a one-shot search reads only the lists it needs, and a damaged one it reads is noticed: rebuilt from the files, the same hits', async () => {
  const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  const a = await write(store, '喜欢乌龙茶')
  expect((await searchEntries(store, '乌龙茶')).map((h) => h.id)).toEqual([a.id])
  const bytes = readFileSync(keeperCacheFile(store.root))
  // The last document's last term frequency set to 0: outside the CRC, so the open cannot see it; the search that reads it does.
  const damaged = Buffer.from(bytes)
  damaged.writeInt32LE(0, damaged.length - 4)
  // The seal sees the change at once (docs/decisions/283): rebuilt at the open, saved whole again.
  writeFileSync(keeperCacheFile(store.root), damaged)
  expect((await RecallKeeper.open(store.root, ONE_SHOT_OPEN)).opened.cache).toBe('rebuilt')
  expect(readFileSync(keeperCacheFile(store.root)).equals(bytes)).toBe(true)
  // Behind a seal that matches (the bytes changed in place after the open checked them), the list is still checked when read.
  writeFileSync(keeperCacheFile(store.root), damaged)
  await writeRecallSeal(store.root, { size: damaged.length, sha256: createHash('sha256').update(damaged).digest('hex') })
  const keeper = await RecallKeeper.open(store.root, ONE_SHOT_OPEN)
  expect(keeper.opened.cache).toBe('used')
  expect((await keeper.search('乌龙茶', 5)).map((h) => h.id)).toEqual([a.id])
  expect(keeper.opened.cache).toBe('rebuilt')
  // Saved again whole: the next open reads a cache that checks out.
  expect(readFileSync(keeperCacheFile(store.root)).equals(bytes)).toBe(true)
  // A file changed behind the cache's back (a hand edit) is read again, never answered from the cache.
  const file = `${store.root}/${(await store.get(a.id))!.file}`
  writeFileSync(file, readFileSync(file, 'utf8').replace('喜欢乌龙茶', '改喝茉莉花茶了'))
  const after = await RecallKeeper.open(store.root, ONE_SHOT_OPEN)
  expect(after.opened).toMatchObject({ cache: 'used', filesRead: 1 })
  expect(await after.search('乌龙', 5)).toEqual([])
  expect((await after.search('茉莉花', 5)).map((h) => h.id)).toEqual([a.id])
})
