import { afterEach, describe, expect, it } from 'vitest'
import type { Context } from '@deepseek-ai/cordis'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { bootSpine } from '../tests/harness/spine.ts'
import { charCount, endMarker } from '../prompt/index.ts'
import type { PassBlock } from './types.ts'
import { frameOrNothing } from './frame.ts'
import { PRIORITY } from './list.ts'
import { nicknameOf } from './nickname-rail.ts'
import { registerRails } from './row.ts'

/** A context that hands out the given services by name (what `ctx.get` does for these two). */
const ctxWith = (services: Record<string, unknown>) => ({ get: (name: string) => services[name] }) as unknown as Context

it('{{user_nickname}} and rail 120: the nickname setting, then whale-persona userName, then the row default; a throwing service falls back', () => {
  const memory = (nickname: string | undefined) => ({ voice: { nickname: () => nickname } })
  const whale = (userName: string | undefined) => ({ userName: () => userName })
  expect(nicknameOf(ctxWith({ cyreneMemory: memory('小满'), whalePersona: whale('Alex') }), '伙伴')).toBe('小满')
  expect(nicknameOf(ctxWith({ cyreneMemory: memory(undefined), whalePersona: whale('Alex') }), '伙伴')).toBe('Alex')
  expect(nicknameOf(ctxWith({ cyreneMemory: memory(undefined), whalePersona: whale(undefined) }), '伙伴')).toBe('伙伴')
  expect(nicknameOf(ctxWith({}), '伙伴')).toBe('伙伴')
  expect(
    nicknameOf(
      ctxWith({
        cyreneMemory: {
          voice: {
            nickname: () => {
              throw new Error('disk')
            },
          },
        },
      }),
      '伙伴',
    ),
  ).toBe('伙伴')
})

describe('the worldbook plugs into the pass (minimal DSH spine)', () => {
  let spine: Awaited<ReturnType<typeof bootSpine>> | undefined
  afterEach(async () => {
    await spine?.dispose()
    spine = undefined
  })

  it('its rail lands at 140 and its hits in the step, sized by the same pass: a hit block over the total is cut to what is left', async () => {
    const seen: string[] = []
    const worldbook = {
      rail: (): PassBlock => ({
        id: 'rail:worldbook',
        channel: 'rail',
        priority: PRIORITY['rail:worldbook'],
        cap: 600,
        render: (max) => frameOrNothing('世界书', '翁法罗斯是她的故乡。', max),
      }),
      step: (_agent: unknown, text: string): PassBlock => {
        seen.push(text)
        return {
          id: 'step:worldbook',
          channel: 'pre-step',
          priority: PRIORITY['step:worldbook'],
          cap: 9000,
          render: (max) => frameOrNothing('世界书命中', '词条'.repeat(4000), max),
        }
      },
    }
    const row = {
      name: 'voice-under-test',
      inject: ['systemPrompt'],
      apply: (ctx: Context) => {
        ctx.systemPrompt.variable('cyrene_memory', () => '（无）')
        registerRails(ctx, {
          rails: { nickname: true, style: false, scene: false, worldbook: true },
          defaultNickname: '旅人',
          capability: { enabled: true, text: '' },
          recall: { enabled: false, maxChars: 1000, perEntryMax: 300, limit: 8 },
          worldbook,
        })
      },
    }
    spine = await bootSpine({ script: () => ({ text: '嗯。' }) })
    const agent = await spine.createAgent('persona {{cyrene_memory}}', [[row]])
    const names = (await spine.assemble(agent)).assembly.contexts.map((c: { name: string }) => c.name)
    expect(names.filter((n: string) => n.startsWith('cyrene:'))).toEqual(['cyrene:nickname', 'cyrene:worldbook', 'cyrene:capability'])

    agent.followup(createUserMessage({ content: [{ type: 'text', text: '讲讲翁法罗斯' }], source: { kind: 'user' } }))
    await new Promise((r) => setTimeout(r, 10))
    await agent.whenIdle()
    const request = spine.llm.requests.at(-1)!
    const all = request.messages.flatMap((m) => (Array.isArray(m.content) ? m.content.map((b: { text?: string }) => b.text ?? '') : []))
    expect(seen).toContain('讲讲翁法罗斯')
    const hits = all.find((t) => t.startsWith('【世界书命中】'))!
    const rails = ['【称呼】', '【世界书】', '【能力总则】'].map(
      (title) => (all.find((t) => t.startsWith('Current runtime context.')) ?? '').split('\n\n').find((part) => part.startsWith(title)) ?? '',
    )
    expect(rails.every((r) => r.endsWith(endMarker()))).toBe(true)
    // Rails, the variable (the pass put its own framed value in) and the hits: the hits got exactly what the 4,000 left (no whale row here).
    const memory = request.system.slice('persona '.length)
    expect(memory.startsWith('【记忆】')).toBe(true)
    const total = [...rails, memory, hits].reduce((n, t) => n + charCount(t), 0)
    expect(total).toBe(4000)
    expect(hits.endsWith(endMarker())).toBe(true)
    expect(charCount(hits)).toBeGreaterThan(1000)
  })
})
