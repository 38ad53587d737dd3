import { describe, expect, it } from 'vitest'
import { readReportMark } from '../memory/person.ts'
import { renderHtml, renderMarkdown, type Report } from './report.ts'
import { parseScenario } from './scenario.ts'

const scenario = (id: string) => parseScenario(`id: ${id}\ntitle: 标题 ${id}\nwatch: 看 <b>这个</b>\nturns: [你好]\n`, `${id}.yml`)
const turn = (reply: string) => ({ system: '', turns: [{ user: '你好 <script>', reply, toolCalls: [], injected: [] }] })

const report: Report = {
  createdAt: '2026-11-30T00:00:00.000Z',
  seed: 7,
  model: 'cyrene-demo/demo',
  versions: { base: { source: 'HEAD~1', fingerprint: 'sha256:old' }, change: { source: 'working tree', fingerprint: 'sha256:new' } },
  scenarios: [scenario('a'), scenario('b')],
  sides: { a: { A: 'change', B: 'base' }, b: { A: 'base', B: 'change' } },
  runs: [
    { scenario: 'a', version: 'base', ok: true, commands: [], transcript: turn('旧版在 a 的回答') },
    { scenario: 'a', version: 'change', ok: true, commands: [], transcript: turn('新版在 a 的回答') },
    { scenario: 'b', version: 'base', ok: true, commands: [], transcript: turn('旧版在 b 的回答') },
    { scenario: 'b', version: 'change', ok: false, error: 'timed out', commands: [] },
  ],
  judgements: [],
}

describe('the A/B report', () => {
  it('HTML: each scenario shows A then B as the sides say; which is which only in the reveal at the end; text escaped', () => {
    const html = renderHtml(report)
    const a = html.slice(html.indexOf('<section id="a">'), html.indexOf('<section id="b">'))
    expect(a.indexOf('新版在 a 的回答')).toBeLessThan(a.indexOf('旧版在 a 的回答'))
    const b = html.slice(html.indexOf('<section id="b">'), html.indexOf('<details id="reveal">'))
    expect(b.indexOf('旧版在 b 的回答')).toBeLessThan(b.indexOf('失败：timed out'))
    // The mark line (an HTML comment) names both fingerprints but not the sides; the page itself reveals nothing before the end.
    const body = html.slice(html.indexOf('<h1>'), html.indexOf('<details id="reveal">'))
    expect(body).not.toContain('sha256:new')
    expect(body).not.toContain('(change)')
    expect(html.slice(html.indexOf('<details id="reveal">'))).toContain('sha256:new')
    expect(html).not.toContain('<script>')
    expect(html).toContain('看 &#60;b&#62;这个&#60;/b&#62;')
    expect(html).toContain('1 次失败')
  })

  it('both open with the persona diff being judged, escaped, before the first scenario (issue 22)', () => {
    const diff = '--- base/persona/chat.md\n+++ change/persona/chat.md\n@@ -1 +1,2 @@\n 你好\n+她会先问一句 <再> 回答。'
    const html = renderHtml({ ...report, personaDiff: diff })
    const at = html.indexOf('<div id="persona-diff">')
    expect(at).toBeGreaterThan(0)
    expect(at).toBeLessThan(html.indexOf('<section id="a">'))
    expect(html).toContain('<span class="add">+她会先问一句 &#60;再&#62; 回答。</span>')
    expect(renderHtml({ ...report, personaDiff: '' })).toContain('完全相同')
    const md = renderMarkdown({ ...report, personaDiff: diff })
    expect(md.indexOf('+她会先问一句 <再> 回答。')).toBeLessThan(md.indexOf('## a'))
  })

  it('both files carry the fingerprints `cyrene volume new --ab-report` reads', () => {
    for (const text of [renderHtml(report), renderMarkdown(report)])
      expect(readReportMark(text)).toMatchObject({ base: 'sha256:old', change: 'sha256:new', seed: 7 })
  })

  it('markdown: the same order, the failure named, the reveal table last', () => {
    const md = renderMarkdown(report)
    expect(md.indexOf('新版在 a 的回答')).toBeLessThan(md.indexOf('旧版在 a 的回答'))
    expect(md).toContain('**失败**：timed out')
    expect(md.trimEnd().split('\n').at(-1)).toBe('| b | base | change |')
  })
})
