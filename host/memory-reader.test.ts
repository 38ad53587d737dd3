import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MemoryStore, writeAnchor } from '../memory/index.ts'
import { tempHome } from '../memory/testing/tmp.ts'
import { framed } from '../prompt/index.ts'
import { MEMORY_TITLE } from './memory-block.ts'
import { MemoryReader } from './memory-reader.ts'
import { hostServiceLines } from './doctor-service.ts'
import { NEWEST_OF_A_DAY } from '../memory/index.ts'
import { localDate } from '../memory/paths.ts'

describe('MemoryReader', () => {
  let t: Awaited<ReturnType<typeof tempHome>>
  beforeEach(async () => {
    t = await tempHome()
  })
  afterEach(async () => {
    await t.cleanup()
  })

  it('{{cyrene_memory}} with its frame and closing marker stays within the budget (issue 7 item 8)', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await writeAnchor(store, 'self', { text: '我'.repeat(700), mode: 'core' }, { by: 'person' })
    for (let i = 0; i < 30; i++) await store.write({ text: `第${i}件事：${'记'.repeat(60)}`, kind: 'fact', axis: '智', reason: '测试' }, { by: 'person' })
    for (const budget of [200, 600, 1200]) {
      const block = new MemoryReader(t.root, 3, budget).read()
      expect(block.cut).toBeGreaterThan(0)
      expect([...framed(MEMORY_TITLE, block.text)].length).toBeLessThanOrEqual(budget)
    }
    await store.close()
  })

  it('a burst of Cyrene’s writes today does not push out what the person wrote (decision 286)', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const mine = await store.write(
      { text: '妈妈下周三生日，要记得提前订好她最喜欢的那家老店的栗子蛋糕，再写一张卡片。', kind: 'plan', axis: '德', reason: '家人' },
      { by: 'person' },
    )
    for (let i = 0; i < 30; i++)
      await store.write({ text: `昔涟记下的第${i}件小事：${'细'.repeat(40)}`, kind: 'fact', axis: '智', reason: '测试' }, { by: 'model' })
    const reader = new MemoryReader(t.root, 3, 1200)
    expect(reader.read().ids).toContain(mine.id)
    await store.close()
  })

  it('a day of more entries than the block chooses from is read from its newest, and the doctor says so', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const first = await store.write({ text: '这一天的第一条', kind: 'fact', axis: '智', reason: '测试' }, { by: 'model' })
    await store.appendEntries(
      first.file,
      Array.from({ length: NEWEST_OF_A_DAY }, (_, i) => ({
        text: `第${i}条`,
        meta: { id: `bulk-${String(i).padStart(5, '0')}`, kind: 'fact', by: 'model' as const },
      })),
    )
    const reader = new MemoryReader(t.root, 3, 1200)
    const block = reader.read()
    expect(block.ids).toContain(`bulk-${String(NEWEST_OF_A_DAY - 1).padStart(5, '0')}`)
    const today = localDate(new Date())
    expect(reader.lastRead().newestOnly).toEqual([today])
    const state = {
      startedAt: new Date(),
      engine: { kind: 'ready' as const, root: t.root, problems: [] },
      memoryBlock: { chars: 0, budget: 1200, cut: 0, refreshError: undefined, newestOnly: reader.lastRead().newestOnly },
      recall: { index: { kind: 'off' as const }, error: undefined, silence: undefined },
    }
    const line = hostServiceLines(state as Parameters<typeof hostServiceLines>[0], 'en').find((l) => l.detail.includes(today))
    expect(line?.detail).toContain(`the newest ${NEWEST_OF_A_DAY.toLocaleString('en')}`)
    await store.close()
  })
})
