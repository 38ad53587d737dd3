import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bootHost, type Host } from '../harness/host.ts'
import { cyreneOk, hitBlock } from '../harness/hits.ts'

// Places within places (decision 121) and holidays as days (decision 122), end to end on a real
// host: the memories name 大阪, Kyoto and no holiday; the questions name 日本, Japan and 国庆. Only
// the shipped place table and the holiday's dates can join them. Written through the person's own
// command, as a person would.

const write = async (host: Host, text: string, at: string, reason: string) =>
  await cyreneOk(host, 'memory', 'write', text, '--kind', 'event', '--axis', '美', '--reason', reason, '--at', at)

// Last year's golden week, whatever day the suite runs: 去年国庆 always names it.
const lastYear = new Date().getFullYear() - 1

let host: Host
beforeAll(async () => {
  host = await bootHost()
  await host.ctx.get('cyreneMemory').ready
  await host.recallReady()
  // Older than {{cyrene_memory}}'s recent days: only recall can bring them to the model.
  await write(host, '在大阪吃到了这辈子最好吃的章鱼烧', '2020-07-10T10:00:00+08:00', '旅行')
  await write(host, 'Spent a whole day at Fushimi Inari in Kyoto, thousands of red gates.', '2020-07-12T10:00:00+08:00', 'travel')
  await write(host, '带爸妈去千岛湖住了两晚，鱼头很好吃', `${lastYear}-10-03T10:00:00+08:00`, '家人')
  await write(host, '五一带爸妈去莫干山住了两晚，竹林很好看', `${lastYear}-05-02T10:00:00+08:00`, '家人')
})
afterAll(async () => {
  await host?.dispose()
})

describe('a country finds the cities in it, and a holiday finds its days', () => {
  it('我去日本那次吃了啥？: the hit block holds the memory that names only 大阪', async () => {
    host.llm.script = () => ({ text: '大阪的章鱼烧！' })
    const chat = await host.createAgent('chat')
    await host.turn(chat, '我去日本那次吃了啥？')
    expect(hitBlock(host, '我去日本那次吃了啥')).toContain('章鱼烧')
  })

  it('What did I see in Japan?: the block holds the memory that names only Kyoto', async () => {
    host.llm.script = () => ({ text: 'Fushimi Inari.' })
    const chat = await host.createAgent('chat')
    await host.turn(chat, 'What did I see in Japan?')
    expect(hitBlock(host, 'What did I see in Japan')).toContain('Fushimi Inari')
  })

  it('去年国庆我们去哪玩了？: the golden-week trip is the first memory, though no memory names 国庆', async () => {
    host.llm.script = () => ({ text: '千岛湖。' })
    const chat = await host.createAgent('chat')
    await host.turn(chat, '去年国庆我们去哪玩了？')
    const entries = (hitBlock(host, '去年国庆我们去哪玩了') ?? '').split('\\n- ').slice(1)
    expect(entries[0]).toContain('千岛湖')
  })
})
