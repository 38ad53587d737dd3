import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bootHost, type Host } from '../harness/host.ts'

/** memory_link and memory_margin on the real host, through the tools' own execute (issue 9 item 5). */
let host: Host
beforeAll(async () => {
  host = await bootHost()
  await host.ctx.get('cyreneMemory').ready
})
afterAll(async () => {
  await host?.dispose()
})

const store = () => host.ctx.get('cyreneMemory').store()
const person = (text: string, extra: Record<string, unknown> = {}) =>
  store().write({ text, kind: 'fact', axis: '美', reason: '生活细节', ...extra }, { by: 'person' }) as Promise<{ id: string; file: string }>
/** An entry of Cyrene's own (a fact passes the gate into the day file): the only kind a link may start from. */
const mine = (text: string) => store().write({ text, kind: 'fact', axis: '美', reason: '生活细节' }, { by: 'model' }) as Promise<{ id: string; file: string }>
const said = (r: { content: unknown }) => JSON.stringify(r.content)

describe('memory_link: typed links between existing entries, validated by the store', () => {
  it('adds "<to>|<type>" to the from entry; its text and other fields stay as they were', async () => {
    const a = await mine('下雨天对方总会泡一壶乌龙茶。')
    const b = await person('对方说乌龙茶让人安静。')
    const before = await store().get(a.id)
    const r = await host.tool(await host.createAgent('chat'), 'memory_link', { from: a.id, to: b.id, type: '因果' })
    expect(r.isError, said(r)).toBe(false)
    expect(r.value).toEqual({ from: a.id, link: `${b.id}|因果`, changed: true })
    const after = await store().get(a.id)
    expect(after.meta.links).toEqual([`${b.id}|因果`])
    expect(after.text).toBe(before.text)
    expect({ ...after.meta, links: undefined, edited_at: undefined }).toEqual({ ...before.meta, links: undefined, edited_at: undefined })
    // The same link again writes nothing; another type for the same pair replaces it.
    const again = await host.tool(await host.createAgent('chat'), 'memory_link', { from: a.id, to: b.id, type: '因果' })
    expect(again.value).toMatchObject({ changed: false })
    const retyped = await host.tool(await host.createAgent('cyrene-work'), 'memory_link', { from: a.id, to: b.id, type: '相似' })
    expect(retyped.value).toMatchObject({ changed: true, replaced: `${b.id}|因果` })
    expect((await store().get(a.id)).meta.links).toEqual([`${b.id}|相似`])
  })

  it('refuses what the contract closes, writing nothing: the person’s entry as from (base or not), a missing id, a bad type, a self link, a pending entry', async () => {
    const agent = await host.createAgent('chat')
    const base = await person('对方亲手写下的基石：我们是朋友。', { base: true })
    const persons = await person('对方说自己最喜欢秋天。')
    const plain = await mine('对方喜欢傍晚散步。')
    const pending = (await store().write({ text: '决定搬家。', kind: 'decision', axis: '智', reason: '大事' }, { by: 'model' })) as { id: string; gate: string }
    expect(pending.gate).toBe('pending')
    const file = join(store().root, base.file)
    const bytes = readFileSync(file, 'utf8')
    const refused = async (args: Record<string, unknown>, message: RegExp) => {
      const r = await host.tool(agent, 'memory_link', args)
      expect(r.isError, said(r)).toBe(true)
      expect(said(r)).toMatch(message)
    }
    await refused(
      { from: base.id, to: plain.id, type: '归属' },
      /is the person's \(written or imported by them\): only the person changes it\. Link from the other entry instead/,
    )
    await refused({ from: persons.id, to: plain.id, type: '相似' }, /is the person's \(written or imported by them\): only the person changes it/)
    await refused({ from: plain.id, to: 'no-such-id', type: '因果' }, /no entry with id \\+"no-such-id\\+" to link to/)
    await refused({ from: 'no-such-id', to: plain.id, type: '因果' }, /no entry with id \\+"no-such-id\\+"; find ids/)
    await refused({ from: plain.id, to: base.id, type: '喜欢' }, /type must be one of 因果 相似 对立 时序 归属 推断/)
    await refused({ from: plain.id, to: plain.id, type: '' }, /cannot link to itself/)
    await refused({ from: pending.id, to: plain.id, type: '因果' }, /never edited/)
    expect(readFileSync(file, 'utf8')).toBe(bytes)
    expect((await store().get(plain.id)).meta.links).toBeUndefined()
    expect((await store().get(persons.id)).meta.links).toBeUndefined()
    // Linking *to* a base entry is fine and leaves the base entry's file as it was.
    const ok = await host.tool(agent, 'memory_link', { from: plain.id, to: base.id, type: '' })
    expect(ok.isError, said(ok)).toBe(false)
    expect((await store().get(plain.id)).meta.links).toEqual([`${base.id}|`])
    expect((await store().get(base.id)).text).toBe('对方亲手写下的基石：我们是朋友。')
  })
})

describe('memory_margin: free writing in 余页/, never gated, never injected', () => {
  it('appends to 随笔/<today>.md by default and to a named file, never overwriting', async () => {
    const agent = await host.createAgent('chat')
    const first = await host.tool(agent, 'memory_margin', { text: '今天想到一个关于海的比喻：潮水是记忆的呼吸。' })
    expect(first.isError, said(first)).toBe(false)
    const rel = (first.value as { file: string }).file
    expect(rel).toMatch(/^余页\/随笔\/\d{4}-\d\d-\d\d\.md$/)
    await host.tool(agent, 'memory_margin', { text: '第二段：还没想清楚。' })
    const written = readFileSync(join(store().root, rel), 'utf8')
    expect(written).toContain('潮水是记忆的呼吸。')
    expect(written).toContain('第二段：还没想清楚。')
    const named = await host.tool(agent, 'memory_margin', { text: '书单草稿', file: '读书/草稿.md' })
    expect(named.value).toEqual({ file: '余页/读书/草稿.md' })
    expect(existsSync(join(store().root, '余页', '读书', '草稿.md'))).toBe(true)
  })

  it('is never injected nor recalled: the next prompt and memory_search do not see it', async () => {
    const agent = await host.createAgent('chat')
    await host.tool(agent, 'memory_margin', { text: '余页里的秘密句子：紫色的鲸鱼在唱歌。' })
    const { system, context } = await host.assemble(await host.createAgent('chat'))
    expect(system + context).not.toContain('紫色的鲸鱼')
    const search = await host.tool(agent, 'memory_search', { query: '紫色的鲸鱼' })
    expect(JSON.stringify(search.value)).not.toContain('紫色的鲸鱼')
  })

  it('refuses 待定/, other folders of the store and non-.md files, writing nothing', async () => {
    const agent = await host.createAgent('chat')
    for (const file of ['待定/2026-01-01.md', '../元/settings.json', '../岁月涟漪/日档/x.md', 'notes.txt', '/etc/passwd']) {
      const r = await host.tool(agent, 'memory_margin', { text: '不该写进去', file })
      expect(r.isError, `${file}: ${said(r)}`).toBe(true)
    }
    expect(existsSync(join(store().root, '余页', 'notes.txt'))).toBe(false)
  })

  it('the tools exist only in the Cyrene presets', async () => {
    const names = async (preset: string) => (await host.assemble(await host.createAgent(preset))).assembly.tools.map((t: { name: string }) => t.name)
    expect(await names('chat')).toEqual(expect.arrayContaining(['memory_link', 'memory_margin']))
    expect(await names('cyrene-work')).toEqual(expect.arrayContaining(['memory_link', 'memory_margin']))
    expect(await names('standard')).not.toContain('memory_link')
    expect(await names('standard')).not.toContain('memory_margin')
  })
})
