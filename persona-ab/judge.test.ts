import { describe, expect, it } from 'vitest'
import { judgePrompt, parseJudgement } from './judge.ts'
import type { RunResult } from './report.ts'
import { parseScenario } from './scenario.ts'

const scenario = parseScenario('id: x\ntitle: 失去\nwatch: 是否先陪伴\nturns: [小橘走了]\n', 'x.yml')
const run = (version: 'base' | 'change', reply: string): RunResult => ({
  scenario: 'x',
  version,
  ok: true,
  commands: [],
  transcript: { system: '', turns: [{ user: '小橘走了', reply, toolCalls: [], injected: [] }] },
})

describe('the judge', () => {
  it('sees both replies as A and B, the rubric and the JSON shape, never which one is new', () => {
    const prompt = judgePrompt(scenario, run('change', '我在这里陪你。'), run('base', '节哀顺变。'))
    expect(prompt.indexOf('我在这里陪你。')).toBeLessThan(prompt.indexOf('节哀顺变。'))
    expect(prompt).toContain('honest_about_memory')
    expect(prompt).not.toMatch(/\bbase\b|\bchange\b|旧版|新版/)
  })

  it('reads scores out of an answer with text around the JSON; out-of-range scores are dropped', () => {
    const j = parseJudgement('x', '好的：{"A": {"in_character": 5, "five_virtues": 9}, "B": {"in_character": 2}, "reasoning": "A 更像她"} 以上')
    expect(j).toEqual({ scenario: 'x', ok: true, scores: { A: { in_character: 5 }, B: { in_character: 2 } }, reasoning: 'A 更像她' })
  })

  it('an answer without usable JSON is a failed judgement that says why', () => {
    expect(parseJudgement('x', '我觉得 A 更好')).toMatchObject({ ok: false, error: expect.stringContaining('did not answer with JSON') })
    expect(parseJudgement('x', '{"A": 1, "B": {}}')).toMatchObject({ ok: false, error: 'the judge gave no 1–5 scores for A and B' })
    expect(parseJudgement('x', '{"A": {')).toMatchObject({ ok: false })
  })
})
