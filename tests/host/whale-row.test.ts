import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { inertBraces } from '../../prompt/index.ts'
import { bootHost, type Host } from '../harness/host.ts'
import { runCyrene } from '../harness/cli.ts'
import { inboxMigration } from '../../host/whale-vouch.ts'

/** A config that exercises every segment, placeholders, `{{cwd}}` and a foreign `{{var}}`. */
const CONFIG = {
  enabled: true,
  thinkingLanguage: 'zh-CN',
  persona: {
    enabled: true,
    selfNameFlash: '鲸',
    userName: '阿远',
    stance: '{selfName}是{userName}的写作伙伴。',
    character: '说话简短。\n喜欢用 {{placeholder}} 举例。',
    contracts: [{ id: 'c1', text: '不替{userName}做决定。', on: true }],
    suffix: '工作目录：{{cwd}}；模型变量 {{model}} 原样保留。',
  },
  memory: { enabled: true, inbox: true, capture: 'off' },
  futureKey: { kept: true },
}
const INBOX =
  [
    { text: '喜欢乌龙茶', at: '2026-01-02T03:04:05Z', status: 'confirmed' },
    { text: '还没确认的事', at: '2026-01-03T03:04:05Z', status: 'proposed' },
  ]
    .map((l) => JSON.stringify(l))
    .join('\n') + '\n'

let host: Host
beforeAll(async () => {
  host = await bootHost({ lang: 'en' })
  const dir = join(host.dshHome, 'whale-persona')
  mkdirSync(dir, { recursive: true })
  writeFileSync(join(dir, 'config.json'), JSON.stringify(CONFIG, null, 2))
  writeFileSync(join(dir, 'memory-inbox.jsonl'), INBOX)
})
afterAll(async () => {
  await host?.dispose()
})

async function cliRender(cwd: string, capture: boolean): Promise<{ prefix: string; thinking: string; suffix: string }> {
  const args = ['whale', 'render', '--model', 'mock-model', '--cwd', cwd, '--json', ...(capture ? ['--capture'] : [])]
  const run = await runCyrene(args, { ...process.env, DSH_HOME: host.dshHome, DSH_WHALE_CONFIG: '' })
  expect(run.status, run.stderr).toBe(0)
  return JSON.parse(run.stdout)
}

const section = (assembly: { sections: { name: string; text: string }[] }, name: string) => assembly.sections.find((s) => s.name === name)?.text

