import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bootHost, type Host } from '../harness/host.ts'

/**
 * What a step reads once per assembly (docs/decisions/054): `{{cyrene_memory}}`'s files and
 * 元/settings.json are looked at once for each assembly and shared by the variables, the rails
 * and the pass. Kept per assembly, never across: a file the person edits between two steps is
 * in the very next one, and a broken one leaves the step going on without it.
 */
const store = (host: Host, ...parts: string[]) => join(host.dshHome, 'cyrene-philia093-0', ...parts)

let host: Host
beforeAll(async () => {
  host = await bootHost()
  await host.ctx.get('cyreneMemory').ready
})
afterAll(async () => {
  await host?.dispose()
})

describe('what one assembly reads once, read again by the next', () => {
  it('a nickname edited by hand in 元/settings.json between two steps: the variable and rail 120 both show the new one', async () => {
    const agent = await host.createAgent('chat')
    mkdirSync(store(host, '元'), { recursive: true })
    writeFileSync(store(host, '元', 'settings.json'), JSON.stringify({ nickname: '阿一' }))
    const first = await host.assemble(agent)
    expect(first.system).toContain('陪在阿一身边')
    expect(first.context).toContain('称呼对方「阿一」。')
    writeFileSync(store(host, '元', 'settings.json'), JSON.stringify({ nickname: '小满儿' }))
    const second = await host.assemble(agent)
    expect(second.system).toContain('陪在小满儿身边')
    expect(second.context).toContain('称呼对方「小满儿」。')
    expect(second.context).not.toContain('阿一')
    // Broken between steps: the step goes on with the row's default name.
    writeFileSync(store(host, '元', 'settings.json'), '{ "nickname": ')
    const third = await host.assemble(agent)
    expect(third.system).toContain('陪在伙伴身边')
    expect(third.context).toContain('称呼对方「伙伴」。')
    writeFileSync(store(host, '元', 'settings.json'), '{}')
  })

  it('a whale-persona userName edited between two steps: one reading per assembly, the next step reads the new file', async () => {
    const agent = await host.createAgent('chat')
    mkdirSync(join(host.dshHome, 'whale-persona'), { recursive: true })
    const config = join(host.dshHome, 'whale-persona', 'config.json')
    writeFileSync(config, JSON.stringify({ persona: { userName: '林小满' } }))
    const first = await host.assemble(agent)
    expect(first.context).toContain('称呼对方「林小满」。')
    writeFileSync(config, JSON.stringify({ persona: { userName: '陈怡君' } }))
    const second = await host.assemble(agent)
    expect(second.context).toContain('称呼对方「陈怡君」。')
    expect(second.context).not.toContain('林小满')
    writeFileSync(config, '{}')
  })

  it('an anchor edited by hand between two steps is in the next step’s {{cyrene_memory}}, once, and its hits leave out what the block shows', async () => {
    await host.recallReady()
    mkdirSync(store(host, '锚'), { recursive: true })
    writeFileSync(store(host, '锚', '你是谁.md'), '你是阿远，写小说的人。\n')
    const agent = await host.createAgent('chat')
    const first = await host.assemble(agent)
    expect(first.system).toContain('【你是谁】你是阿远，写小说的人。')
    writeFileSync(store(host, '锚', '你是谁.md'), '你是阿远，现在改写剧本了。\n')
    const second = await host.assemble(agent)
    expect(second.system).toContain('【你是谁】你是阿远，现在改写剧本了。')
    expect(second.system).not.toContain('写小说的人')
    // In a real step the pass and the hits see the block the variable showed: an anchor it shows is no hit again.
    host.llm.script = () => ({ text: '记得。' })
    await host.turn(agent, '阿远现在写什么？剧本')
    const request = host.llm.requests.findLast((r) => !r.system.startsWith('Create a concise title') && JSON.stringify(r.messages).includes('阿远现在写什么'))!
    expect(request.system.split('现在改写剧本了').length - 1).toBe(1)
    expect(JSON.stringify(request.messages)).not.toContain('现在改写剧本了')
  })
})
