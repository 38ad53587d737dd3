import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { RecallKeeper } from './recall-keeper.ts'
import { MemoryStore } from './store.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

const open = () => MemoryStore.open({ env: { DSH_HOME: t.home } })
const fact = (text: string, at?: string) => ({ text, kind: 'fact', axis: '智', reason: '事实', ...(at !== undefined ? { at } : {}) })

it('follows writes from another store object, hand edits in place and deleted files; never recalls pending', async () => {
  const host = await open()
  const person = await open()
  const tea = await person.write(fact('喜欢乌龙茶，不加糖。', '2026-03-01T10:00:00+08:00'), { by: 'person' })
  const keeper = await RecallKeeper.open(host)
  expect(keeper.search('乌龙', 5).map((h) => h.id)).toEqual([tea.id])
  expect(keeper.search('乌龙', 5)[0]).toMatchObject({ text: '喜欢乌龙茶，不加糖。', date: '2026-03-01' })

  const city = await person.write(fact('搬到了上海。', '2026-03-02T10:00:00+08:00'), { by: 'person' })
  const pending = await person.write({ text: '也许该去学日语', kind: 'decision', axis: '德', reason: '未定' }, { by: 'model' })
  expect(pending.gate).toBe('pending')
  expect(keeper.search('上海', 5)).toEqual([])
  expect(await keeper.refresh()).toBeGreaterThan(0)
  expect(keeper.search('上海', 5).map((h) => h.id)).toEqual([city.id])
  expect(keeper.search('日语', 5)).toEqual([])

  const file = host.path((await host.get(tea.id))!.file)
  writeFileSync(file, readFileSync(file, 'utf8').replace('乌龙茶', '茉莉花茶'))
  await keeper.refresh()
  expect(keeper.search('乌龙', 5)).toEqual([])
  expect(keeper.search('茉莉花', 5).map((h) => h.id)).toEqual([tea.id])

  rmSync(host.path((await host.get(city.id))!.file))
  await keeper.refresh()
  expect(keeper.search('上海', 5)).toEqual([])
  expect(await keeper.refresh()).toBe(0)
})
