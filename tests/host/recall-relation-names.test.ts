import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bootHost, type Host } from '../harness/host.ts'
import { cyreneOk, hitBlock } from '../harness/hits.ts'

// Who the person's people are (decision 058), end to end on a real host: one memory says who
// 阿哲 is (男朋友阿哲), another names only 阿哲; a question that says 我对象 — no word of it in
// the second memory — brings that memory into the hit block the model receives, in Chinese and in
// English (my manager → Rachel). Written through the person's own command, as a person would.

const write = async (host: Host, text: string, at: string, reason: string) =>
  await cyreneOk(host, 'memory', 'write', text, '--kind', 'fact', '--axis', '德', '--reason', reason, '--at', at)

let host: Host
beforeAll(async () => {
  host = await bootHost()
  await host.ctx.get('cyreneMemory').ready
  await host.recallReady()
  // Older than {{cyrene_memory}}'s recent days: only recall can bring them to the model.
  await write(host, '男朋友阿哲是做摄影的，工作室在西溪', '2020-03-01T10:00:00+08:00', '认识的人')
  await write(host, '阿哲接了一个婚纱摄影的大单，要连拍三个周末', '2020-04-11T10:00:00+08:00', '近况')
  await write(host, 'My manager at work is called Rachel.', '2020-05-02T10:00:00+08:00', 'people')
  await write(host, 'Rachel moved the launch to the first week of June.', '2020-05-20T10:00:00+08:00', 'work')
})
afterAll(async () => {
  await host?.dispose()
})

describe('a relation word finds the memories that only use the name', () => {
  it('我对象最近忙啥呢: the hit block holds the memory that names only 阿哲', async () => {
    host.llm.script = () => ({ text: '他在忙婚纱照的单子。' })
    const chat = await host.createAgent('chat')
    await host.turn(chat, '我对象最近忙啥呢')
    expect(hitBlock(host, '我对象最近忙啥呢')).toContain('婚纱摄影的大单')
  })

  it('What did my boss decide?: the block holds the memory that names only Rachel', async () => {
    host.llm.script = () => ({ text: 'The first week of June.' })
    const chat = await host.createAgent('chat')
    await host.turn(chat, 'What did my boss decide?')
    expect(hitBlock(host, 'What did my boss decide')).toContain('moved the launch')
  })

  it('someone else’s boyfriend is not the person’s own: 苏苏的男朋友 ties nothing', async () => {
    await write(host, '闺蜜苏苏的男朋友叫大伟，是个消防员', '2020-06-01T10:00:00+08:00', '朋友')
    await write(host, '大伟升了中队长', '2020-06-09T10:00:00+08:00', '小事')
    host.llm.script = () => ({ text: '嗯。' })
    const chat = await host.createAgent('chat')
    await host.turn(chat, '我男朋友的工作顺利吗')
    const block = hitBlock(host, '我男朋友的工作顺利吗') ?? ''
    expect(block).toContain('婚纱摄影的大单')
    expect(block).not.toContain('中队长')
  })
})
