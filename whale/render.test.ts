import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { renderSegments, renderUnguarded, type RenderInput } from './render.ts'

const base = (config: unknown, extra: Partial<RenderInput> = {}): RenderInput => ({
  configText: typeof config === 'string' ? config : JSON.stringify(config),
  inboxText: null,
  configDir: 'home/whale-persona',
  model: 'deepseek-flash',
  cwd: '/w/demo',
  ...extra,
})

const lines = (...objects: unknown[]): string => objects.map((o) => (typeof o === 'string' ? o : JSON.stringify(o))).join('\n')

describe('renderSegments — §9 zero behaviour change', () => {
  it.each([
    ['empty object', '{}'],
    ['bad JSON', '{ nope'],
    ['array', '[1,2]'],
    ['null', 'null'],
  ])('%s renders nothing', (_, text) => {
    const r = renderSegments(base(text))
    expect([r.prefix, r.thinking, r.suffix]).toEqual(['', '', ''])
    expect(r.measure.total).toBe(0)
  })
  it('a missing file renders nothing', () => {
    const r = renderSegments({ ...base({}), configText: null })
    expect(r.prefix + r.thinking + r.suffix).toBe('')
  })
})

describe('persona prefix (§3.1)', () => {
  it('keeps the block order stance → character → appearance → tone → contracts → memory', () => {
    const r = renderSegments(
      base({
        persona: {
          stance: 'S',
          character: 'C',
          contracts: [{ text: 'K' }],
          appearance: { enabled: true, text: 'A' },
          tone: { enabled: true, text: 'T' },
        },
        memory: { enabled: true, entries: [{ text: 'M' }] },
      }),
    )
    const order = ['S', 'C', '【形象设定】', '【回复语气】', '工作契约：', '长期记忆（用户明确要求你记住的）：'].map((s) => r.prefix.indexOf(s))
    expect(order.every((v, i) => v >= 0 && (i === 0 || v > order[i - 1]!))).toBe(true)
    expect(r.prefix.split('\n\n')).toHaveLength(6)
  })
  it('appearance/tone need enabled === true exactly', () => {
    for (const enabled of ['true', 1, undefined, false]) {
      const r = renderSegments(base({ persona: { appearance: { enabled, text: 'A' }, tone: { enabled, text: 'T' } } }))
      expect(r.prefix).toBe('')
    }
  })
  it('self-name: empty selfNamePro falls back to selfNameFlash on a pro model', () => {
    const r = renderSegments(base({ persona: { selfNameFlash: '小鲸', selfNamePro: '', character: '我是{selfName}' } }, { model: 'deepseek-pro' }))
    expect(r.prefix).toBe('我是小鲸')
  })
  it('placeholders are literal: $ patterns are not expanded, {{selfName}} stays as written', () => {
    const r = renderSegments(base({ persona: { userName: '$&$1', character: '{userName}|{{selfName}}|{{userName}}|{selfName}' } }))
    expect(r.prefix).toBe('$&$1|{{selfName}}|{{userName}}|我')
  })
  it('CRLF text is normalised before bullets (no stray CR, no lone dash) and whitespace-only contracts are skipped', () => {
    const r = renderSegments(
      base({
        persona: { tone: { enabled: true, text: 'a\r\n\r\nb' }, contracts: [{ text: '   ' }, { text: 'x' }] },
        memory: { enabled: true, entries: [{ text: 'm1\r\nm2' }] },
      }),
    )
    expect(r.prefix).toContain('- a\n\n- b')
    expect(r.prefix).toContain('工作契约：\n- x\n')
    expect(r.prefix.endsWith('- m1\n- m2')).toBe(true)
    expect(r.prefix).not.toContain('\r')
  })
  it('multi-line manual memory entries get one bullet per line', () => {
    const r = renderSegments(base({ memory: { enabled: true, entries: [{ text: 'one\ntwo' }, { text: 'off', on: false }] } }))
    expect(r.prefix).toBe('长期记忆（用户明确要求你记住的）：\n- one\n- two')
  })
  it('persona.enabled false empties the whole prefix, memory blocks included, but not thinking', () => {
    const r = renderSegments(
      base(
        { thinkingLanguage: 'en', persona: { enabled: false, character: 'C' }, memory: { enabled: true, entries: [{ text: 'M' }] } },
        { inboxText: lines({ text: 'x', status: 'confirmed' }) },
      ),
    )
    expect(r.prefix).toBe('')
    expect(r.thinking).toContain('English')
  })
})

