import { lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { endMarker } from '../../prompt/index.ts'
import { bootHost, type Host } from '../harness/host.ts'
import type { SeenRequest } from '../harness/mock-llm.ts'

/** Issue 14: the reflex layer (whale-persona §8) applied in a turn on a real DSH host. */

const RULES = {
  rules: [
    { id: 'goodnight', when: { nearAny: ['晚安喵'] }, then: { directive: '用一句话道晚安。' } },
    { id: 'deep', when: { tier: 'pro', nearAny: ['深想口令'] }, then: { directive: '先想清楚再答。' } },
    { id: 'weather', when: { text: '天气', textNot: '不要天气' }, then: { directive: '只说天气。' } },
    { id: 'brief', when: { nearAny: ['短口令'], maxChars: 12 }, then: { reply: '收到。' } },
  ],
}

let host: Host
let dir: string
const rulesFile = () => join(dir, 'reflex.json')
const ledgerFile = () => join(dir, 'reflex-hits.jsonl')

function setRules(rules: unknown): void {
  mkdirSync(dir, { recursive: true })
  if (rules === null) rmSync(rulesFile(), { force: true })
  else writeFileSync(rulesFile(), typeof rules === 'string' ? rules : JSON.stringify(rules))
}

beforeAll(async () => {
  host = await bootHost({ lang: 'en' })
  dir = join(host.dshHome, 'whale-persona')
})
afterAll(async () => {
  await host?.dispose()
})
afterEach(() => {
  delete process.env.DSH_REFLEX_OFF
  setRules(RULES)
})

const texts = (m: { content: unknown }): string[] =>
  Array.isArray(m.content) ? (m.content as { type: string; text?: string }[]).flatMap((b) => (b.type === 'text' ? [b.text ?? ''] : [])) : []

/** Whether the person (not a plugin, e.g. the session-title request) said `said` in this request. */
const personSaid = (r: SeenRequest, said: string) =>
  r.messages.some((m) => (m.source as { kind?: string } | undefined)?.kind === 'user' && texts(m).some((t) => t.includes(said)))

/** The last request of a turn to the model in which the person said `said`. */
function requestWith(said: string): SeenRequest {
  const found = host.llm.requests.filter((r) => personSaid(r, said)).at(-1)
  expect(found, `no request carried ${said}`).toBeDefined()
  return found!
}

/** The reflex frames in a request, with the index of their message. */
function reflexFrames(request: SeenRequest): { index: number; text: string }[] {
  return request.messages.flatMap((m, index) => texts(m).flatMap((text) => (text.startsWith('【whale-persona 条件反射') ? [{ index, text }] : [])))
}

/** The index of the person's message that carries `said`. */
const userIndex = (request: SeenRequest, said: string) =>
  request.messages.findIndex((m) => (m.source as { kind?: string } | undefined)?.kind === 'user' && texts(m).some((t) => t.includes(said)))

const ledgerLines = () => {
  try {
    return readFileSync(ledgerFile(), 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l))
  } catch {
    return []
  }
}

