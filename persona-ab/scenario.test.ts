import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadScenarios, parseScenario, ScenarioError } from './scenario.ts'

const SHIPPED = join(import.meta.dirname, 'scenarios')

describe('persona A/B scenarios', () => {
  it('the shipped set: 20 scenarios, each with its turns, both presets, Chinese and English, the situations issue 15 names', () => {
    const all = loadScenarios(SHIPPED)
    expect(all).toHaveLength(20)
    expect(new Set(all.map((s) => s.preset))).toEqual(new Set(['chat', 'cyrene-work']))
    expect(all.filter((s) => /[A-Za-z]{3,}/.test(s.turns[0] as string) && !/[\u4e00-\u9fff]/.test(s.turns[0] as string)).length).toBeGreaterThanOrEqual(2)
    for (const id of [
      '01-long-absence',
      '02-grief',
      '03-happy-news',
      '04-forget-request',
      '05-boundary',
      '06-work-tool',
      '07-plan-mode',
      '08-old-memory',
      '09-nickname-change',
      '10-injection-in-memory',
      '11-unknowable',
    ])
      expect(all.map((s) => s.id)).toContain(id)
    expect(all.find((s) => s.id === '07-plan-mode')?.commands).toEqual(['/plan'])
    expect(all.find((s) => s.id === '08-old-memory')?.memories[0]?.at).toBe('2024-08-17')
  })

  it('--only keeps the named ones and refuses an id that does not exist', () => {
    expect(loadScenarios(SHIPPED, ['02-grief']).map((s) => s.id)).toEqual(['02-grief'])
    expect(() => loadScenarios(SHIPPED, ['02-grief', '99-nope'])).toThrow(/no scenario with the id 99-nope/)
  })

  it('a broken scenario file is refused with its name and what to fix', () => {
    const cases: Array<[string, RegExp]> = [
      ['id: a\ntitle: t\nwatch: w\n', /turns must be a list of texts \(at least one\)/],
      ['id: a\ntitle: t\nwatch: w\npreset: standard\nturns: [hi]\n', /preset must be one of chat, cyrene-work/],
      ['id: a\ntitle: t\nwatch: w\nturns: [hi]\nmemories:\n  - text: x\n    at: yesterday\n', /memories\[0\]\.at must be a day/],
      ['id: a\ntitle: t\nwatch: w\nturns: [hi]\nfiles:\n  ../escape.md: x\n', /a path inside the workspace/],
      ['id: a\ntitle: t\nwatch: w\nturns: [hi]\ncommands: [plan]\n', /must start with \//],
      ['id: A B\ntitle: t\nwatch: w\nturns: [hi]\n', /id must be lowercase/],
      ['id: [unclosed\n', /not valid YAML/],
    ]
    for (const [text, message] of cases) {
      expect(() => parseScenario(text, 'x.yml')).toThrow(ScenarioError)
      expect(() => parseScenario(text, 'x.yml')).toThrow(message)
    }
  })

  it('two files with one id are refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenarios-'))
    try {
      for (const f of ['a.yml', 'b.yml']) writeFileSync(join(dir, f), 'id: same\ntitle: t\nwatch: w\nturns: [hi]\n')
      expect(() => loadScenarios(dir)).toThrow(/two scenarios have the id same/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
