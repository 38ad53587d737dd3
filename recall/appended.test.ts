import { appendFileSync, readFileSync, truncateSync, utimesSync, writeFileSync } from 'node:fs'
import fc from 'fast-check'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { RecallKeeper } from './keeper.ts'
import { serializeEntry } from '../memory/entry.ts'
import { MemoryStore } from '../memory/index.ts'
import { tempHome } from '../memory/testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

const fact = (text: string) => ({ text, kind: 'fact', axis: '智', reason: '事实', at: '2026-03-01T10:00:00+08:00' })
const ids = async (keeper: RecallKeeper, q: string) => (await keeper.search(q, 5)).map((h) => h.id)
const state = (keeper: RecallKeeper) => {
  const inner = keeper as unknown as { index: { fingerprint(): string; ids(): string[] } }
  return { fingerprint: inner.index.fingerprint(), ids: inner.index.ids() }
}
/** Every file's time moved on, so a change within one clock tick is still a change of stamp. */
let tick = 1_800_000_000
const touched = (file: string) => utimesSync(file, tick, ++tick)

it('a day file that only grew is read from its last closed comment line on; a head changed in place is read whole', async () => {
  const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  const tea = await store.write(fact('喜欢乌龙茶，不加糖。'), { by: 'person' })
  const keeper = await RecallKeeper.open(store.root)
  const city = await store.write(fact('搬到了上海。'), { by: 'person' })
  expect(await keeper.refresh([city.file])).toBe(1)
  expect(keeper.grownReads).toBe(1)
  expect(await ids(keeper, '上海')).toEqual([city.id])
  expect(await ids(keeper, '乌龙茶')).toEqual([tea.id])

  // The mark travels in the cache: a keeper opened later reads only what was appended since.
  expect(await keeper.save()).toBeUndefined()
  const hike = await store.write(fact('周末去爬山。'), { by: 'person' })
  const later = await RecallKeeper.open(store.root)
  expect(later.opened).toMatchObject({ cache: 'used', filesRead: 1 })
  expect(later.grownReads).toBe(1)
  expect(await ids(later, '爬山')).toEqual([hike.id])

  // The head changed in place, to as many bytes, and the file grew: read whole.
  const file = store.path(tea.file)
  writeFileSync(file, readFileSync(file, 'utf8').replace('乌龙茶', '普洱茶'))
  appendFileSync(file, `\n${serializeEntry({ text: '养了一只猫。', meta: { id: 'cat-1', kind: 'fact', at: '2026-03-01T11:00:00+08:00' } })}`)
  await later.refresh([tea.file])
  expect(later.grownReads).toBe(1)
  expect(await ids(later, '普洱')).toEqual([tea.id])
  expect((await later.search('普洱', 5))[0]?.text).toBe('喜欢普洱茶，不加糖。')
  expect(await ids(later, '乌龙')).toEqual([])
  expect(await ids(later, '猫')).toEqual(['cat-1'])
})

it('reading what was appended gives the index a whole read gives, whatever is appended or changed (property)', async () => {
  const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  const first = await store.write(fact('第一条：喜欢乌龙茶。'), { by: 'person' })
  const rel = first.file
  const file = store.path(rel)
  const words = ['乌龙茶', '上海', '爬山', '猫', 'tea', '咖啡', '雨天']
  const entry = (id: string, word: string, end = '\n') =>
    serializeEntry({ text: `记下：${word}`, meta: { id, kind: 'fact', at: '2026-03-01T12:00:00+08:00' } }).replace(/\n$/, end)
  const step = fc.oneof(
    fc.record({
      op: fc.constant('entry' as const),
      id: fc.integer({ min: 0, max: 40 }),
      word: fc.constantFrom(...words),
      end: fc.constantFrom('\n', '', '\r\n'),
    }),
    fc.record({
      op: fc.constant('raw' as const),
      text: fc.constantFrom('\n', '我自己的话\n', '<!--cyrene:{bad\n', '\uFEFF', '-->x', ' ', '<!--cyrene:[1]-->\n'),
    }),
    fc.record({ op: fc.constant('edit' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('cut' as const), at: fc.nat() }),
    fc.record({ op: fc.constant('reopen' as const) }),
  )
  let grown = 0
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
      writeFileSync(file, entry('base', '乌龙茶'))
      let keeper = await RecallKeeper.open(store.root)
      for (const s of steps) {
        if (s.op === 'entry') appendFileSync(file, entry(`e-${s.id}`, s.word, s.end))
        else if (s.op === 'raw') appendFileSync(file, s.text)
        else if (s.op === 'edit') {
          // One byte of the file changed in place, for another of the same length.
          const bytes = readFileSync(file)
          const at = s.at % bytes.length
          if (bytes[at]! < 0x80) bytes[at] = bytes[at] === 0x61 ? 0x62 : 0x61
          writeFileSync(file, bytes)
        } else if (s.op === 'cut') truncateSync(file, s.at % (readFileSync(file).length + 1))
        else {
          expect(await keeper.save()).toBeUndefined()
          grown += keeper.grownReads
          keeper = await RecallKeeper.open(store.root)
        }
        touched(file)
        await keeper.refresh([rel])
        expect(state(keeper)).toEqual(state(await RecallKeeper.open(store.root, { cache: false })))
      }
      grown += keeper.grownReads
    }),
    { numRuns: 200 },
  )
  // Most runs append: the fast path was taken, and checked, many times.
  expect(grown).toBeGreaterThan(200)
})
