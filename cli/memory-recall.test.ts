import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { main } from './main.ts'
import type { CliIO } from './io.ts'
import { tempHome } from '../memory/testing/tmp.ts'
import { MemoryStore } from '../memory/index.ts'
import { RecallKeeper } from '../recall/keeper.ts'
import { recallBlock } from '../rails/index.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

async function run(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const o = { out: '', err: '' }
  const io: CliIO = {
    stdout: (s) => void (o.out += s),
    stderr: (s) => void (o.err += s),
    // The English words are checked here; the Chinese ones where the language is the point (below).
    env: { DSH_HOME: t.home, LANG: 'en_US.UTF-8' },
    cwd: t.home,
    readStdin: async () => stdin,
  }
  const code = await main(args, io)
  return { code, ...o }
}

const write = async (text: string, at: string, extra: string[] = []) =>
  JSON.parse((await run(['memory', 'write', text, '--kind', 'fact', '--axis', '美', '--reason', '测试', '--at', at, '--json', ...extra])).out) as {
    id: string
    resembles?: { id: string; similarity: number }
  }

interface RecallJson {
  hits: { id: string; text: string; source_ref: string | null; score: number; source: string; shown_in: 'block' | 'cyrene_memory' }[]
  chars: number
  silence?: { reason: string; text: string }
}
const recall = async (...args: string[]) => JSON.parse((await run(['memory', 'recall', ...args, '--json'])).out) as RecallJson

describe('cyrene memory recall', () => {
  it('prints exactly the block a turn injects: the same hits as the pre-step function, within the budget, source_ref as imported', async () => {
    const tea = await write('最爱的茶是大红袍，不加糖。', '2019-05-01T10:00:00+08:00')
    await write('周末常去西湖边散步。', '2019-06-01T10:00:00+08:00')
    const lines = `${JSON.stringify({ text: '第一次喝大红袍是在武夷山。', at: '2018-04-02', ref: 'diary:2018-04-02' })}\n`
    expect((await run(['memory', 'import', '--jsonl', '-', '--quiet'], lines)).code).toBe(0)

    const json = await recall('我最爱的茶是什么？大红袍')
    expect(json.hits.map((h) => h.id)).toContain(tea.id)
    const imported = json.hits.find((h) => h.text === '第一次喝大红袍是在武夷山。')
    expect(imported).toMatchObject({ source_ref: 'diary:2018-04-02', source: '2018-04-02' })
    expect(json.hits.find((h) => h.id === tea.id)).toMatchObject({
      source_ref: null,
      source: '2019-05-01',
      text: '最爱的茶是大红袍，不加糖。',
      shown_in: 'block',
    })
    expect(json.chars).toBeLessThanOrEqual(1000)

    // The one function the pre-step calls, on the same index, gives the same block.
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const keeper = await RecallKeeper.open(store.root)
    const block = recallBlock(await keeper.search('我最爱的茶是什么？大红袍', 8), 1000, 300)
    expect(json.hits.map((h) => h.id)).toEqual(block.hits.map((h) => h.id))
    expect(json.chars).toBe([...block.text].length)
    const human = await run(['memory', 'recall', '我最爱的茶是什么？大红袍'])
    expect(human.out.startsWith(block.text)).toBe(true)

    // --budget and --k bound it; nothing to say → an empty injection.
    const small = await recall('大红袍', '--budget', '80')
    expect(small.chars).toBeLessThanOrEqual(80)
    expect((await recall('大红袍', '--k', '1')).hits).toHaveLength(1)
    expect(await recall('大红袍', '--budget', '0')).toMatchObject({ hits: [], chars: 0, silence: { reason: 'left-out' } })
    expect((await run(['memory', 'recall', '大红袍', '--k', '0'])).code).toBe(2)
    expect((await run(['memory', 'recall', ' '])).code).toBe(2)
  })

  it('leaves out what {{cyrene_memory}} shows today and near-duplicates of a better hit; shows dreams and rollups with their source', async () => {
    const today = new Date()
    const old = await write('我喜欢乌龙茶', '2019-05-01T10:00:00+08:00')
    // Written today: {{cyrene_memory}} shows it, so the hits do not.
    const fresh = await write('乌龙茶要用九十度的水泡', today.toISOString())
    // A person's write is kept and told which entry it resembles.
    const again = await write('我很喜欢乌龙茶。', '2020-05-01T10:00:00+08:00')
    expect(again.resembles).toMatchObject({ id: old.id })
    const root = join(t.home, 'cyrene-philia093-0')
    const put = (rel: string, text: string) => {
      mkdirSync(dirname(join(root, rel)), { recursive: true })
      writeFileSync(join(root, rel), text)
    }
    put('梦境/2021/03/2021-03-04.md', '梦见一片乌龙茶园。')
    put('岁月涟漪/月响/2021/2021-04.md', '四月：试了很多种乌龙茶。')
    const json = await recall('乌龙茶')
    const ids = json.hits.filter((h) => h.shown_in === 'block').map((h) => h.id)
    expect(ids).not.toContain(fresh.id)
    // Still reported as found, and where the turn shows it.
    expect(json.hits.find((h) => h.id === fresh.id)).toMatchObject({
      shown_in: 'cyrene_memory',
      text: '乌龙茶要用九十度的水泡',
      source: today.toISOString().slice(0, 10),
    })
    expect(ids.filter((id) => id === old.id || id === again.id)).toHaveLength(1)
    expect(json.hits.find((h) => h.id === 'dream:2021-03-04')?.source).toBe('梦境 2021-03-04')
    expect(json.hits.find((h) => h.id === 'month:2021-04')?.source).toBe('月响 2021-04')
    const human = (await run(['memory', 'recall', '乌龙茶'])).out
    expect(human).toContain(`left out ${fresh.id}: {{cyrene_memory}} already shows it`)
    expect(human).toMatch(/left out \S+: a near-duplicate of a better hit/)
  })

  it('import keeps a line that resembles an entry and lists it as a likely duplicate', async () => {
    const kept = await write('我喜欢乌龙茶', '2019-05-01T10:00:00+08:00')
    const lines = [
      JSON.stringify({ text: '我很喜欢乌龙茶。', at: '2019-05-02' }),
      JSON.stringify({ text: '我不喜欢乌龙茶', at: '2019-05-03' }),
      JSON.stringify({ text: '周末去爬山', at: '2019-05-04' }),
      JSON.stringify({ text: '周末去爬山！', at: '2019-05-05' }),
    ].join('\n')
    const r = await run(['memory', 'import', '--jsonl', '-', '--json', '--quiet'], lines)
    const report = JSON.parse(r.out) as { imported: number; duplicates: { origin: string; resembles: string }[] }
    expect(report.imported).toBe(4)
    expect(report.duplicates.map((d) => d.origin)).toEqual(['-:1', '-:4'])
    expect(report.duplicates[0]!.resembles).toBe(kept.id)
    expect((await run(['memory', 'import', '--jsonl', '-', '--quiet'], JSON.stringify({ text: '我喜欢乌龙茶!', at: '2019-06-01' }))).out).toMatch(
      /likely duplicate -:1: \S+ resembles /,
    )
  })
})

