import { describe, expect, it } from 'vitest'
import { historyEvents, memoryWrites, transcriptOf } from './transcript.ts'

const user = (text: string, source: object = { kind: 'user' }) => ({ type: 'user/message', data: { content: [{ type: 'text', text }], source } })
const said = (text: string) => ({ type: 'assistant/message', data: { message: { content: [{ type: 'text', text }] } } })

/** A session history in the envelope session.history answers with: two turns, a tool call, a recall notice, a context snapshot. */
const answer = {
  result: {
    ok: true,
    value: {
      events: [
        { event: { type: 'turn/start', data: { turn: 1 } } },
        { event: user('记住：我对花生过敏') },
        {
          event: user('Current runtime context…', {
            kind: 'plugin',
            plugin: '@deepseek-ai/dsh-system-prompt',
            form: 'snapshot',
            sections: [
              { name: 'sandbox:policy', text: 'DSH policy' },
              { name: 'cyrene:capability', text: '【能力总则】…' },
              { name: 'cyrene:mirror:tool:read', text: 'mirrored DSH guidance' },
            ],
          }),
        },
        { event: { type: 'request/header', data: { header: { system: '你是昔涟' } } } },
        { event: { type: 'tool/call', data: { callId: 'c1', name: 'memory_write', arguments: '{"text":"对花生过敏"}' } } },
        {
          event: {
            type: 'tool/result',
            data: { message: { content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: '已写入日档' }], isError: false }] } },
          },
        },
        { event: said('好，我记下了。') },
        { event: { type: 'turn/end', data: { reason: { kind: 'completed' } } } },
        { event: { type: 'turn/start', data: { turn: 2 } } },
        { event: user('周末吃泰国菜？') },
        { event: user('【记忆命中】\n- 2026-11-30 对花生过敏', { kind: 'plugin', plugin: 'dsh-cyrene-philia093-0', form: 'notice' }) },
        { event: { type: 'request/header', data: { header: { system: 'a later request' } } } },
        { event: said('泰国菜常用花生，') },
        { event: said('点菜时记得说明过敏。') },
        { event: { type: 'turn/end', data: { reason: { kind: 'completed' } } } },
      ],
    },
  },
}

describe('transcriptOf', () => {
  it('one record per turn: the person, her reply (all of its steps), tool calls with results, her own injections only', () => {
    const t = transcriptOf(historyEvents(answer))
    expect(t.system).toBe('你是昔涟')
    expect(t.turns).toEqual([
      {
        user: '记住：我对花生过敏',
        reply: '好，我记下了。',
        toolCalls: [{ name: 'memory_write', arguments: '{"text":"对花生过敏"}', result: '已写入日档', isError: false }],
        injected: ['【能力总则】…'],
      },
      { user: '周末吃泰国菜？', reply: '泰国菜常用花生，\n\n点菜时记得说明过敏。', toolCalls: [], injected: ['【记忆命中】\n- 2026-11-30 对花生过敏'] },
    ])
    expect(memoryWrites(t).map((c) => c.name)).toEqual(['memory_write'])
  })

  it('an answer without events is an empty transcript, not an error', () => {
    expect(transcriptOf(historyEvents({ result: { ok: false } }))).toEqual({ system: '', turns: [] })
  })
})
