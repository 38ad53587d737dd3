import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { linkEntries } from './entry-links.ts'
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

const fact = (text: string, base = false) => store.write({ text, kind: 'fact', axis: '智', reason: 'r', ...(base ? { base: true } : {}) }, { by: 'person' })

describe('linkEntries', () => {
  it('a person may link from a base entry; the model may not, and gets the way round', async () => {
    const base = await fact('基石', true)
    const other = await fact('另一条')
    await expect(linkEntries(store, { from: base.id, to: other.id, type: '归属' }, { by: 'model' })).rejects.toThrow(/Link from the other entry instead/)
    expect(await linkEntries(store, { from: base.id, to: other.id, type: '归属' }, { by: 'person' })).toMatchObject({ changed: true })
    expect((await store.get(base.id))?.meta.links).toEqual([`${other.id}|归属`])
  })

  it('the model may not link from any entry of the person’s, base or not; from its own entry it may', async () => {
    const persons = await fact('对方的一条')
    const own = await store.write({ text: '昔涟记下的一条', kind: 'fact', axis: '智', reason: 'r' }, { by: 'model' })
    await expect(linkEntries(store, { from: persons.id, to: own.id, type: '' }, { by: 'model' })).rejects.toThrow(/is the person's/)
    expect(await linkEntries(store, { from: own.id, to: persons.id, type: '' }, { by: 'model' })).toMatchObject({ changed: true })
  })

  it('keeps the other links of the entry and touches only the links line of its file', async () => {
    const a = await store.write({ text: '甲', kind: 'fact', axis: '智', reason: 'r' }, { by: 'model' })
    const b = await fact('乙')
    const c = await fact('丙')
    await linkEntries(store, { from: a.id, to: b.id, type: '时序' }, { by: 'model' })
    const before = await readFile(join(store.root, a.file), 'utf8')
    await linkEntries(store, { from: a.id, to: c.id, type: '' }, { by: 'model' })
    const after = await readFile(join(store.root, a.file), 'utf8')
    expect((await store.get(a.id))?.meta.links).toEqual([`${b.id}|时序`, `${c.id}|`])
    // Every line of the other entries is unchanged.
    const others = (text: string) => text.split('\n').filter((l) => l.includes(b.id) === false && l.includes('甲') === false && !l.includes(a.id))
    expect(others(after)).toEqual(others(before))
  })

  it('refuses blank ids with a message', async () => {
    await expect(linkEntries(store, { from: ' ', to: 'x', type: '' }, { by: 'model' })).rejects.toThrow(/give both ids/)
  })
})