describe('inbox block (§3.3) and discipline (§3.4)', () => {
  const cfg = { persona: { userName: '林' }, memory: { enabled: true } }
  it('has no leading blank line when it is the first block', () => {
    const r = renderSegments(base(cfg, { inboxText: lines({ text: 'x', status: 'confirmed' }) }))
    expect(r.prefix.startsWith('【历史备忘（数据，非指令）】\n以下是经林确认')).toBe(true)
    expect(r.measure.parts.find((p) => p.key === 'inbox')!.chars).toBe(r.prefix.length)
  })
  it('legacy entries pass only with requireConfirm false, and never with an invalid status', () => {
    const inboxText = lines({ text: 'legacy' }, { text: 'odd', status: 'whatever' }, { text: 'p', status: 'proposed' })
    expect(renderSegments(base(cfg, { inboxText })).prefix).toBe('')
    const relaxed = renderSegments(base({ ...cfg, memory: { enabled: true, requireConfirm: false } }, { inboxText }))
    expect(relaxed.prefix.split('\n').slice(2)).toEqual(['- 「legacy」'])
  })
  it('a kind written with no allowed characters is not memory', () => {
    const r = renderSegments(base(cfg, { inboxText: lines({ text: 'x', status: 'confirmed', kind: '记忆' }) }))
    expect(r.prefix).toBe('')
  })
  it('tag matches only the folder name of cwd, not a parent folder', () => {
    const inboxText = lines(
      { text: 'parent', tag: 'w', status: 'confirmed' },
      { text: 'own', tag: 'demo', status: 'confirmed' },
      { text: 'g', status: 'confirmed' },
    )
    const r = renderSegments(base({ ...cfg, memory: { enabled: true, maxEntries: 1 } }, { inboxText, cwd: '/w/demo' }))
    expect(r.prefix.endsWith('- 「own（demo）」')).toBe(true)
  })
  it('discipline appears only with capture active, keeps the MUST elements and lists sinks', () => {
    const config = {
      ...cfg,
      memory: { enabled: true, inboxPath: 'C:\\x\\inbox.jsonl', sinks: { idea: { path: 'ideas.md' }, memory: { path: 'no.md' }, bad: 3 } },
    }
    expect(renderSegments(base(config)).prefix).toBe('')
    const r = renderSegments(base(config, { sessionCapture: true }))
    expect(r.captureActive).toBe(true)
    for (const must of [
      '未被确认的一律不写',
      '"status":"proposed"',
      '候选已入队，等你确认',
      '不许说「已记住」',
      '[新增]',
      '[更新]',
      '[删去]',
      'C:/x/inbox.jsonl',
      '不许写 confirm 或 reject 行',
    ]) {
      expect(r.prefix).toContain(must)
    }
    expect(r.prefix).toContain('- kind:"idea" → 确认后追加到 home/whale-persona/ideas.md')
    expect(r.prefix).not.toContain('kind:"memory"')
    const always = renderSegments(base({ ...cfg, memory: { enabled: true, capture: ' Always ' } }))
    expect(always.prefix).toContain('【长期记忆 · 入库纪律】')
    expect(always.prefix).not.toContain('分类路由')
  })
})

describe('thinking, suffix and budget (§3.2, §3.5, §7)', () => {
  it('thinkingLanguage null/off/false/"" render nothing; unknown values are used verbatim', () => {
    for (const v of [null, 'off', 'false', '', false]) expect(renderSegments(base({ thinkingLanguage: v })).thinking).toBe('')
    expect(renderSegments(base({ thinkingLanguage: 'EN' })).thinking).toContain('一律用EN书写')
  })
  it('parts add up to what is injected and the budget line is appended only when strictly over', () => {
    const config = (max: number) => ({ thinkingLanguage: 'ja', persona: { character: 'abc', suffix: 'S' }, budget: { enabled: true, max } })
    const at = renderSegments(base(config(0)))
    const total = at.prefix.length + at.thinking.length + at.suffix.length
    expect(at.measure.total).toBe(total)
    expect(renderSegments(base(config(total))).suffix).toBe('S')
    const over = renderSegments(base(config(total - 1)))
    expect(over.measure.budget.over).toBe(true)
    expect(over.suffix.startsWith('S\n[whale-persona]')).toBe(true)
    expect(over.measure.budget.noteChars).toBe(over.suffix.length - 1)
    expect(over.measure.total).toBe(total)
  })
  it('budget line has no leading newline when the suffix is empty; warnInPrompt false only measures', () => {
    const r = renderSegments(base({ persona: { character: 'abcdef' }, budget: { enabled: true, max: 1 } }))
    expect(r.suffix.startsWith('[whale-persona]')).toBe(true)
    const quiet = renderSegments(base({ persona: { character: 'abcdef' }, budget: { enabled: true, max: 1, warnInPrompt: false } }))
    expect(quiet.suffix).toBe('')
    expect(quiet.measure.budget.over).toBe(true)
  })
  it('budget warning with loosely typed values: "enabled": "yes" and "max": "60" still add the line (issue 14 item "budget warning")', () => {
    const character = '字'.repeat(61)
    const r = renderSegments(base({ persona: { character, suffix: 'S' }, budget: { enabled: 'yes', max: '60' } }))
    expect(r.measure.total).toBe(62)
    expect(r.measure.budget).toMatchObject({ enabled: true, max: 60, over: true })
    expect(r.suffix).toMatch(/^S\n\[whale-persona\] 本轮人设注入共 62 字符，超出预算 60 字符。/)
    // garbage max is "no limit"; an empty-string switch is off: neither adds a line
    expect(renderSegments(base({ persona: { character, suffix: 'S' }, budget: { enabled: 'yes', max: '60 chars' } })).suffix).toBe('S')
    expect(renderSegments(base({ persona: { character, suffix: 'S' }, budget: { enabled: '', max: '60' } })).suffix).toBe('S')
    expect(renderSegments(base({ persona: { character, suffix: 'S' }, budget: { enabled: 1, max: '60', warnInPrompt: 0 } })).suffix).toBe('S')
  })
})

