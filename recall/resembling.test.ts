import { readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { keeperCacheFile, RecallKeeper } from './keeper.ts'
import { resemblingDayEntry } from './resembling.ts'
import { MemoryStore } from '../memory/index.ts'
import { tempHome } from '../memory/testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
let store: MemoryStore
beforeEach(async () => {
  t = await tempHome()
  store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
})
afterEach(async () => {
  await t.cleanup()
})

const write = (text: string, at: string) => store.write({ text, kind: 'preference', axis: '美', reason: '口味', at }, { by: 'person' })
const stampOf = (file: string) => `${statSync(file).mtimeMs}:${statSync(file).size}`

it("finds the twin through the saved index without opening it (the cache is left as it was), and one written since in another day's file", async () => {
  const tea = await write('我喜欢乌龙茶', '2019-05-01T10:00:00+08:00')
  for (let i = 0; i < 20; i++) await write(`第${i}天去公园散步，看见了很多花。`, `2019-06-${String(i + 1).padStart(2, '0')}T10:00:00+08:00`)
  await RecallKeeper.open(store.root)
  const cache = stampOf(keeperCacheFile(store.root))
  // Written after the cache was saved, on a day of its own: found by its file's changed stamp.
  const cat = await write('家里的橘猫叫团子', '2019-07-01T10:00:00+08:00')
  const again = await write('我很喜欢乌龙茶。', '2020-05-01T10:00:00+08:00')
  expect(await resemblingDayEntry(store.root, '我很喜欢乌龙茶。', again.id, again.file)).toMatchObject({ id: tea.id, date: '2019-05-01' })
  const cat2 = await write('家里那只橘猫叫团子。', '2020-06-01T10:00:00+08:00')
  expect(await resemblingDayEntry(store.root, '家里那只橘猫叫团子。', cat2.id, cat2.file)).toMatchObject({ id: cat.id })
  // A changed value is a new memory, not a twin.
  const other = await write('我喜欢红茶', '2020-07-01T10:00:00+08:00')
  expect(await resemblingDayEntry(store.root, '我喜欢红茶', other.id, other.file)).toBeUndefined()
  expect(stampOf(keeperCacheFile(store.root))).toBe(cache)
})

it('without a cache the index is built (and saved) once; an entry of the same file is found either way', async () => {
  const first = await write('周末去爬山', '2019-05-01T10:00:00+08:00')
  const same = await write('周末去爬山了。', '2019-05-01T11:00:00+08:00')
  rmSync(keeperCacheFile(store.root), { force: true })
  expect(await resemblingDayEntry(store.root, '周末去爬山了。', same.id, same.file)).toMatchObject({ id: first.id })
  expect(statSync(keeperCacheFile(store.root)).isFile()).toBe(true)
  expect(await resemblingDayEntry(store.root, '周末去爬山了。', same.id, same.file)).toMatchObject({ id: first.id })
})

it('a FIFO or a link put where the saved index was is not opened: the twin is still found, nothing waits', async () => {
  const tea = await write('我喜欢乌龙茶', '2019-05-01T10:00:00+08:00')
  await RecallKeeper.open(store.root)
  const again = await write('我很喜欢乌龙茶。', '2020-05-01T10:00:00+08:00')
  rmSync(keeperCacheFile(store.root))
  execFileSync('mkfifo', [keeperCacheFile(store.root)])
  expect(await resemblingDayEntry(store.root, '我很喜欢乌龙茶。', again.id, again.file)).toMatchObject({ id: tea.id })
  rmSync(keeperCacheFile(store.root), { force: true })
  symlinkSync('/dev/zero', keeperCacheFile(store.root))
  expect(await resemblingDayEntry(store.root, '我很喜欢乌龙茶。', again.id, again.file)).toMatchObject({ id: tea.id })
})

it('in a day file that only grew since the cache was saved, the entries appended are compared, and those of its head as the cache ranks them', async () => {
  const tea = await write('我喜欢乌龙茶', '2019-05-01T10:00:00+08:00')
  for (let i = 0; i < 20; i++) await write(`第${i}次去公园散步，看见了很多花。`, `2019-05-01T1${i % 10}:00:00+08:00`)
  await RecallKeeper.open(store.root)
  const cat = await write('家里的橘猫叫团子', '2019-05-01T20:00:00+08:00')
  const cat2 = await write('家里那只橘猫叫团子。', '2019-05-01T21:00:00+08:00')
  expect(cat2.file).toBe(tea.file)
  expect(await resemblingDayEntry(store.root, '家里那只橘猫叫团子。', cat2.id, cat2.file)).toMatchObject({ id: cat.id })
  const again = await write('我很喜欢乌龙茶。', '2019-05-01T22:00:00+08:00')
  expect(await resemblingDayEntry(store.root, '我很喜欢乌龙茶。', again.id, again.file)).toMatchObject({ id: tea.id })
  // Its head changed in place (as many bytes): read whole, the entry compared as it reads now.
  const file = store.path(tea.file)
  writeFileSync(file, readFileSync(file, 'utf8').replace('我喜欢乌龙茶', '我喜欢普洱茶'))
  expect(await resemblingDayEntry(store.root, '我很喜欢普洱茶。', again.id, again.file)).toMatchObject({ id: tea.id })
})
