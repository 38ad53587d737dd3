import { spawn } from 'node:child_process'
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startLiveRecall, type LiveRecall } from './live.ts'
import { RecallWatch } from './watch.ts'
import { MemoryStore } from '../memory/index.ts'
import { tempHome } from '../memory/testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
const opened: { close(): Promise<void> }[] = []
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  for (const o of opened.splice(0)) await o.close()
  await t.cleanup()
})

const open = () => MemoryStore.open({ env: { DSH_HOME: t.home } })
const fact = (text: string, at: string) => ({ text, kind: 'fact', axis: '智', reason: '事实', at })

async function settled(live: LiveRecall, query: string): Promise<Awaited<ReturnType<LiveRecall['recall']>>> {
  // The first answer sweeps everything (every folder is new to the watcher); wait until it vouches for its list.
  for (let i = 0; i < 200; i++) {
    const answer = await live.recall(query, 5)
    if (answer.swept === undefined) return answer
    await new Promise((r) => setTimeout(r, 10))
  }
  throw new Error('the watcher never became ready')
}

describe.each([true, false])('live recall (worker: %s)', (worker) => {
  it('answers from its own index, and a write made after it started is found by reading only that file', async () => {
    const store = await open()
    const tea = await store.write(fact('喜欢乌龙茶，不加糖。', '2026-03-01T10:00:00+08:00'), { by: 'person' })
    const live = startLiveRecall(store.root, { worker })
    opened.push(live)
    expect(live.where).toBe(worker ? 'worker' : 'in-process')
    expect(await live.ready).toMatchObject({ size: 1 })
    expect((await settled(live, '乌龙茶')).hits.map((h) => h.id)).toEqual([tea.id])

    const city = await store.write(fact('搬到了上海。', '2026-03-02T10:00:00+08:00'), { by: 'person' })
    const answer = await live.recall('上海', 5)
    expect(answer.hits.map((h) => h.id)).toEqual([city.id])
    // O(changes): the one file written was read again, and nothing else was looked at.
    expect(answer).toMatchObject({ reread: 1, size: 2 })
    expect(answer.swept).toBeUndefined()
    expect(await live.recall('上海', 5)).toMatchObject({ reread: 0 })
  })

  it('a second start uses the cache the first one saved: the worker hands its seal to this thread, which keeps it', async () => {
    const store = await open()
    await store.write(fact('喜欢乌龙茶，不加糖。', '2026-03-01T10:00:00+08:00'), { by: 'person' })
    const first = startLiveRecall(store.root, { worker })
    opened.push(first)
    expect((await first.ready).cache).not.toBe('used')
    await first.close()
    const second = startLiveRecall(store.root, { worker })
    opened.push(second)
    // In-process the host keeps no cache at all (docs/decisions/031), so it builds again.
    expect((await second.ready).cache).toBe(worker ? 'used' : 'missing')
  })

  it('says why it found nothing, from the worker as in-process (the doctor shows it)', async () => {
    const store = await open()
    await store.write(fact('喜欢乌龙茶，不加糖。', '2026-03-01T10:00:00+08:00'), { by: 'person' })
    const live = startLiveRecall(store.root, { worker })
    opened.push(live)
    await live.ready
    const answer = await live.recall('潜水执照', 5)
    expect(answer.hits).toEqual([])
    expect(answer.silence).toMatchObject({ reason: 'no-match' })
    expect((await live.recall('乌龙茶', 5)).silence).toBeUndefined()
  })
})

describe('RecallWatch', () => {
  it('names the files written, and asks for a full look after the folders were switched under it', async () => {
    const store = await open()
    const watch = RecallWatch.start(store.root)
    opened.push(watch)
    for (let i = 0; i < 200 && (await watch.take()).all; i++) await new Promise((r) => setTimeout(r, 10))
    const tea = await store.write(fact('喜欢乌龙茶。', '2026-03-01T10:00:00+08:00'), { by: 'person' })
    // A new month folder appeared: its files may predate the watch, so everything is looked at once.
    const first = await watch.take()
    expect(first.rels).toContain(tea.file)
    expect(first.all).toBe(true)
    await new Promise((r) => setTimeout(r, 100))
    const again = await store.write(fact('还是喜欢乌龙茶。', '2026-03-01T11:00:00+08:00'), { by: 'person' })
    await new Promise((r) => setTimeout(r, 50))
    const second = await watch.take()
    expect(second).toMatchObject({ all: false, rels: [again.file] })
    expect(await watch.take()).toEqual({ all: false, rels: [] })

    // A restore switches folders by rename: the watch follows the old ones, so it must notice.
    renameSync(store.path('岁月涟漪/日档'), store.path('岁月涟漪/日档.old'))
    await (await open()).write(fact('新的根。', '2026-03-05T10:00:00+08:00'), { by: 'person' })
    expect((await watch.take()).all).toBe(true)
  })
})

