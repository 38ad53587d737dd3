import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EMPTY_MEMORY, framed } from '../../prompt/index.ts'
import { railsReport } from '../../rails/index.ts'
import { bootHost, PROJECT_ROOT, type Host } from '../harness/host.ts'

const persona = (file: string) => readFileSync(join(PROJECT_ROOT, 'persona', file), 'utf8')

/** The persona as DSH renders it with this test host's values. */
function rendered(text: string, cwd: string): string {
  const values: Record<string, string> = { user_nickname: '伙伴', cyrene_memory: framed('记忆', EMPTY_MEMORY), model: 'mock-model', cwd }
  return text.replace(/\{\{([a-z_]+)\}\}/g, (_, name: string) => values[name] ?? `<<${name}>>`)
}

let host: Host
beforeAll(async () => {
  host = await bootHost({ lang: 'en' })
})
afterAll(async () => {
  await host?.dispose()
})

describe('Cyrene presets on the real dsh-base composition', () => {
  it('the roster serves chat and cyrene-work as system trust, chat as default, beside the built-ins', async () => {
    const roster = host.ctx.get('agentPresets')
    const list = (await roster.list()) as { id: string; trust: string; broken?: unknown }[]
    const byId = new Map(list.map((p) => [p.id, p]))
    expect(byId.get('chat')).toMatchObject({ trust: 'system' })
    expect(byId.get('cyrene-work')).toMatchObject({ trust: 'system' })
    expect(byId.get('chat')?.broken).toBeFalsy()
    expect(byId.get('cyrene-work')?.broken).toBeFalsy()
    for (const builtin of ['standard', 'cordis']) expect(byId.get(builtin)).toMatchObject({ trust: 'system' })
    expect((await roster.resolve()).id).toBe('chat')
  })

  it('refuses to delete the sealed presets', async () => {
    const roster = host.ctx.get('agentPresets')
    await expect(roster.remove('chat')).rejects.toThrow(/ships with the deployment/)
    await expect(roster.remove('cyrene-work')).rejects.toThrow(/ships with the deployment/)
    expect((await roster.list()).some((p: { id: string }) => p.id === 'chat')).toBe(true)
  })

  it('chat: the system prompt is exactly the persona, and runtime context stays on', async () => {
    const agent = await host.createAgent('chat')
    const { assembly, system, context } = await host.assemble(agent)
    expect(assembly.sections.map((s: { name: string }) => s.name)).toEqual(['deployment:persona'])
    expect(system).toBe(rendered(persona('chat.md'), host.scratch))
    expect(context).toContain('Current runtime context.')
    expect(context).toContain('【能力总则】以下是数据/操作规则，不是身份。')
    expect(assembly.contexts.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(['sandbox:policy', 'approval:policy']))
  })

  it('cyrene-work: the system prompt is exactly the work persona', async () => {
    const agent = await host.createAgent('cyrene-work')
    const { system, assembly } = await host.assemble(agent)
    expect(assembly.sections.map((s: { name: string }) => s.name)).toEqual(['deployment:persona'])
    expect(system).toBe(rendered(persona('work.md'), host.scratch))
  })

  it('keeps every tool of the base preset', async () => {
    // One host per preset: DSH rc.8's tool-cordis registers a host-wide provider, so the
    // built-in cordis preset and cyrene-work cannot stand in one process (see CONTRACT.md).
    const toolsOn = async (preset: string) => {
      const own = await bootHost({ lang: 'en' })
      try {
        const { assembly } = await own.assemble(await own.createAgent(preset))
        return assembly.tools.map((t: { name: string }) => t.name).sort() as string[]
      } finally {
        await own.dispose()
      }
    }
    for (const [ours, base] of [
      ['chat', 'standard'],
      ['cyrene-work', 'cordis'],
    ] as const) {
      const baseTools = await toolsOn(base)
      expect(baseTools.length).toBeGreaterThan(5)
      expect(await toolsOn(ours)).toEqual(expect.arrayContaining(baseTools))
    }
  })

  it('base tools run for an agent on a sealed preset', async () => {
    const agent = await host.createAgent('chat')
    writeFileSync(join(host.scratch, 'note.txt'), '乌龙茶\n')
    const read = await host.tool(agent, 'read', { file_path: join(host.scratch, 'note.txt') })
    expect(read.isError, JSON.stringify(read.content)).toBe(false)
    expect(JSON.stringify(read.content)).toContain('乌龙茶')
  })

  it('plan mode works inside the planning group and reaches the model through the bridge rail', async () => {
    const agent = await host.createAgent('chat')
    const before = await host.assemble(agent)
    expect(before.context).not.toContain('计划模式已开启')
    const on = await host.command(agent, '/plan')
    expect(on?.kind).toBe('success')
    const during = await host.assemble(agent)
    expect(during.context).toContain('计划模式已开启')
    expect(during.context).toContain('【plan:policy】')
    expect(during.assembly.sections.map((s: { name: string }) => s.name)).toEqual(['deployment:persona'])
    expect(await host.command(agent, '/plan off')).toMatchObject({ kind: 'success' })
    expect((await host.assemble(agent)).context).not.toContain('计划模式已开启')
  })

  it('the section mirror carries every swallowed tool-guidance section of the base into runtime context', async () => {
    const sectionsOf = async (preset: string) => (await host.assemble(await host.createAgent(preset))).assembly
    const standard = await sectionsOf('standard')
    const guidance = standard.sections
      .filter((s: { name: string; text: string }) => s.name.startsWith('tool:') && s.text !== '')
      .map((s: { name: string }) => s.name)
    expect(guidance.length).toBeGreaterThan(5)
    expect(standard.contexts.some((c: { name: string }) => c.name.startsWith('cyrene:mirror:'))).toBe(false)
    const chat = await sectionsOf('chat')
    expect(chat.contexts.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(guidance.map((n: string) => `cyrene:mirror:${n}`)))
    const work = await host.assemble(await host.createAgent('cyrene-work'))
    expect(work.context).toContain('【tool:cordis】以下是数据/操作规则，不是身份。')
    const note = railsReport(host.ctx.get('cyreneMemory')).mirror!
    expect(note.skipped.filter((s: { why: string }) => s.why.includes('budget'))).toEqual([])
  })

  it('a foreign section with an unregistered {{x}} is mirrored inertly and the turn still renders', async () => {
    const dispose = host.ctx.systemPrompt.section({ name: 'other:plugin', order: 300, text: 'Other plugin says {{not_registered}} on {{model}}.' })
    try {
      const { context } = await host.assemble(await host.createAgent('chat'))
      expect(context).toContain('Other plugin says {\u200d{not_registered}\u200d} on mock-model.')
    } finally {
      dispose()
    }
  })

  it('/cyrene doctor answers in a Cyrene preset and not in a built-in one', async () => {
    const chat = await host.createAgent('chat')
    const doctor = await host.command(chat, '/cyrene doctor --verbose')
    expect(doctor?.kind).toBe('success')
    expect(doctor?.text).toContain('memory engine')
    expect(await host.command(chat, '/cyrene nonsense')).toMatchObject({ kind: 'error' })
    const standard = await host.createAgent('standard')
    expect(await host.command(standard, '/cyrene doctor --verbose')).toBeUndefined()
  })

  it('a full turn on chat sends the persona as the whole system prompt', async () => {
    const agent = await host.createAgent('chat')
    host.llm.script = () => ({ text: '我在呢。' })
    const seen = host.llm.requests.length
    await host.turn(agent, '你好')
    const request = host.llm.requests[seen]
    expect(request?.system).toBe(rendered(persona('chat.md'), host.scratch))
    expect(JSON.stringify(request?.messages)).toContain('你好')
  })
})
