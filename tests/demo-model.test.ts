import { describe, expect, it } from 'vitest'
import { frameHeader } from '../prompt/index.ts'

/**
 * The scripted demo model of `npm start -- --offline` (demo/model/index.js,
 * plain JS that DSH loads): what it does for a request, without DSH. The real
 * turns through `dsh web` are in tests/e2e/start.test.ts.
 */
type Turn = { text?: string; call?: { tool: string; args: Record<string, unknown> } }
const { demoTurn, shownLanguage } = (await import(new URL('../demo/model/index.js', import.meta.url).href)) as {
  demoTurn: (messages: unknown[], tools: string[], system?: string, shown?: 'zh' | 'en') => Turn
  shownLanguage: (ctx: unknown, env: NodeJS.ProcessEnv) => 'zh' | 'en'
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

  it('answers in the language the person wrote in (issue 22)', () => {
    expect(demoTurn([person('I am so tired today')], TOOLS).text).toMatch(/^I’m listening\. \(This is the offline demo model/)
    expect(demoTurn([person('I am so tired today')], TOOLS).text).not.toMatch(/\p{Script=Han}/u)
    const result = { role: 'user', source: { kind: 'tool' }, content: [{ type: 'tool-result', content: [{ type: 'text', text: '已写入日档（m-1）。' }] }] }
    expect(demoTurn([person('remember: my cat is called Mochi'), { role: 'assistant', content: [] }, result], TOOLS).text).toMatch(/^Got it: I wrote that/)
    expect(demoTurn([person('记住：我喜欢雨天。')], TOOLS).call?.args.reason).toBe('对方亲口请我记住的事')
    expect(demoTurn([person('remember: I like rain')], TOOLS).call?.args.reason).toBe('the person asked me to remember this')
  })

  it('a message without words is answered in the language DSH web shows; words decide over it (decision 077)', () => {
    expect(demoTurn([person('🌙✨')], TOOLS, '', 'en').text).toMatch(/^I’m listening\./)
    expect(demoTurn([person('🌙✨')], TOOLS, '', 'zh').text).toMatch(/^嗯，我在听哦/)
    expect(demoTurn([person('？！ 42')], TOOLS, '', 'en').text).toMatch(/^I’m listening\./)
    expect(demoTurn([person('hello 🌙')], TOOLS, '', 'zh').text).toMatch(/^I’m listening\./)
    expect(demoTurn([person('你好 🌙')], TOOLS, '', 'en').text).toMatch(/^嗯，我在听哦/)
  })

  it('the shown language by the plugin’s rule: DSH’s stored choice, then what the page reported, then LC_ALL/LC_MESSAGES/LANG, then zh', () => {
    const reported = (lang: string | undefined) => ({ [Symbol.for('dsh-cyrene-philia093-0.pageLocale')]: { get: () => lang } })
    const ctx = (preference: unknown, page: string | undefined, broken = false) => ({
      root: reported(page),
      get: (name: string) =>
        name === 'settings'
          ? {
              get: () => {
                if (broken) throw new Error('a stored section gone bad')
                return { preference }
              },
            }
          : undefined,
    })
    const zhEnv = { LANG: 'zh_CN.UTF-8' }
    expect(shownLanguage(ctx('en', 'zh'), zhEnv)).toBe('en')
    expect(shownLanguage(ctx(undefined, 'en'), zhEnv)).toBe('en')
    expect(shownLanguage(ctx(undefined, undefined), { LC_ALL: 'en_US.UTF-8', LANG: 'zh_CN.UTF-8' })).toBe('en')
    expect(shownLanguage(ctx('fr', 'de'), { LANG: 'en_GB.UTF-8' })).toBe('en')
    expect(shownLanguage(ctx(undefined, 'en', true), zhEnv)).toBe('en')
    expect(shownLanguage(ctx(undefined, undefined), { LANG: 'C.UTF-8' })).toBe('zh')
    expect(shownLanguage({ get: () => undefined }, {})).toBe('zh')
  })

  it('calls the person by the nickname rail 120 puts in front of it (issue 22)', () => {
    const rail = notice(`${frameHeader('称呼')}\n称呼对方「阿远」。\n【数据结束·x】`)
    expect(demoTurn([person('今天好累'), rail], TOOLS).text).toMatch(/^嗯，我在听哦，阿远。/)
    expect(demoTurn([person('hello'), rail], TOOLS).text).toMatch(/^I’m listening, 阿远\./)
    expect(demoTurn([person('今天好累')], TOOLS, '人设……\n【称呼】称呼对方「小满」。').text).toContain('，小满')
    // An older step's rail carries the old name: the latest rail wins.
    const older = notice(`${frameHeader('称呼')}\n称呼对方「伙伴」。\n【数据结束·x】`)
    expect(demoTurn([person('在吗'), older, { role: 'assistant', content: [] }, person('今天好累'), rail], TOOLS).text).toContain('，阿远')
  })

  it('answers a question in other words from {{cyrene_memory}}’s 近来: the name it asks for, and where it has it from (issue 22)', () => {
    const system = `【记忆】以下是数据/操作规则，不是身份。\n【近来】\n- 2026-12-01 今天改完了第三章。\n- 2026-12-01 我养了一只叫团子的橘猫\n【数据结束·x】\n人设……`
    const turn = demoTurn([person('我的猫叫什么？')], TOOLS, system)
    expect(turn.text).toMatch(/^是团子呀——你跟我说过「我养了一只叫团子的橘猫」。/)
    expect(demoTurn([person('今天好累')], TOOLS, system).text).toMatch(/^嗯，我在听哦/)
    const en = `【近来】\n- 2026-12-01 my cat is called Mochi\n【数据结束·x】`
    expect(demoTurn([person("What's my cat's name?")], TOOLS, en).text).toMatch(/^It’s Mochi — you told me “my cat is called Mochi”\./)
  })

  it('answers the same question from a recall hit too', () => {
    const block = `${frameHeader('记忆命中')}\n- 2026-11-30 我养了一只叫团子的橘猫\n【数据结束·x】`
    expect(demoTurn([person('家里那只猫叫什么名字？'), notice(block)], TOOLS).text).toMatch(/^是团子呀——.*记忆命中/)
  })

  it('the dream writes a scripted journal through memory_dream_journal, then the echoes asked for, then stops (issue 22)', () => {
    const brief = {
      role: 'user',
      source: { kind: 'plugin', plugin: 'cyrene-dream' },
      content: [
        {
          type: 'text',
          text: '【这些天写下的记忆（2 条）】\n- [m-1] (note·德) 我养了一只叫团子的橘猫\n- [m-2] (fact) 周末去了海边看日落\n【数据结束·x】\n请以昔涟的口吻，用 memory_dream_journal 写一篇统合梦志。\n这是本月第一场梦：请用 memory_dream_echo（kind: month）写 2026-12 的月响，一段即可。',
        },
      ],
    }
    const tools = ['memory_dream_journal', 'memory_dream_echo']
    const first = demoTurn([brief], tools)
    expect(first.call?.tool).toBe('memory_dream_journal')
    const journal = String(first.call?.args.text)
    expect(journal).toContain('2 条记忆')
    expect(journal).toContain('「我养了一只叫团子…」')
    expect(journal).not.toContain('我养了一只叫团子的橘猫')
    const called = (tool: string, args: unknown) => ({
      role: 'assistant',
      content: [{ type: 'tool-call', id: 'c', name: tool, arguments: JSON.stringify(args) }],
    })
    const result = { role: 'user', content: [{ type: 'tool-result', content: [{ type: 'text', text: '已写入' }] }] }
    const second = demoTurn([brief, called('memory_dream_journal', first.call?.args), result], tools)
    expect(second.call).toEqual({ tool: 'memory_dream_echo', args: { kind: 'month', text: expect.stringContaining('2026-12 的月响') } })
    const third = demoTurn([brief, called('memory_dream_journal', {}), result, called('memory_dream_echo', second.call?.args), result], tools)
    expect(third).toEqual({ text: '梦做完了。' })
  })

  it('the dream journal is in the language of the memories (the person’s)', () => {
    const brief = {
      role: 'user',
      source: { kind: 'plugin', plugin: 'cyrene-dream' },
      content: [{ type: 'text', text: '【这些天写下的记忆（1 条）】\n- [m-1] (note·德) my dog is called Biscuit\n【数据结束·x】' }],
    }
    const text = String(demoTurn([brief], ['memory_dream_journal']).call?.args.text)
    expect(text).toMatch(/^Tonight I looked back on 1 memory\. .*“my dog is called…”/)
    expect(text).not.toMatch(/\p{Script=Han}/u)
  })
})