describe('RecallWatch and folders that appear', () => {
  it('a month folder made just after its year folder is watched: every later write there is named', async () => {
    // A watcher that lists a new folder before watching it misses a month folder made in between,
    // and with it every later write there (the first write of a store or of a year).
    const store = await open()
    const watch = RecallWatch.start(store.root)
    opened.push(watch)
    while ((await watch.take()).all) await new Promise((r) => setImmediate(r))
    const missed: string[] = []
    for (let year = 2030; year < 2050; year++) {
      mkdirSync(store.path(`岁月涟漪/日档/${year}`))
      await watch.take()
      const first = await store.write(fact(`第 ${year} 年的第一条。`, `${year}-05-01T10:00:00+08:00`), { by: 'person' })
      const made = await watch.take()
      if (!made.all && !made.rels.includes(first.file)) missed.push(`${first.file} (first)`)
      const second = await store.write(fact(`第 ${year} 年的第二条。`, `${year}-05-01T11:00:00+08:00`), { by: 'person' })
      const next = await watch.take()
      if (!next.all && !next.rels.includes(second.file)) missed.push(`${second.file} (second)`)
      const third = await store.write(fact(`第 ${year} 年的第三条。`, `${year}-05-01T12:00:00+08:00`), { by: 'person' })
      // Once the new folders are watched, a write there is named and nothing more is looked at.
      const settled = await watch.take()
      if (settled.all || !settled.rels.includes(third.file)) missed.push(`${third.file} (third: ${JSON.stringify(settled)})`)
    }
    expect(missed).toEqual([])
  })

  it('a folder removed and made again, and a recall folder moved away and back, are watched again', async () => {
    const store = await open()
    const watch = RecallWatch.start(store.root)
    opened.push(watch)
    const a = await store.write(fact('第一条。', '2031-05-01T10:00:00+08:00'), { by: 'person' })
    while ((await watch.take()).all) await new Promise((r) => setImmediate(r))
    rmSync(store.path('岁月涟漪/日档/2031'), { recursive: true })
    expect((await watch.take()).all).toBe(true)
    const b = await store.write(fact('第二条。', '2031-05-01T11:00:00+08:00'), { by: 'person' })
    expect(b.file).toBe(a.file)
    await watch.take()
    const c = await store.write(fact('第三条。', '2031-05-01T12:00:00+08:00'), { by: 'person' })
    expect(await watch.take()).toEqual({ all: false, rels: [c.file] })

    renameSync(store.path('锚'), store.path('锚.away'))
    expect((await watch.take()).all).toBe(true)
    renameSync(store.path('锚.away'), store.path('锚'))
    await watch.take()
    writeFileSync(store.path('锚/你是谁.md'), '# 你是谁\n\n朋友。\n')
    expect(await watch.take()).toEqual({ all: false, rels: ['锚/你是谁.md'] })
  })
})

describe('the recall worker never keeps a process alive', () => {
  it('a process that starts recall in a worker, asks once and never closes it still ends by itself', async () => {
    const store = await open()
    await store.write(fact('对方的猫叫年糕。', '2026-03-01'), { by: 'person' })
    await store.close()
    const script = `
      import { startLiveRecall } from ${JSON.stringify(new URL('./live.ts', import.meta.url).href)}
      const live = startLiveRecall(${JSON.stringify(store.root)}, { worker: true })
      const answer = await live.recall('年糕', 3)
      process.stdout.write(String(answer.hits.length))
    `
    // A file, not -e: a worker thread inherits the parent's execArgv, and --input-type would stop it.
    const file = join(t.home, 'keeps-alive.mts')
    writeFileSync(file, script)
    const child = spawn(process.execPath, [file], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d) => (out += d))
    child.stderr.on('data', (d) => (err += d))
    // A hang detector, not a speed check: a process the worker keeps alive never exits at all.
    const ended = await new Promise<number | null | 'hung'>((resolve) => {
      const hang = setTimeout(() => {
        child.kill('SIGKILL')
        resolve('hung')
      }, 60_000)
      child.once('exit', (code) => {
        clearTimeout(hang)
        resolve(code)
      })
    })
    expect(ended, err).toBe(0)
    expect(out).toBe('1')
  })
})

describe('a recall worker that is gone', () => {
  it('fails a later question at once instead of leaving it waiting for an answer that cannot come', async () => {
    const store = await open()
    await store.write(fact('喜欢乌龙茶，不加糖。', '2026-03-01T10:00:00+08:00'), { by: 'person' })
    const live = startLiveRecall(store.root, { worker: true })
    await live.ready
    await live.close()
    await expect(live.recall('乌龙茶', 5)).rejects.toThrow(/recall worker stopped/)
    await expect(live.level()).rejects.toThrow(/recall worker stopped/)
  })
})
