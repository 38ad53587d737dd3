import { execFileSync } from 'node:child_process'
import { existsSync, lstatSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { keeperCacheFile, readItemsById, RecallKeeper } from './keeper.ts'
import { recallSealFile } from './cache.ts'
import { MemoryStore, writeAnchor } from '../memory/index.ts'
import { tempHome } from '../memory/testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

const open = () => MemoryStore.open({ env: { DSH_HOME: t.home } })
const fact = (text: string, at?: string) => ({ text, kind: 'fact', axis: '智', reason: '事实', ...(at !== undefined ? { at } : {}) })
const ids = async (keeper: RecallKeeper, q: string) => (await keeper.search(q, 5)).map((h) => h.id)

it('follows writes from another store object, hand edits in place and deleted files; never recalls pending', async () => {
  const host = await open()
  const person = await open()
  const tea = await person.write(fact('喜欢乌龙茶，不加糖。', '2026-03-01T10:00:00+08:00'), { by: 'person' })
  const keeper = await RecallKeeper.open(host.root)
  expect(await ids(keeper, '乌龙')).toEqual([tea.id])
  expect((await keeper.search('乌龙', 5))[0]).toMatchObject({ text: '喜欢乌龙茶，不加糖。', date: '2026-03-01', area: 'day' })

  const city = await person.write(fact('搬到了上海。', '2026-03-02T10:00:00+08:00'), { by: 'person' })
  const pending = await person.write({ text: '也许该去学日语', kind: 'decision', axis: '德', reason: '未定' }, { by: 'model' })
  expect(pending.gate).toBe('pending')
  expect(await ids(keeper, '上海')).toEqual([])
  expect(await keeper.refresh()).toBeGreaterThan(0)
  expect(await ids(keeper, '上海')).toEqual([city.id])
  expect(await ids(keeper, '日语')).toEqual([])
  expect((await keeper.search('日语', 5, { includePending: true })).map((h) => h.id)).toEqual([pending.id])

  const file = host.path((await host.get(tea.id))!.file)
  writeFileSync(file, readFileSync(file, 'utf8').replace('乌龙茶', '茉莉花茶'))
  await keeper.refresh()
  expect(await ids(keeper, '乌龙')).toEqual([])
  expect(await ids(keeper, '茉莉花')).toEqual([tea.id])

  rmSync(host.path((await host.get(city.id))!.file))
  await keeper.refresh()
  expect(await ids(keeper, '上海')).toEqual([])
  expect(await keeper.refresh()).toBe(0)
})

it('refresh(changed) reads only the files named: a change it is not told about waits for a full look', async () => {
  const store = await open()
  await store.write(fact('喜欢乌龙茶。', '2026-03-01T10:00:00+08:00'), { by: 'person' })
  const keeper = await RecallKeeper.open(store.root)
  const city = await store.write(fact('搬到了上海。', '2026-03-02T10:00:00+08:00'), { by: 'person' })
  const hike = await store.write(fact('周末去爬山。', '2026-03-03T10:00:00+08:00'), { by: 'person' })
  expect(await keeper.refresh([city.file])).toBe(1)
  expect(await ids(keeper, '上海')).toEqual([city.id])
  expect(await ids(keeper, '爬山')).toEqual([])
  // Files that are not recall files are ignored; an unchanged one is not read again.
  expect(await keeper.refresh(['元/settings.json', city.file])).toBe(0)
  expect(await keeper.refresh()).toBe(1)
  expect(await ids(keeper, '爬山')).toEqual([hike.id])
})

it('indexes anchors, dream journals and month/year rollups, each hit saying where it came from', async () => {
  const store = await open()
  await writeAnchor(store, 'user', { text: '你是阿远，一个写科幻小说的人。', mode: 'core' }, { by: 'person' })
  const put = (rel: string, text: string): void => {
    mkdirSync(dirname(join(store.root, rel)), { recursive: true })
    writeFileSync(join(store.root, rel), text)
  }
  put('梦境/2026/03/2026-03-04.md', '# 梦\n<!-- 私下 -->梦见一座漂浮的灯塔。')
  put('岁月涟漪/月响/2026/2026-03.md', '三月：搬家、换工作，开始学游泳。')
  put('岁月涟漪/年轮/2025.md', '二〇二五：第一本书出版。')
  put('梦境/2026/03/not-a-day.md', '灯塔 不是梦境文件')
  const keeper = await RecallKeeper.open(store.root)
  expect(keeper.size).toBe(4)
  const [dream] = await keeper.search('灯塔', 5)
  expect(dream).toMatchObject({ id: 'dream:2026-03-04', area: 'dream', date: '2026-03-04', file: '梦境/2026/03/2026-03-04.md' })
  expect(dream!.text).toBe('梦\n 梦见一座漂浮的灯塔。')
  expect((await keeper.search('游泳', 5))[0]).toMatchObject({ id: 'month:2026-03', area: 'month', date: '2026-03' })
  expect((await keeper.search('出版', 5))[0]).toMatchObject({ id: 'year:2025', area: 'year', date: '2025' })
  expect((await keeper.search('科幻小说', 5))[0]).toMatchObject({ id: 'anchor:user', area: 'anchor' })
})

it('a second open uses the cache without reading a memory file; a broken cache is rebuilt; an imported entry keeps its source_ref', async () => {
  const store = await open()
  await store.write(fact('喜欢乌龙茶。', '2026-03-01T10:00:00+08:00'), { by: 'person' })
  const first = await RecallKeeper.open(store.root)
  expect(first.opened).toMatchObject({ cache: 'missing', filesRead: 1 })
  const second = await RecallKeeper.open(store.root)
  expect(second.opened).toMatchObject({ cache: 'used', filesRead: 0 })
  expect(await ids(second, '乌龙茶')).toEqual(await ids(first, '乌龙茶'))
  // Cut short, a term frequency of 0, a foreign file: each is rebuilt from the files, never trusted.
  const bytes = readFileSync(keeperCacheFile(store.root))
  const zeroTf = Buffer.from(bytes)
  zeroTf.writeInt32LE(0, zeroTf.length - 4)
  for (const bad of [bytes.subarray(0, bytes.length - 4), zeroTf, Buffer.from('{"format":"cyrene-recall-keeper"}')]) {
    writeFileSync(keeperCacheFile(store.root), bad)
    const reopened = await RecallKeeper.open(store.root)
    expect(reopened.opened.cache).toBe('rebuilt')
    expect(await ids(reopened, '乌龙茶')).toHaveLength(1)
  }
  const third = await RecallKeeper.open(store.root)
  expect(third.opened).toMatchObject({ cache: 'used', filesRead: 0 })

  const { importItems } = await import('../memory/upkeep.ts')
  await importItems(store, [{ text: '在杭州看过一次雷峰塔。', at: '2020-05-01', source_ref: 'diary:12', origin: 'test:1' }])
  await third.refresh()
  expect((await third.search('雷峰塔', 5))[0]).toMatchObject({ sourceRef: 'diary:12', date: '2020-05-01' })
})

it('a cache that checks out but is not the one the keeper sealed is not used: a forged cache is rebuilt from the files', async () => {
  const store = await open()
  const tea = await store.write(fact('喜欢乌龙茶。', '2026-03-01T10:00:00+08:00'), { by: 'person' })
  await RecallKeeper.open(store.root)
  const seal = readFileSync(recallSealFile(store.root), 'utf8')
  expect(JSON.parse(seal)).toMatchObject({ size: readFileSync(keeperCacheFile(store.root)).length })

  // A well-formed cache with every file's stamp right but another text for the entry, written the way
  // the recall worker writes one: the seal is handed back (opened.seal), not written beside it.
  const forger = await RecallKeeper.open(store.root, { ownThread: true })
  ;(forger as unknown as { index: { add(doc: object): void } }).index.add({
    id: tea.id,
    text: '最爱喝美式咖啡。',
    at: '2026-03-01T02:00:00.000Z',
    source: 'entry',
  })
  expect(await forger.save()).toBeUndefined()
  expect(forger.opened.seal).toBeDefined()
  expect(readFileSync(recallSealFile(store.root), 'utf8')).toBe(seal)

  const reopened = await RecallKeeper.open(store.root)
  expect(reopened.opened.cache).toBe('rebuilt')
  expect(await ids(reopened, '咖啡')).toEqual([])
  expect(await ids(reopened, '乌龙茶')).toEqual([tea.id])
  expect((await RecallKeeper.open(store.root)).opened.cache).toBe('used')

  // A FIFO in the cache's place is never opened (opening one would wait for a writer): rebuilt.
  rmSync(keeperCacheFile(store.root))
  execFileSync('mkfifo', [keeperCacheFile(store.root)])
  expect((await RecallKeeper.open(store.root)).opened.cache).toBe('rebuilt')
  expect((await RecallKeeper.open(store.root)).opened.cache).toBe('used')

  // No seal (a store from before the seal, or one removed): rebuilt once, sealed again.
  rmSync(recallSealFile(store.root))
  expect((await RecallKeeper.open(store.root)).opened.cache).toBe('rebuilt')
  expect(existsSync(recallSealFile(store.root))).toBe(true)
  expect((await RecallKeeper.open(store.root)).opened.cache).toBe('used')
})

it.each([false, true])('a hit whose file became a link is not shown: the link is never followed (blocking reads: %s)', async (ownThread) => {
  const store = await open()
  const tea = await store.write(fact('喜欢乌龙茶，不加糖。', '2026-03-01T10:00:00+08:00'), { by: 'person' })
  const keeper = await RecallKeeper.open(store.root, { ownThread })
  const file = store.path(tea.file)
  const outside = join(t.home, 'elsewhere.md')
  writeFileSync(outside, readFileSync(file, 'utf8').replace('不加糖', '加三勺糖'))
  rmSync(file)
  symlinkSync(outside, file)
  // The index still ranks the entry (no refresh yet), but its text is read through no link.
  expect(await keeper.search('乌龙茶', 5)).toEqual([])
  rmSync(file)
  writeFileSync(file, readFileSync(outside, 'utf8'))
  await keeper.refresh()
  expect((await keeper.search('乌龙茶', 5)).map((h) => h.text)).toEqual(['喜欢乌龙茶，加三勺糖。'])
})

it('reads the entries asked for from one day file, in the order of their ids, without the others', async () => {
  const store = await open()
  const a = await store.write(fact('早上喝了乌龙茶', '2026-03-01T08:00:00+08:00'), { by: 'person' })
  await store.write(fact('中午吃了面', '2026-03-01T12:00:00+08:00'), { by: 'person' })
  const c = await store.write(fact('晚上散步', '2026-03-01T20:00:00+08:00'), { by: 'person' })
  const rel = (await store.get(a.id))!.file
  const items = await readItemsById(store.root, rel, new Set([c.id, 'no-such-id', a.id]))
  expect(items?.map((i) => [i.doc.id, i.text])).toEqual([
    [a.id, '早上喝了乌龙茶'],
    [c.id, '晚上散步'],
  ])
  expect(await readItemsById(store.root, 'no/such/file.md', new Set([a.id]))).toBeUndefined()
})

it('a link put in the cache folder’s place is removed, never written or removed through: the cache goes to a folder of its own', async () => {
  const store = await open()
  const tea = await store.write(fact('喜欢乌龙茶。', '2026-03-01T10:00:00+08:00'), { by: 'person' })
  const folder = dirname(keeperCacheFile(store.root))
  // A link to a folder of the store, holding files by the cache's names (which a drop would remove).
  const target = dirname(store.path(tea.file))
  const names = ['keeper.bin', 'keeper.json', 'recall.json']
  for (const name of names) writeFileSync(join(target, name), `kept ${name}`)
  rmSync(folder, { recursive: true, force: true })
  symlinkSync(target, folder)
  const { dropRecallCache } = await import('./cache.ts')
  await dropRecallCache(store.root)
  for (const name of names) expect(readFileSync(join(target, name), 'utf8')).toBe(`kept ${name}`)

  symlinkSync(target, folder)
  const keeper = await RecallKeeper.open(store.root)
  expect(await keeper.save()).toBeUndefined()
  for (const name of names) expect(readFileSync(join(target, name), 'utf8')).toBe(`kept ${name}`)
  expect(lstatSync(folder).isDirectory()).toBe(true)
  expect((await RecallKeeper.open(store.root)).opened.cache).toBe('used')
})