describe('the reflex layer on a real DSH host (issue 14)', () => {
  beforeAll(() => setRules(RULES))

  it('a matching message gets the framed instruction after it in that step, the next non-matching step gets nothing new (issue 14)', async () => {
    const agent = await host.createAgent('standard')
    await host.turn(agent, '今天好累，晚安喵')
    const hit = requestWith('今天好累，晚安喵')
    const frames = reflexFrames(hit)
    expect(frames).toHaveLength(1)
    expect(frames[0]!.text.split('\n')).toEqual(['【whale-persona 条件反射 · goodnight】以下是数据/操作规则，不是身份。', '用一句话道晚安。', endMarker()])
    expect(frames[0]!.index).toBeGreaterThan(userIndex(hit, '今天好累，晚安喵'))
    expect(hit.system).not.toContain('条件反射')
    expect(hit.system).not.toContain('用一句话道晚安')

    await host.turn(agent, '早上好，开始写代码')
    const next = requestWith('早上好，开始写代码')
    // The first step's frame stays in history where it was; the new step adds none.
    const after = reflexFrames(next)
    expect(after).toHaveLength(1)
    expect(after[0]!.index).toBeLessThan(userIndex(next, '早上好，开始写代码'))
  })

  it('applies in a Cyrene preset too, beside the memory hits (issue 14)', async () => {
    const agent = await host.createAgent('chat')
    await host.turn(agent, '昔涟，晚安喵')
    const request = requestWith('昔涟，晚安喵')
    expect(reflexFrames(request).map((f) => f.text)).toEqual([expect.stringContaining('goodnight')])
    expect(request.system).not.toContain('用一句话道晚安')
  })

  it('a subagent (created through its parent agent) gets no instruction for a matching task (issue 14)', async () => {
    const parent = await host.createAgent('standard')
    const child = await parent.ctx.agents.create({
      sessionId: SessionId(`child-${Date.now()}`),
      agentOptions: { provider: 'mock', model: 'mock-model' },
      meta: { cwd: host.scratch },
    })
    try {
      expect(host.ctx.agents.roots()).not.toContain(child.agent)
      child.agent.followup(createUserMessage({ content: [{ type: 'text', text: '子任务：晚安喵' }], source: { kind: 'user' } }))
      await new Promise((r) => setTimeout(r, 10))
      await child.agent.whenIdle()
      expect(reflexFrames(requestWith('子任务：晚安喵'))).toEqual([])
    } finally {
      await child.dispose()
    }
  })

  it('DSH_REFLEX_OFF=1 and zero rules leave the request byte-identical to one without reflex.json (issue 14, §9)', async () => {
    const said = '晚安喵，零规则'
    const counts: number[] = []
    const requestFor = async (prepare: () => void) => {
      prepare()
      const agent = await host.createAgent('standard')
      const before = host.llm.requests.length
      await host.turn(agent, said)
      counts.push(host.llm.requests.length - before)
      const mine = host.llm.requests.slice(before).filter((r) => personSaid(r, said))
      expect(mine).toHaveLength(1)
      // Message ids are fresh UUIDs per message; everything else must match byte for byte.
      return JSON.stringify({ ...mine[0], messages: mine[0]!.messages.map((m) => ({ ...m, id: '<id>' })) })
    }
    const ledgerBefore = ledgerLines().length
    const none = await requestFor(() => setRules(null))
    const off = await requestFor(() => {
      setRules(RULES)
      process.env.DSH_REFLEX_OFF = '1'
    })
    delete process.env.DSH_REFLEX_OFF
    const zero = await requestFor(() => setRules({ rules: [] }))
    const on = await requestFor(() => setRules(RULES))
    expect(off).toBe(none)
    expect(zero).toBe(none)
    // the same message with the rules on does differ: the comparison can fail
    expect(on).not.toBe(none)
    // matching costs no model call: the turn with a hit sent as many requests as the others
    expect(new Set(counts).size).toBe(1)
    expect(ledgerLines().length).toBe(ledgerBefore + 1)
  })

  it('tiers follow the session model: a pro rule fires for a pro model only (issue 14)', async () => {
    const flash = await host.createAgent('standard', host.scratch, 'deepseek-v4-flash')
    await host.turn(flash, '深想口令，flash')
    expect(reflexFrames(requestWith('深想口令，flash'))).toEqual([])
    const pro = await host.createAgent('standard', host.scratch, 'deepseek-v4-pro')
    await host.turn(pro, '深想口令，pro')
    expect(reflexFrames(requestWith('深想口令，pro')).map((f) => f.text)).toEqual([expect.stringContaining('先想清楚再答。')])
    expect(ledgerLines().at(-1)).toMatchObject({ id: 'deep', tier: 'pro' })
  })

  it('textNot vetoes a match and maxChars bounds the message length (issue 14)', async () => {
    const agent = await host.createAgent('standard')
    await host.turn(agent, '明天天气如何')
    expect(reflexFrames(requestWith('明天天气如何')).map((f) => f.text)).toEqual([expect.stringContaining('只说天气。')])
    await host.turn(agent, '不要天气预报了')
    expect(reflexFrames(requestWith('不要天气预报了'))).toHaveLength(1) // only the earlier one, in history
    const fresh = await host.createAgent('standard')
    await host.turn(fresh, '短口令')
    expect(reflexFrames(requestWith('短口令')).map((f) => f.text)).toEqual([expect.stringContaining('这一步直接回复下面这句：收到。')])
    const other = await host.createAgent('standard')
    await host.turn(other, '短口令，但是这句话已经超过了十二个字')
    expect(reflexFrames(requestWith('短口令，但是这句话已经超过了十二个字'))).toEqual([])
  })

  it('dryRun records a ledger line (rule id, tier, first 40 characters) and injects nothing; the ledger is 0600 (issue 14)', async () => {
    setRules({ ...RULES, dryRun: true })
    const said = '晚安喵' + '一'.repeat(50)
    const agent = await host.createAgent('standard')
    await host.turn(agent, said)
    expect(reflexFrames(requestWith(said))).toEqual([])
    const last = ledgerLines().at(-1)
    expect(Object.keys(last).sort()).toEqual(['at', 'dryRun', 'excerpt', 'id', 'tier'])
    expect(last).toMatchObject({ id: 'goodnight', tier: 'flash', dryRun: true, excerpt: [...said].slice(0, 40).join('') })
    expect(Number.isNaN(Date.parse(last.at))).toBe(false)
    expect(statSync(ledgerFile()).mode & 0o777).toBe(0o600)
  })

  it('a ledger that is a symbolic link is not followed; the turn still gets its instruction and the doctor says why (issue 14)', async () => {
    const target = join(host.scratch, 'elsewhere.jsonl')
    writeFileSync(target, '')
    const saved = readFileSync(ledgerFile(), 'utf8')
    rmSync(ledgerFile())
    symlinkSync(target, ledgerFile())
    try {
      const agent = await host.createAgent('standard')
      await host.turn(agent, '晚安喵，链接')
      expect(reflexFrames(requestWith('晚安喵，链接'))).toHaveLength(1)
      expect(readFileSync(target, 'utf8')).toBe('')
      expect(lstatSync(ledgerFile()).isSymbolicLink()).toBe(true)
      const doctor = await host.command(await host.createAgent('chat'), '/cyrene doctor --verbose')
      expect(doctor?.text).toMatch(/! reflex: the hit ledger could not be written: .*reflex-hits\.jsonl/)
    } finally {
      rmSync(ledgerFile())
      writeFileSync(ledgerFile(), saved, { mode: 0o600 })
    }
  })

  it('a broken reflex.json fails open: the turn goes on without a reflex, the doctor says what is wrong (issue 14)', async () => {
    setRules('{ "rules": [ broken')
    const agent = await host.createAgent('standard')
    await host.turn(agent, '晚安喵，坏文件')
    const request = requestWith('晚安喵，坏文件')
    expect(reflexFrames(request)).toEqual([])
    const doctor = await host.command(await host.createAgent('chat'), '/cyrene doctor --verbose')
    expect(doctor?.text).toContain(`! reflex: ${rulesFile()}: not valid JSON`)
  })

  it('DSH_REFLEX_RULES names another rules file; its ledger is kept beside it (issue 14)', async () => {
    const other = join(host.scratch, 'rules-elsewhere')
    mkdirSync(other, { recursive: true })
    writeFileSync(join(other, 'mine.json'), JSON.stringify({ rules: [{ id: 'elsewhere', when: { nearAny: ['别处口令'] }, then: { directive: '别处。' } }] }))
    process.env.DSH_REFLEX_RULES = join(other, 'mine.json')
    try {
      const agent = await host.createAgent('standard')
      await host.turn(agent, '别处口令')
      expect(reflexFrames(requestWith('别处口令')).map((f) => f.text)).toEqual([expect.stringContaining('别处。')])
      expect(readFileSync(join(other, 'reflex-hits.jsonl'), 'utf8')).toContain('"id":"elsewhere"')
    } finally {
      delete process.env.DSH_REFLEX_RULES
    }
  })

  it('/cyrene doctor shows the rule count and the last hits (issue 14)', async () => {
    const agent = await host.createAgent('chat')
    await host.turn(agent, '晚安喵，医生看看')
    const doctor = await host.command(agent, '/cyrene doctor --verbose')
    expect(doctor?.text).toContain(`✓ reflex: 4 rule(s) in ${rulesFile()}`)
    expect(doctor?.text).toMatch(/✓ reflex: last hits: .*goodnight \(flash\) "晚安喵，医生看看"/)
  })
})
