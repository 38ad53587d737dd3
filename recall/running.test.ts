import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { doctorLines } from './doctor.ts'
import { RunningRecall, type RecallDoctorState } from './running.ts'
import { MemoryStore } from '../memory/index.ts'
import { tempHome } from '../memory/testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
const running: RunningRecall[] = []
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  for (const r of running.splice(0)) await r.close()
  await t.cleanup()
})

const NOW = Date.parse('2026-03-02T12:00:00+08:00')
const fact = (text: string) => ({ text, kind: 'fact', axis: '智', reason: '事实', at: '2026-03-01T10:00:00+08:00' })

describe('RunningRecall: the recall of one engine, as the host service holds it', () => {
  it('answers nothing before it starts and while it builds, then from its index; says why a search was silent until one finds something', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await store.write(fact('喜欢乌龙茶，不加糖。'), { by: 'person' })
    const recall = new RunningRecall()
    running.push(recall)
    expect(recall.starting).toBe(true)
    expect(await recall.recall('乌龙茶', 5, NOW)).toEqual([])
    expect(recall.doctorState()).toEqual({ index: { kind: 'off' }, error: undefined, silence: undefined })

    recall.start(store.root)
    expect(recall.doctorState().index.kind).toBe('building')
    await recall.ready
    expect(recall.starting).toBe(false)
    const state = recall.doctorState()
    expect(state.index).toMatchObject({ kind: 'ready', where: 'worker', counts: { entries: 1 } })

    expect((await recall.recall('乌龙茶', 5, NOW)).map((h) => h.text)).toEqual(['喜欢乌龙茶，不加糖。'])
    expect(recall.doctorState().silence).toBeUndefined()
    // Here the worker has both the dictionary and the word lists (or WordNet): nothing is lacking.
    expect(recall.doctorState().index).not.toHaveProperty('lacks')
    expect(await recall.recall('Caroline Paris', 5, NOW)).toEqual([])
    expect(recall.doctorState().silence).toMatchObject({ reason: 'no-match' })
    await recall.recall('乌龙茶', 5, NOW)
    expect(recall.doctorState().silence).toBeUndefined()
  })

  it('levels its count with the store for the doctor', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const recall = new RunningRecall()
    running.push(recall)
    recall.start(store.root)
    await recall.ready
    expect(recall.doctorState().index).toMatchObject({ counts: { entries: 0 } })
    await store.write(fact('周末去爬了北高峰。'), { by: 'person' })
    // The watcher may not have seen the new folders yet; a level that looks at every file is what the doctor asks for.
    for (let i = 0; i < 100 && (recall.doctorState().index as { counts?: { entries: number } }).counts?.entries !== 1; i++) {
      await recall.level()
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(recall.doctorState().index).toMatchObject({ counts: { entries: 1 } })
  })

  it('after close a search answers nothing at once, and the doctor says there is no index', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await store.write(fact('喜欢乌龙茶，不加糖。'), { by: 'person' })
    const recall = new RunningRecall()
    recall.start(store.root)
    await recall.ready
    await recall.close()
    expect(await recall.recall('乌龙茶', 5, NOW)).toEqual([])
    expect(recall.doctorState()).toEqual({ index: { kind: 'off' }, error: undefined, silence: undefined })
  })
})

describe('the doctor line of recall', () => {
  const ready = (extra: Partial<Extract<RecallDoctorState['index'], { kind: 'ready' }>> = {}): RecallDoctorState => ({
    index: { kind: 'ready', where: 'worker', counts: { entries: 7, day: 6, pending: 1, anchors: 4, dreams: 2, rollups: 1 }, ...extra },
    error: undefined,
    silence: undefined,
  })

  it("is ok with the counts in a worker, a warning in DSH's thread or with a failed watcher, and names a silent turn in the person's language", () => {
    expect(doctorLines(ready(), 'en')).toEqual([expect.objectContaining({ status: 'ok', summary: 'all 7 entries can be found' })])
    expect(doctorLines(ready({ where: 'in-process' }), 'en')[0]!.status).toBe('warn')
    const watch = doctorLines(ready({ watch: 'file watching failed (ENOSPC)' }), 'en')[0]!
    expect(watch.status).toBe('warn')
    expect(watch.detail).toContain('file watching failed (ENOSPC)')
    const silent = { ...ready(), silence: { reason: 'no-match' as const, text: 'no memory shares a word with the message' } }
    expect(doctorLines(silent, 'en')[0]!.detail).toContain('the latest turn recalled nothing')
    expect(doctorLines(silent, 'zh')[0]!.detail).not.toContain('the latest turn')
  })

  it('warns, in both languages, when recall goes without its dictionary or its word lists, and says what to do', () => {
    const en = doctorLines(ready({ lacks: ['translation', 'word-kinds'] }), 'en')[0]!
    expect(en.status).toBe('warn')
    expect(en.detail).toContain('the translation dictionary could not be read')
    expect(en.detail).toContain('word lists could not be read')
    expect(en.detail).toContain('Reinstall the plugin')
    const zh = doctorLines(ready({ lacks: ['translation'] }), 'zh')[0]!
    expect(zh.status).toBe('warn')
    expect(zh.detail).toContain('中英文词典没能读出')
    expect(zh.detail).not.toContain('词表')
  })

  it('says a search failed, before anything else', () => {
    const failed = { ...ready(), error: 'the recall worker stopped (exit 1)' }
    expect(doctorLines(failed, 'en')).toEqual([
      expect.objectContaining({ status: 'warn', detail: expect.stringContaining('the last search failed (the recall worker stopped (exit 1))') }),
    ])
  })

  it('says what to do when there is no index, while it builds, and when it could not be built', () => {
    const line = (index: RecallDoctorState['index']) => doctorLines({ index, error: undefined, silence: undefined }, 'en')[0]!
    expect(line({ kind: 'off' }).status).toBe('missing')
    expect(line({ kind: 'building' })).toMatchObject({ status: 'warn', detail: expect.stringContaining('Look again') })
    expect(line({ kind: 'failed', detail: 'EACCES' })).toMatchObject({ status: 'fail', detail: expect.stringContaining('cyrene memory reindex') })
  })
})