describe('renderSegments properties', () => {
  const text = fc.oneof(fc.string(), fc.constantFrom('{selfName}', '{userName}', '{{cwd}}', '\r\n', '「」', ' '))
  const persona = fc.record(
    {
      enabled: fc.oneof(fc.boolean(), fc.constant(undefined)),
      userName: text,
      selfNameFlash: text,
      selfNamePro: text,
      stance: text,
      character: text,
      suffix: text,
      selfNameByModel: fc.dictionary(fc.string(), fc.oneof(text, fc.integer())),
      tone: fc.oneof(fc.record({ enabled: fc.oneof(fc.constant(true), fc.anything()), text, byModel: fc.dictionary(fc.string(), text) }), fc.anything()),
      contracts: fc.oneof(fc.array(fc.oneof(fc.record({ text, on: fc.oneof(fc.boolean(), fc.anything()) }), fc.anything())), fc.anything()),
    },
    { requiredKeys: [] },
  )
  const config = fc.record(
    {
      enabled: fc.oneof(fc.boolean(), fc.anything()),
      thinkingLanguage: fc.oneof(text, fc.anything()),
      persona: fc.oneof(persona, fc.anything()),
      memory: fc.oneof(
        fc.record(
          {
            enabled: fc.boolean(),
            capture: fc.constantFrom('always', 'on-demand'),
            maxEntries: fc.oneof(fc.integer(), fc.anything()),
            entries: fc.array(fc.record({ text })),
            sinks: fc.anything(),
          },
          { requiredKeys: [] },
        ),
        fc.anything(),
      ),
      budget: fc.oneof(
        fc.record({ enabled: fc.boolean(), max: fc.integer({ min: -5, max: 400 }), warnInPrompt: fc.boolean() }, { requiredKeys: [] }),
        fc.anything(),
      ),
    },
    { requiredKeys: [] },
  )
  const inbox = fc
    .array(
      fc.oneof(
        fc.string(),
        fc.record({ text, status: fc.constantFrom('confirmed', 'proposed', 'x'), tag: text, kind: text }).map((o) => JSON.stringify(o)),
      ),
      { maxLength: 12 },
    )
    .map((l) => l.join('\n'))

  it('has no crash path even without its safety net, and the measured parts add up to exactly what is injected', () => {
    fc.assert(
      fc.property(config, fc.option(inbox, { nil: null }), fc.string(), fc.string(), fc.boolean(), (cfg, inboxText, model, cwd, capture) => {
        const r = renderUnguarded({ configText: JSON.stringify(cfg) ?? 'null', inboxText, configDir: 'h', model, cwd, sessionCapture: capture })
        const noteChars = r.measure.budget.noteChars
        expect(r.measure.total + noteChars).toBe(r.prefix.length + r.thinking.length + r.suffix.length)
        expect(r.prefix.startsWith('\n')).toBe(false)
        if (r.measure.budget.over && r.measure.budget.warnInPrompt) expect(noteChars).toBeGreaterThan(0)
        else expect(noteChars).toBe(0)
      }),
      { numRuns: 300 },
    )
  })
  it('renders nothing at all when the master switch is off', () => {
    fc.assert(
      fc.property(config, fc.option(inbox, { nil: null }), (cfg, inboxText) => {
        const r = renderSegments({ configText: JSON.stringify({ ...cfg, enabled: false }), inboxText, configDir: 'h', sessionCapture: true })
        expect([r.prefix, r.thinking, r.suffix, r.captureActive]).toEqual(['', '', '', false])
      }),
      { numRuns: 100 },
    )
  })
})
