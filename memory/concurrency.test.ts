import { afterEach, beforeEach, expect, it } from 'vitest'
import { MemoryStore } from './store.ts'
import { checkStore } from './check.ts'
import { importItems } from './importer.ts'
import { spawnWriter } from './testing/spawn.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

it('4 processes × 500 writes at once → exactly 2000 entries, no duplicates, store checks clean', async () => {
  const workers = [0, 1, 2, 3].map((n) => spawnWriter(t.home, 500, `w${n}`))
  const codes = await Promise.all(workers.map((w) => w.done))
  expect(codes, workers.map((w) => w.stderr()).join('\n')).toEqual([0, 0, 0, 0])
  const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  const { entries, problems } = await store.scan()
  expect(problems).toEqual([])
  expect(entries).toHaveLength(2000)
  expect(new Set(entries.map((e) => e.id)).size).toBe(2000)
  expect(new Set(entries.map((e) => e.text)).size).toBe(2000)
  const acked = new Map(workers.flatMap((w) => [...w.acks]))
  expect(acked.size).toBe(2000)
  for (const e of entries) expect(acked.get(e.id)).toBe(e.text)
  const report = await checkStore(store)
  expect(report.errors).toEqual([])
}, 240_000)

it('two imports of the same lines at once import each line once (the audit found every line twice)', async () => {
  const items = Array.from({ length: 60 }, (_, i) => ({
    text: `导入的第${i}条`,
    at: `2025-03-${String((i % 28) + 1).padStart(2, '0')}`,
    origin: `in.jsonl:${i + 1}`,
  }))
  const [a, b] = await Promise.all([MemoryStore.open({ env: { DSH_HOME: t.home } }), MemoryStore.open({ env: { DSH_HOME: t.home } })])
  // Both look at the store before either appends: what the lock must settle is the append.
  const reports = await Promise.all([importItems(a, items), importItems(b, items)])
  expect(reports[0]!.imported + reports[1]!.imported).toBe(60)
  expect(reports[0]!.already.length + reports[1]!.already.length).toBe(60)
  const { entries } = await a.scan()
  expect(entries).toHaveLength(60)
  expect(new Set(entries.map((e) => e.text)).size).toBe(60)
})
