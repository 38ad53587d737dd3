import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bootHost, type Host } from '../harness/host.ts'
import { cyreneOk, hitBlock } from '../harness/hits.ts'

// Issue 20's first-hour case, on a fresh store: one memory, then a question that shares
// no pair of characters with it (我的猫叫什么 against 叫团子的橘猫) — only the
// one-character word 猫 — and, for a zh-TW person, the same in traditional characters.

let host: Host
beforeAll(async () => {
  host = await bootHost()
  await host.ctx.get('cyreneMemory').ready
  await host.recallReady()
})
afterAll(async () => {
  await host?.dispose()
})

describe('the first hour: a one-character word finds its memory', () => {
  it('我养了一只叫团子的橘猫, then 我的猫叫什么？: the hit block the model receives holds the cat', async () => {
    // Older than {{cyrene_memory}}'s recent days, so only recall can bring it (hits never repeat that block).
    await cyreneOk(host, 'memory', 'write', '我养了一只叫团子的橘猫', '--kind', 'fact', '--axis', '美', '--reason', '宠物', '--at', '2019-05-01T10:00:00+08:00')
    host.llm.script = () => ({ text: '叫团子呀。' })
    const chat = await host.createAgent('chat')
    await host.turn(chat, '今天好累。')
    await host.turn(chat, '我的猫叫什么？')
    expect(hitBlock(host, '我的猫叫什么')).toContain('我养了一只叫团子的橘猫')
  })

  it('a traditional-character question finds the simplified memory (貓 is 猫), and English finds it too', async () => {
    host.llm.script = () => ({ text: '團子。' })
    const chat = await host.createAgent('chat')
    await host.turn(chat, '我的貓叫什麼名字？')
    expect(hitBlock(host, '我的貓叫什麼名字')).toContain('团子')
    await host.turn(chat, "What is my cat's name?")
    expect(hitBlock(host, "What is my cat's name")).toContain('团子')
  })

  it('a question about nothing stored gets no block, and the doctor says why', async () => {
    host.llm.script = () => ({ text: '嗯。' })
    const chat = await host.createAgent('chat')
    await host.turn(chat, '我在德国留学的时候住在哪条街上？')
    expect(hitBlock(host, '我在德国留学的时候住在哪条街上')).toBeUndefined()
    // The harness's DSH speaks Chinese (settings.yaml locale zh): the recall check under --verbose.
    const doctor = await host.command(chat, '/cyrene doctor --verbose')
    expect(doctor?.text).toMatch(/回忆索引：.*；最近一轮什么也没想起：/)
  })
})
