import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ROOT_NAME } from '../../memory/paths.ts'
import { bootHost, type Host } from '../harness/host.ts'
import { cyreneOk } from '../harness/hits.ts'

/**
 * One index for every reader (issue 20, decision 030): the person's `cyrene memory search`
 * and `recall`, `/memory <words>` in a chat and the model's `memory_search` rank the same
 * documents the same way — entries, anchors and dream journals alike — and a journal of a
 * night that dreamt nothing is no document.
 */
async function guardSettled(host: Host): Promise<void> {
  const guard = host.ctx.get('cyreneStoreGuard') as { effects: { whenSettled(): Promise<void> } }
  await guard.effects.whenSettled()
}

const QUESTION = '我们一起喝茶是什么时候'
// Older than {{cyrene_memory}}'s recent days, so the turn's block leaves none of them out as already shown.
const ENTRIES: [string, string][] = [
  ['最爱的茶是大红袍，不加糖。', '2019-05-01T10:00:00+08:00'],
  ['下午和妈妈在西湖边一起喝龙井茶，聊了很久。', '2019-06-01T10:00:00+08:00'],
  ['周末去爬山，带了一壶热茶，山顶风很大。', '2019-07-01T10:00:00+08:00'],
  ['第一次一起喝茶是在大学门口的小茶馆。', '2019-08-01T10:00:00+08:00'],
  ['搬家以后阳台上种了薄荷。', '2019-09-01T10:00:00+08:00'],
]

let host: Host
let home: string
beforeAll(async () => {
  host = await bootHost({
    prepareHome: (dshHome) => {
      home = dshHome
      // Two journals as the night writes them: one with a dream, one of a night that dreamt nothing.
      const dreams = join(dshHome, ROOT_NAME, '梦境', '2019', '07')
      mkdirSync(dreams, { recursive: true, mode: 0o700 })
      writeFileSync(join(dreams, '2019-07-02.md'), '# 梦志 2019-07-02\n\n## 23:30 · 夜梦\n\n梦里我们在山顶一起喝茶，茶很淡，风很轻。\n', { mode: 0o600 })
      writeFileSync(join(dreams, '2019-07-03.md'), '# 梦志 2019-07-03\n\n## 23:30 · 夜梦\n\n本次未产出\n', { mode: 0o600 })
    },
  })
  await host.ctx.get('cyreneMemory').ready
  for (const [text, at] of ENTRIES) await cyreneOk(host, 'memory', 'write', text, '--kind', 'fact', '--axis', '美', '--reason', '一起喝茶的事', '--at', at)
  await host.recallReady()
})
afterAll(async () => {
  await host?.dispose()
})

describe('one recall index for every reader', () => {
  it('cyrene memory search, cyrene memory recall, /memory <words> and memory_search give the same ranking', async () => {
    expect(host.dshHome).toBe(home)
    const search = (JSON.parse(await cyreneOk(host, 'memory', 'search', QUESTION, '--limit', '8', '--json')) as { id: string; area: string }[]).map((h) => h.id)
    const recall = (
      JSON.parse(await cyreneOk(host, 'memory', 'recall', QUESTION, '--k', '8', '--budget', '100000', '--json')) as { hits: { id: string }[] }
    ).hits.map((h) => h.id)
    const chat = await host.createAgent('chat')
    const command = await host.command(chat, `/memory ${QUESTION}`)
    const slash = [...String(command?.text).matchAll(/（([^（）\n]+)）$/gm)].map((m) => m[1])
    const tool = await host.tool(chat, 'memory_search', { query: QUESTION, limit: 8 })
    expect(tool.isError, JSON.stringify(tool.content)).toBe(false)
    const model = (tool.value as { hits: { id: string }[] }).hits.map((h) => h.id)

    // The ranking holds more than day entries: the dream journal is one of the hits, the empty one never.
    expect(search).toContain('dream:2019-07-02')
    expect(search).not.toContain('dream:2019-07-03')
    expect(search.length).toBeGreaterThanOrEqual(4)
    expect(recall).toEqual(search)
    expect(slash).toEqual(search)
    expect(model).toEqual(search)
  })

  it('a journal that holds no dream is not indexed, whatever the question', async () => {
    for (const q of ['本次未产出', '这次梦里产出了什么']) {
      const ids = (JSON.parse(await cyreneOk(host, 'memory', 'search', q, '--json')) as { id: string }[]).map((h) => h.id)
      expect(ids).not.toContain('dream:2019-07-03')
    }
  })

  it("the doctor's count of entries is the store's, also right after a write", async () => {
    // The person writes after the model's memory_search is over. In this in-process host the command line is a child of
    // the host's own process, so while the guard still watches that call's window it would take the write for the model's.
    await guardSettled(host)
    await cyreneOk(
      host,
      'memory',
      'write',
      '晚上想喝一杯热牛奶。',
      '--kind',
      'preference',
      '--axis',
      '体',
      '--reason',
      '睡前习惯',
      '--at',
      '2019-10-01T10:00:00+08:00',
    )
    const doctor = await host.command(await host.createAgent('chat'), '/cyrene doctor --verbose')
    const stored = (await host.ctx.get('cyreneMemory').store().scan()).entries.length
    expect(stored).toBe(ENTRIES.length + 1)
    // The harness's DSH speaks Chinese (settings.yaml locale zh): the recall check under --verbose.
    expect(doctor?.text).toContain(`✓ 回忆索引：索引了 ${stored} 条记忆，另有锚点 0 个、梦志 1 篇、汇总 0 份`)
  })
})