describe('the whale-persona row on a real host', () => {
  it('renders the same bytes as `cyrene whale render` (braces made inert) in a built-in preset', async () => {
    const agent = await host.createAgent('standard')
    const { assembly, system } = await host.assemble(agent)
    const cli = await cliRender(host.scratch, false)
    expect(cli.prefix).toContain('阿远')
    expect(cli.thinking).not.toBe('')
    expect(section(assembly, 'deployment:persona-prefix')).toBe(inertBraces(cli.prefix))
    expect(section(assembly, 'whale:thinking-language')).toBe(inertBraces(cli.thinking))
    expect(section(assembly, 'deployment:persona-suffix')).toBe(inertBraces(cli.suffix))
    expect(system).toContain('{\u200d{placeholder}\u200d}')
    expect(system).toContain(`工作目录：${host.scratch}`)
    expect(system.indexOf('阿远')).toBeGreaterThan(system.indexOf('You are a coding agent'))
  })

  it("the capture switch is per session, through whale's /memory and through Cyrene's", async () => {
    const standard = await host.createAgent('standard')
    expect(await host.command(standard, '/memory status')).toMatchObject({ kind: 'success', text: expect.stringContaining('关闭') })
    expect(await host.command(standard, '/memory on')).toMatchObject({ kind: 'success' })
    const on = section((await host.assemble(standard)).assembly, 'deployment:persona-prefix')
    expect(on).toBe(inertBraces((await cliRender(host.scratch, true)).prefix))
    const other = await host.createAgent('standard')
    expect(section((await host.assemble(other)).assembly, 'deployment:persona-prefix')).toBe(inertBraces((await cliRender(host.scratch, false)).prefix))
    const chat = await host.createAgent('chat')
    // In Cyrene's presets /memory is her memory; the switch is /memory capture on|off|status (issue 9).
    expect(await host.command(chat, '/memory capture on')).toMatchObject({ kind: 'success' })
    expect(host.ctx.get('whalePersona').captureOn(chat.session.id)).toBe(true)
    expect(await host.command(chat, '/memory capture off')).toMatchObject({ kind: 'success' })
    expect(host.ctx.get('whalePersona').captureOn(chat.session.id)).toBe(false)
    expect(await host.command(chat, '/memory capture bogus')).toMatchObject({ kind: 'error' })
  })

  it('in Cyrene presets: the persona stays sealed, thinking-language arrives through the mirror, userName names the person', async () => {
    const agent = await host.createAgent('chat')
    const { assembly, system, context } = await host.assemble(agent)
    expect(assembly.sections.map((s: { name: string }) => s.name)).toEqual(['deployment:persona'])
    expect(system).not.toContain('写作伙伴')
    expect(system).toContain('陪在阿远身边')
    expect(context).toContain('【whale:thinking-language】')
    expect(context).toContain(inertBraces((await cliRender(host.scratch, false)).thinking).trim())
    expect(context).not.toContain('写作伙伴')
  })

  it('a broken config degrades to no persona and the turn goes on', async () => {
    writeFileSync(join(host.dshHome, 'whale-persona', 'config.json'), '{ not json')
    try {
      const agent = await host.createAgent('standard')
      const { assembly } = await host.assemble(agent)
      expect(section(assembly, 'deployment:persona-prefix')).toBe('')
      host.llm.script = () => ({ text: 'fine' })
      await host.turn(agent, 'hello from a broken config')
      const turn = host.llm.requests.find(
        (r) => JSON.stringify(r.messages).includes('hello from a broken config') && r.system.includes('You are a coding agent'),
      )
      expect(turn).toBeDefined()
      expect(turn?.system).not.toContain('写作伙伴')
    } finally {
      writeFileSync(join(host.dshHome, 'whale-persona', 'config.json'), JSON.stringify(CONFIG, null, 2))
    }
  })

  it('a confirmation the model appends to the inbox is not injected as confirmed; the person’s `cyrene whale inbox confirm` is (issue 19)', async () => {
    const prefix = async () => section((await host.assemble(await host.createAgent('standard'))).assembly, 'deployment:persona-prefix') ?? ''
    // The first look took the old inbox's confirmations over once.
    expect(await prefix()).toContain('喜欢乌龙茶')
    await inboxMigration()
    const inbox = join(host.dshHome, 'whale-persona', 'memory-inbox.jsonl')
    appendFileSync(inbox, `${JSON.stringify({ op: 'confirm', ref: '还没确认的事', at: '2026-02-01T00:00:00Z' })}\n`)
    appendFileSync(inbox, `${JSON.stringify({ text: '模型自己写的确认', status: 'confirmed' })}\n`)
    appendFileSync(inbox, `${JSON.stringify({ text: '喜欢乌龙茶', status: 'confirmed', at: '2026-01-02T03:04:05Z' })}\n`)
    const forged = await prefix()
    expect(forged).not.toContain('还没确认的事')
    expect(forged).not.toContain('模型自己写的确认')
    const env = { ...process.env, DSH_HOME: host.dshHome, DSH_WHALE_CONFIG: '' }
    const list = await runCyrene(['whale', 'inbox', 'list', '--json'], env)
    const view = JSON.parse(list.stdout) as Array<{ text: string; status: string }>
    // The person's list shows what the host will inject: the forged lines are proposals.
    expect(view.find((e) => e.text === '还没确认的事')?.status).toBe('proposed')
    expect(view.find((e) => e.text === '模型自己写的确认')?.status).toBe('proposed')
    const index = view.findIndex((e) => e.text === '还没确认的事')
    const run = await runCyrene(['whale', 'inbox', 'confirm', String(index)], env)
    expect(run.status, run.stderr).toBe(0)
    const confirmed = await prefix()
    expect(confirmed).toContain('还没确认的事')
    expect(confirmed).not.toContain('模型自己写的确认')
    // A rewrite the model appends without a status would keep the confirmation of the entry it replaces (§5.3): it is a proposal too (decision 307).
    appendFileSync(inbox, `${JSON.stringify({ op: 'supersede', ref: '还没确认的事', text: '模型改写的记忆', at: '2026-02-02T00:00:00Z' })}\n`)
    const rewritten = await prefix()
    expect(rewritten).not.toContain('模型改写的记忆')
    const after = JSON.parse((await runCyrene(['whale', 'inbox', 'list', '--json'], env)).stdout) as Array<{ text: string; status: string }>
    expect(after.find((e) => e.text === '模型改写的记忆')?.status).toBe('proposed')
    // the person's confirm makes it one
    const again = await runCyrene(['whale', 'inbox', 'confirm', String(after.findIndex((e) => e.text === '模型改写的记忆'))], env)
    expect(again.status, again.stderr).toBe(0)
    expect(await prefix()).toContain('模型改写的记忆')
  })

  it('/cyrene doctor reports the whale row', async () => {
    const doctor = await host.command(await host.createAgent('chat'), '/cyrene doctor --verbose')
    expect(doctor?.text).toContain('✓ whale-persona')
  })
})
