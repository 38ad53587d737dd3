import { afterEach, beforeEach, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { MemoryStore } from './store.ts'
import { listPending, recheckPending, restoreTombstone } from './recheck.ts'
import { checkStore } from './check.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
let s: MemoryStore
beforeEach(async () => {
  t = await tempHome()
  s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
})
afterEach(async () => {
  await t.cleanup()
})

it('a month check promotes with an amendment into a new day entry and leaves 待定 byte for byte', async () => {
  const p = await s.write({ text: '她说想学游泳', kind: 'plan', at: '2026-05-02T09:00:00' }, { by: 'model' })
  const other = await s.write({ text: '没理由的一条', at: '2026-05-02T10:00:00' }, { by: 'model' })
  const before = await fs.readFile(join(t.root, p.file), 'utf8')
  const r = await recheckPending(s, { scope: 'month', by: 'model', amend: (e) => (e.id === p.id ? { axis: '体', reason: '身体的愿望' } : undefined) })
  expect(r.promoted).toHaveLength(1)
  expect(r.stillPending).toEqual([expect.objectContaining({ id: other.id, fails: 1 })])
  expect(await fs.readFile(join(t.root, p.file), 'utf8')).toBe(before)
  const promoted = await s.get(r.promoted[0]!.id)
  expect(promoted).toMatchObject({
    area: 'day',
    text: '她说想学游泳',
    file: '岁月涟漪/日档/2026/05/2026-05-02.md',
    meta: { gate: 'promoted', axis: '体', src: 'margin', source_ref: `余页/待定/2026-05-02.md#${p.id}` },
  })
  expect(promoted!.meta.pending_reasons).toBeUndefined()
  // a second check does not promote it twice
  const again = await recheckPending(s, { scope: 'year', by: 'model', amend: () => ({ axis: '体', reason: 'r' }) })
  expect(again.skipped).toContainEqual({ id: p.id, why: 'already promoted' })
  expect((await checkStore(s)).errors).toEqual([])
})

it('three runs in one month count one failed month: nothing is tombstoned', async () => {
  let now = new Date('2026-05-03T12:00:00')
  const c = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
  await c.write({ text: '模糊的一句' }, { by: 'model' })
  for (let i = 0; i < 3; i++) {
    now = new Date(`2026-05-0${4 + i}T12:00:00`)
    const r = await recheckPending(c, { scope: 'month', by: 'model' })
    expect(r.tombstoned).toEqual([])
  }
  expect((await listPending(c))[0]!.record).toMatchObject({ fails: 1, last_period: 'month:2026-05' })
})

it('keeps failing three months in a row → tombstone (a record, the text stays); a person restores it', async () => {
  let now = new Date('2026-05-03T12:00:00')
  s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
  const p = await s.write({ text: '模糊的一句' }, { by: 'model' })
  for (const month of ['06', '07']) {
    now = new Date(`2026-${month}-01T12:00:00`)
    expect((await recheckPending(s, { scope: 'month', by: 'model' })).tombstoned).toEqual([])
  }
  now = new Date('2026-08-01T12:00:00')
  expect((await recheckPending(s, { scope: 'month', by: 'model' })).tombstoned).toEqual([{ id: p.id, why: 'failed 3 month checks in a row' }])
  const [pending] = await listPending(s)
  expect(pending!.record.tombstoned_at).toBeDefined()
  expect((await s.get(p.id))!.text).toBe('模糊的一句')
  await expect(restoreTombstone(s, p.id, { by: 'model' })).rejects.toThrow(/only the person/)
  await restoreTombstone(s, p.id, { by: 'person' })
  expect((await listPending(s))[0]!.record).toEqual({ fails: 0 })
})

it('a year check tombstones entries that are out of date', async () => {
  await s.write({ text: '很久以前', at: '2020-01-01T00:00:00Z' }, { by: 'model' })
  const r = await recheckPending(s, { scope: 'year', by: 'model' })
  expect(r.tombstoned[0]!.why).toMatch(/out of date/)
})

it('a model amendment cannot smuggle base: true', async () => {
  await s.write({ text: 'x' }, { by: 'model' })
  const r = await recheckPending(s, { scope: 'month', by: 'model', amend: () => ({ axis: '德', reason: 'r', base: true }) })
  expect(r.promoted).toEqual([])
  expect(r.stillPending[0]!.reasons[0]).toMatch(/amendment refused/)
})

it('refuses to run on an invalid 元/待定复检.json, changing nothing', async () => {
  await s.write({ text: 'x' }, { by: 'model' })
  await fs.writeFile(join(t.root, '元', '待定复检.json'), '{oops')
  await expect(recheckPending(s, { scope: 'month', by: 'model' })).rejects.toThrow(/not valid JSON/)
  expect(await fs.readFile(join(t.root, '元', '待定复检.json'), 'utf8')).toBe('{oops')
  expect((await checkStore(s)).errors.map((e) => e.code)).toContain('meta-json')
})
