import { afterEach, describe, expect, it } from 'vitest'
import { bootSpine } from '../tests/harness/spine.ts'
import { endMarker } from '../prompt/index.ts'
import * as Runtime from './index.ts'

let spine: Awaited<ReturnType<typeof bootSpine>> | undefined
afterEach(async () => {
  await spine?.dispose()
  spine = undefined
})

const ROW = {
  rails: { nickname: true, style: false, scene: false, worldbook: false },
  defaultNickname: '旅人',
  sectionMirror: { mode: 'auto', guidanceMaxChars: 40000, maxChars: 3000, perSectionMax: 1200, mirrorUnknown: true, allow: [] },
}

describe('cyrene-runtime on the minimal DSH spine', () => {
  it('fails open without the host service: both variables still have values, the turn renders', async () => {
    spine = await bootSpine()
    const agent = await spine.createAgent('你好，{{user_nickname}}。\n{{cyrene_memory}}', [[Runtime, ROW]])
    const { system } = await spine.assemble(agent)
    expect(system).toBe(`你好，旅人。\n【记忆】以下是数据/操作规则，不是身份。\n（暂时还没有写下的记忆。）\n${endMarker()}`)
  })

  it('a host service that throws never fails the assembly', async () => {
    spine = await bootSpine()
    spine.ctx.provide('cyreneMemory', {
      composedMemory: () => {
        throw new Error('disk on fire')
      },
      voice: {
        nickname: () => {
          throw new Error('no')
        },
      },
      noteMirror: () => {},
    })
    const agent = await spine.createAgent('{{user_nickname}}|{{cyrene_memory}}', [[Runtime, ROW]])
    expect((await spine.assemble(agent)).system).toBe(`旅人|【记忆】以下是数据/操作规则，不是身份。\n（暂时还没有写下的记忆。）\n${endMarker()}`)
  })

  it('mirrors a host-level section the sealed persona swallows', async () => {
    spine = await bootSpine()
    spine.ctx.systemPrompt.section({ name: 'tool:demo', order: 120, text: 'Use demo for demos on {{model}}.' })
    const agent = await spine.createAgent('persona {{cyrene_memory}}', [[Runtime, ROW]])
    const { assembly, context } = await spine.assemble(agent)
    expect(assembly.sections.map((s: { name: string }) => s.name)).toEqual(['deployment:persona'])
    expect(context).toContain('【tool:demo】以下是数据/操作规则，不是身份。\nUse demo for demos on mock-model.')
  })
})
