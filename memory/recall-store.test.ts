import { readFileSync, statSync, writeFileSync } from 'node:fs'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { loadRecall, recallCacheFile } from './recall-store.ts'
import { searchEntries } from './search.ts'
import { MemoryStore } from './store.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
let store: MemoryStore
beforeEach(async () => {
  t = await tempHome()
  store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
})
afterEach(async () => {
  await t.cleanup()
})

const write = (text: string, extra: Record<string, unknown> = {}) =>
  store.write({ text, kind: 'preference', axis: '美', reason: '偏好', ...extra }, { by: 'person' })

it('finds memories across Chinese segmentation and English word forms, and skips pending unless asked', async () => {
  const tea = await write('我最喜欢喝乌龙茶，不加糖。')
  const cats = await write('She adopted two cats last spring.')
  await write('周末去爬山。')
  const pending = await store.write({ text: '乌龙茶也许该换成红茶', kind: 'decision', axis: '德', reason: '还没想好' }, { by: 'model' })
  expect(pending.gate).toBe('pending')
  expect((await searchEntries(store, '乌龙')).map((h) => h.entry.id)).toEqual([tea.id])
  expect((await searchEntries(store, 'cat')).map((h) => h.entry.id)).toEqual([cats.id])
  expect((await searchEntries(store, '乌龙茶', { includePending: true })).map((h) => h.entry.id).sort()).toEqual([tea.id, pending.id].sort())
  expect(await searchEntries(store, '   ')).toEqual([])
})

it('caches the index beside the root, reuses it, and follows a hand edit of a day file', async () => {
  const first = await write('喜欢乌龙茶')
  await searchEntries(store, '乌龙茶')
  const cache = recallCacheFile(store.root)
  expect(statSync(cache).isFile()).toBe(true)
  const { entries } = await store.scan()
  expect((await loadRecall(store, entries)).cache).toBe('used')
  // A person rewrites the entry's text by hand in the day file.
  const file = `${store.root}/${(await store.get(first.id))!.file}`
  writeFileSync(file, readFileSync(file, 'utf8').replace('喜欢乌龙茶', '改喝茉莉花茶了'))
  expect(await searchEntries(store, '乌龙')).toEqual([])
  expect((await searchEntries(store, '茉莉花')).map((h) => h.entry.id)).toEqual([first.id])
})

it('a corrupt cache is rebuilt, never fatal', async () => {
  const a = await write('喜欢乌龙茶')
  await searchEntries(store, '乌龙茶')
  writeFileSync(recallCacheFile(store.root), '{ not an index')
  expect((await searchEntries(store, '乌龙茶')).map((h) => h.entry.id)).toEqual([a.id])
  const { entries } = await store.scan()
  expect((await loadRecall(store, entries)).cache).toBe('used')
})
