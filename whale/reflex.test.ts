import { describe, expect, it } from 'vitest'
import {
  foldForMatch,
  lastLedgerRecords,
  ledgerRecord,
  matchReflex,
  parseReflexRules,
  reflexBody,
  reflexInstruction,
  reflexLedgerFile,
  reflexProblems,
} from './reflex.ts'

const rules = (list: unknown[], extra: object = {}) => parseReflexRules(JSON.stringify({ rules: list, ...extra }))

describe('parseReflexRules', () => {
  it('is zero rules for a missing, bad or empty file', () => {
    for (const t of [null, '{', '[]', '{}']) expect(parseReflexRules(t).rules).toEqual([])
  })
  it('drops rules without an id or an action', () => {
    expect(rules([{ id: 'a', then: {} }, { then: { reply: 'x' } }, { id: 'ok', then: { directive: 'd' } }]).rules.map((r) => r.id)).toEqual(['ok'])
  })
  it('reads dryRun and enabled', () => {
    expect(rules([], { dryRun: true, enabled: false })).toMatchObject({ dryRun: true, enabled: false })
  })
})

describe('matchReflex (§8)', () => {
  const set = rules([
    { id: 'low', priority: 1, when: { text: '^hi$' }, then: { reply: 'low' } },
    { id: 'greet', priority: 5, when: { text: '^(hi|hello)$' }, then: { reply: '你好' } },
    { id: 'near', when: { nearAny: ['你是机器人吗'] }, then: { directive: 'd' } },
    { id: 'bag', when: { keywords: ['模型', '身份', '机器人'], minHits: 2, textNot: '代码' }, then: { directive: 'k' } },
    { id: 'pro-only', when: { tier: 'pro', text: 'deep' }, then: { directive: 'p' } },
    { id: 'short', when: { text: 'x', maxChars: 3 }, then: { directive: 's' } },
    { id: 'once', oncePerSession: true, when: { text: 'once' }, then: { directive: 'o' } },
    { id: 'broken', when: { text: '(' }, then: { directive: 'never' } },
  ])
  const hit = (text: string, model = 'deepseek-flash', fired?: Set<string>) => matchReflex(set, { text, model, ...(fired ? { fired } : {}) })

  it('higher priority wins; a regex is case-insensitive', () => {
    expect(hit('HI')).toMatchObject({ rule: { id: 'greet' }, channel: 'text', soft: false })
  })
  it('nearAny matches folded text (full width, spaces, punctuation)', () => {
    expect(hit('请问，你是 机器人吗？？')).toMatchObject({ rule: { id: 'near' }, channel: 'nearAny' })
  })
  it('keywords are a soft hit, vetoed by textNot', () => {
    expect(hit('这个模型的身份是什么')).toMatchObject({ rule: { id: 'bag' }, soft: true })
    expect(hit('这个模型的身份写在代码里')).toBeNull()
  })
  it('respects tier, maxChars and oncePerSession; an invalid regex matches nothing', () => {
    expect(hit('deep')).toBeNull()
    expect(hit('deep', 'deepseek-pro')).toMatchObject({ rule: { id: 'pro-only' } })
    expect(hit('xx')).toMatchObject({ rule: { id: 'short' } })
    expect(hit('xxxx')).toBeNull()
    expect(hit('once', 'm', new Set(['once']))).toBeNull()
    expect(hit('(')).toBeNull()
  })
  it('does nothing when disabled', () => {
    expect(matchReflex(rules([{ id: 'a', when: { text: 'a' }, then: { reply: 'r' } }], { enabled: false }), { text: 'a', model: '' })).toBeNull()
  })
  it('soft instructions carry the escape phrase; the ledger keeps 40 characters', () => {
    const h = hit('这个模型的身份是什么')!
    expect(reflexInstruction(h)).toContain('不符就完全忽略本条')
    const long = '字'.repeat(50)
    expect(ledgerRecord(h, { text: long, model: 'x-pro' }, 't', true)).toEqual({ at: 't', id: 'bag', tier: 'pro', excerpt: '字'.repeat(40), dryRun: true })
  })
  it('folds form only', () => {
    expect(foldForMatch('ＡＢ c，D!')).toBe('abcd')
  })
})

describe('reflexProblems, the ledger file and its newest lines (issue 14)', () => {
  it('says what is wrong with a rules file in words a person can act on (issue 14)', () => {
    expect(reflexProblems(null)).toEqual([])
    expect(reflexProblems('{"rules":[{"id":"a","then":{"reply":"x"}}]}')).toEqual([])
    expect(reflexProblems('{ broken')).toEqual([expect.stringContaining('not valid JSON')])
    expect(reflexProblems('[]')).toEqual([expect.stringContaining('not a JSON object')])
    expect(reflexProblems('{"rules":{}}')).toEqual([expect.stringContaining('"rules" is not a list')])
    expect(reflexProblems('{"rules":[{"id":"a"},{"id":"b","when":{"text":"("},"then":{"reply":"x"}}]}')).toEqual([
      expect.stringContaining('1 rule(s) ignored'),
      expect.stringContaining('rule "b": when.text is not a valid regular expression'),
    ])
  })

  it('keeps the ledger beside whichever rules file is used (issue 14)', () => {
    expect(reflexLedgerFile('/h/whale-persona/reflex.json')).toBe('/h/whale-persona/reflex-hits.jsonl')
    expect(reflexLedgerFile('/elsewhere/my-rules.json')).toBe('/elsewhere/reflex-hits.jsonl')
  })

  it('reads the newest well-formed ledger lines, skipping a torn or foreign one (issue 14)', () => {
    const line = (id: string) => JSON.stringify({ at: '2026-01-01T00:00:00.000Z', id, tier: 'flash', excerpt: id, dryRun: false })
    const text = [line('a'), '{"torn', line('b'), '{"other":1}', line('c'), ''].join('\n')
    expect(lastLedgerRecords(text, 2).map((r) => r.id)).toEqual(['b', 'c'])
    expect(lastLedgerRecords(text, 9).map((r) => r.id)).toEqual(['a', 'b', 'c'])
    expect(lastLedgerRecords('', 3)).toEqual([])
  })

  it('reflexInstruction is the heading plus reflexBody, as before (issue 14)', () => {
    const hit = matchReflex(rules([{ id: 'r', when: { keywords: ['a', 'b'] }, then: { reply: 'R', directive: 'D' } }]), { text: 'a b', model: '' })!
    expect(reflexInstruction(hit)).toBe(`[whale-persona 条件反射 · r]\n${reflexBody(hit)}`)
    expect(reflexBody(hit)).toBe('这一步直接回复下面这句：R\nD\n这是按关键词的软匹配：不符就完全忽略本条。')
  })
})
