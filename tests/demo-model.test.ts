import { describe, expect, it } from 'vitest'
import { frameHeader } from '../memory/index.ts'

/**
 * The scripted demo model of `npm start -- --offline` (demo/model/index.js,
 * plain JS that DSH loads): what it does for a request, without DSH. The real
 * turns through `dsh web` are in tests/e2e/start.test.ts.
 */
type Turn = { text?: string; call?: { tool: string; args: Record<string, unknown> } }
const { demoTurn } = (await import(new URL('../demo/model/index.js', import.meta.url).href)) as {
  demoTurn: (messages: unknown[], tools: string[], system?: string) => Turn
}

const person = (text: string) => ({ role: 'user', source: { kind: 'user' }, content: [{ type: 'text', text }] })
const notice = (text: string) => ({ role: 'user', source: { kind: 'plugin', plugin: 'dsh-cyrene-philia093-0' }, content: [{ type: 'text', text }] })
const TOOLS = ['memory_write', 'memory_search']

describe('the demo model (issue 13 item 1)', () => {
  it('记住… / remember … (case and spaces aside) calls memory_write with the rest, an axis and a reason', () => {
    for (const said of ['记住：我喜欢雨天。', '  Remember: I like rainy days.', '请记住 我喜欢雨天。']) {
      const turn = demoTurn([person(said)], TOOLS)
      expect(turn.call?.tool).toBe('memory_write')
      expect(turn.call?.args).toMatchObject({ kind: 'note', axis: '德' })
      expect(String(turn.call?.args.reason)).not.toBe('')
      expect(String(turn.call?.args.text)).toMatch(/^(我喜欢雨天。|I like rainy days\.)$/)
    }
  })

  it('after the tool result it says it will remember, and never calls the tool twice', () => {
    const result = { role: 'user', source: { kind: 'tool' }, content: [{ type: 'tool-result', content: [{ type: 'text', text: '已写入日档（m-1）。' }] }] }
    const turn = demoTurn([person('记住：我喜欢雨天。'), { role: 'assistant', content: [] }, result], TOOLS)
    expect(turn.call).toBeUndefined()
    expect(turn.text).toContain('我记下了')
  })

  it('without memory_write on offer it only answers', () => {
    expect(demoTurn([person('记住：我喜欢雨天。')], []).call).toBeUndefined()
  })

  it('quotes the first injected memory hit, without its date', () => {
    const block = `${frameHeader('记忆命中')}\n- 2026-11-30 我喜欢雨天。\n- 2026-11-29 我养了一只猫。\n【数据结束·x】`
    expect(demoTurn([person('下雨天我喜欢什么？'), notice(block)], TOOLS).text).toContain('「我喜欢雨天。」')
  })

  it("without a hit, quotes a line of {{cyrene_memory}}'s recent days that shares words with the message (the hits never repeat it)", () => {
    const system = `【记忆】以下是数据/操作规则，不是身份。\n【近来】\n- 2026-11-30 今天改完了第三章。\n- 2026-11-30 我喜欢在雨天听黑胶唱片。\n【数据结束·x】\n人设……`
    expect(demoTurn([person('下雨天我喜欢做什么？黑胶唱片')], TOOLS, system).text).toContain('「我喜欢在雨天听黑胶唱片。」')
    expect(demoTurn([person('今天好累')], TOOLS, system).text).not.toContain('黑胶')
  })

  it('a hit from an earlier message is not quoted again; a plain message gets the brief demo answer', () => {
    const block = `${frameHeader('记忆命中')}\n- 2026-11-30 我喜欢雨天。\n【数据结束·x】`
    const turn = demoTurn([person('下雨天我喜欢什么？'), notice(block), { role: 'assistant', content: [] }, person('今天好累')], TOOLS)
    expect(turn.text).not.toContain('我喜欢雨天')
    expect(turn.text).toContain('演示模型')
  })

  it('a session-title request gets a few words of the first message', () => {
    const ask = {
      role: 'user',
      source: { kind: 'plugin', plugin: 'dsh-session-title-llm' },
      content: [
        {
          type: 'text',
          text: 'Generate the session title from this JSON array of human messages:\n[{"seq":7,"text":"记住：我喜欢在雨天听黑胶唱片，尤其是爵士。"}]',
        },
      ],
    }
    expect(demoTurn([ask], TOOLS)).toEqual({ text: '我喜欢在雨天听黑胶唱片，尤其是爵' })
  })
})