describe('cyrene memory recall: why nothing', () => {
  it('says why nothing would be injected (--json `silence`, and in words)', async () => {
    await write('我养了一只叫团子的橘猫。', '2019-05-01T10:00:00+08:00')
    const foreign = JSON.parse((await run(['memory', 'recall', '我在德国留学的时候养过鹦鹉吗？', '--json'])).out) as RecallJson & {
      silence?: { reason: string; text: string }
    }
    expect(foreign.hits).toEqual([])
    expect(foreign.silence?.reason).toBe('low-coverage')
    const none = JSON.parse((await run(['memory', 'recall', 'Caroline Paris', '--json'])).out) as { silence?: { reason: string } }
    expect(none.silence?.reason).toBe('no-match')
    expect((await run(['memory', 'recall', 'Caroline Paris'])).out).toMatch(/nothing would be injected .*: no memory shares a word/)
    expect((await run(['memory', 'recall', 'Caroline Paris', '--lang', 'zh'])).out).toMatch(/^什么都不会带上（0\/[\d,]+ 字）：没有哪条记忆和这句话有相同的词/)
    expect((await run(['memory', 'recall', '我在德国留学的时候养过鹦鹉吗？', '--lang', 'zh'])).out).toMatch(
      /最相关的记忆只覆盖这句话所问的 \d+%，不到所需的 \d+%/,
    )
    const found = JSON.parse((await run(['memory', 'recall', '我的猫叫什么？', '--json'])).out) as RecallJson & { silence?: unknown }
    expect(found.hits[0]?.text).toContain('团子')
    expect(found.silence).toBeUndefined()
  })

  it('a memory written today is found and said to be in {{cyrene_memory}}, not reported as nothing found', async () => {
    const cat = await write('我养了一只叫团子的橘猫。', new Date().toISOString())
    await write('周末常去西湖边散步。', '2019-06-01T10:00:00+08:00')
    const json = await recall('我的猫叫什么？')
    expect(json.hits.map((h) => [h.id, h.shown_in])).toEqual([[cat.id, 'cyrene_memory']])
    // The block itself stays empty: the turn shows the cat once, in {{cyrene_memory}}.
    expect(json).toMatchObject({ chars: 0, silence: { reason: 'left-out' } })
    expect((await run(['memory', 'recall', '我的猫叫什么？'])).out).toContain(`left out ${cat.id}: {{cyrene_memory}} already shows it`)
  })
})
