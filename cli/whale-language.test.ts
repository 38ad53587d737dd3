import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { otherLanguage } from '../tests/harness/language.ts'
import { CliError, memoryIO } from './io.ts'
import { run as runCli } from './main.ts'

/**
 * Issue 22: every `cyrene whale …` sub-command's own lines — render's frame,
 * presets, inbox, reflex, conformance's summary, and `cyrene migrate
 * --from-whale` — in the person's language only (zh by LANG, en by --lang).
 * What is not ours is taken out before the check: paths, ids, a preset's
 * label, the card's field names and whale/'s own notes (read from --json), the
 * inbox's texts, the manifest's case ids. The bytes the whale format fixes
 * (--json, the exported files) are the same in both languages.
 */
const repo = path.resolve(import.meta.dirname, '..')
const temps: string[] = []
afterEach(() => {
  while (temps.length) rmSync(temps.pop()!, { recursive: true, force: true })
})

function home(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'whale-lang-'))
  temps.push(dir)
  const put = (rel: string, value: unknown) => {
    mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true })
    writeFileSync(path.join(dir, rel), typeof value === 'string' ? value : JSON.stringify(value))
  }
  put('home/whale-persona/config.json', {
    persona: { character: 'live persona' },
    memory: { enabled: true, sinks: { idea: { path: 'out/ideas.md' } } },
    budget: { enabled: true, max: 10 },
  })
  put(
    'home/whale-persona/memory-inbox.jsonl',
    ['m1', 'm2', 'm3'].map((text) => JSON.stringify({ text, status: 'proposed' })).join('\n') +
      '\n' +
      JSON.stringify({ text: 'idea one', status: 'proposed', kind: 'idea' }) +
      '\n' +
      JSON.stringify({ text: 'lost', status: 'proposed', kind: 'dream' }) +
      '\n',
  )
  put('card.json', { spec: 'chara_card_v2', spec_version: '2.0', data: { name: 'Marin', description: 'a sailor', system_prompt: 'be kind' } })
  return dir
}

async function whale(dir: string, argv: string[], lang: 'zh' | 'en', words = ['whale']): Promise<string> {
  // zh from the locale variable, en from --lang: both ways a person picks it.
  const io = memoryIO({ DSH_HOME: path.join(dir, 'home'), ...(lang === 'zh' ? { LANG: 'zh_CN.UTF-8' } : {}) }, dir)
  try {
    await runCli([...words, ...argv, ...(lang === 'en' ? ['--lang', 'en'] : [])], io)
    return io.out() + io.err()
  } catch (error) {
    if (error instanceof CliError) return io.out() + io.err() + error.message + '\n'
    throw error
  }
}

/** The text without what is not ours, the longest first. */
const without = (text: string, data: string[]) => [...data].sort((a, b) => b.length - a.length).reduce((s, d) => (d === '' ? s : s.split(d).join(' ')), text)

describe('cyrene whale in the person’s language (issue 22)', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`${lang}: render, presets, inbox, reflex, conformance and migrate --from-whale`, async () => {
      const dir = home()
      const said: Record<string, string> = {}
      said.render = await whale(dir, ['render'], lang)
      // The segments are what the model reads, fixed by the spec (its budget reminder is the spec's Chinese): data here.
      const segments = JSON.parse(await whale(dir, ['render', '--json'], lang)) as { prefix: string; thinking: string; suffix: string }
      said.presetsNone = await whale(dir, ['presets', 'list'], lang)
      said.save = await whale(dir, ['presets', 'save', 'mine', 'My', 'label'], lang)
      said.list = await whale(dir, ['presets', 'list'], lang)
      said.apply = await whale(dir, ['presets', 'apply', 'mine'], lang)
      said.give = await whale(dir, ['presets', 'export'], lang)
      said.exported = await whale(dir, ['presets', 'export', 'mine', 'out.json'], lang)
      said.exists = await whale(dir, ['presets', 'export', 'mine', 'out.json'], lang)
      const card = JSON.parse(await whale(dir, ['presets', 'import', 'card.json', '--dry-run', '--json'], lang)) as {
        notes: string[]
        mapped: string[]
        unmapped: string[]
      }
      said.wouldImport = await whale(dir, ['presets', 'import', 'card.json', '--dry-run'], lang)
      said.imported = await whale(dir, ['presets', 'import', 'card.json'], lang)
      said.unchanged = await whale(dir, ['presets', 'import', 'card.json'], lang)
      said.badId = await whale(dir, ['presets', 'import', 'card.json', '--id', 'no good'], lang)
      said.deleted = await whale(dir, ['presets', 'delete', 'mine'], lang)
      said.inbox = await whale(dir, ['inbox', 'list'], lang)
      said.confirm = await whale(dir, ['inbox', 'confirm', '0', '3', '4'], lang)
      said.drop = await whale(dir, ['inbox', 'drop', '0'], lang)
      said.reject = await whale(dir, ['inbox', 'reject', '0', '1'], lang)
      said.reflex = await whale(dir, ['reflex', 'check', 'hello'], lang)
      said.conformance = await whale(dir, ['conformance', path.join(repo, 'tests', 'fixtures', 'whale-sample'), '--case', 'R01-empty-config'], lang)
      said.migrate = await whale(dir, ['--from-whale', '--dry-run'], lang, ['migrate'])
      const data = [
        dir,
        segments.prefix,
        segments.thinking,
        segments.suffix,
        ...card.notes,
        ...card.mapped,
        ...card.unmapped,
        'whale-persona',
        'tavern-v2',
        'R01-empty-config',
        'render',
        'My label',
        'live persona',
        'idea one',
        'memory.sinks',
        'DSH_REFLEX_OFF=1',
        'deployment:persona-prefix',
        'whale:thinking-language',
        'deployment:persona-suffix',
      ]
      for (const [surface, text] of Object.entries(said)) {
        expect(text.trim(), surface).not.toBe('')
        expect({ surface, found: otherLanguage(lang, without(text, data)) }).toEqual({ surface, found: [] })
      }
      // Each is the catalogue's own sentence, not a fallback.
      if (lang === 'zh') {
        expect(said.render).toMatch(/ · 共 \d+ 字 · 预算 10（超了） · 采集关/)
        expect(said.confirm).toContain('确认了 3 条。')
        expect(said.conformance).toContain('1/1 个用例通过')
        expect(said.imported).toContain('已把一张 tavern-v2/v3 角色卡导入成「marin」')
      } else {
        expect(said.render).toMatch(/ · total \d+ chars · budget 10 \(over\) · capture off/)
        expect(said.confirm).toContain('Confirmed 3 entries.')
        expect(said.conformance).toContain('1/1 cases pass')
        expect(said.imported).toContain('Imported a tavern-v2/v3 card as "marin"')
      }
    })
  }

  for (const lang of ['zh', 'en'] as const) {
    it(`${lang}: what whale/ itself refuses and notes (decision 085)`, async () => {
      const dir = home()
      const put = (rel: string, text: string | Buffer) => writeFileSync(path.join(dir, rel), text)
      put('rich.json', JSON.stringify({ spec: 'chara_card_v2', data: { name: 'Rich', description: 'd', first_mes: 'hi', extensions: { other: { x: 1 } } } }))
      put('broken.png', Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('not chunks')]))
      mkdirSync(path.join(dir, 'empty'))
      const said: Record<string, string> = {}
      said.missing = await whale(dir, ['presets', 'show', 'nope'], lang)
      said.notes = await whale(dir, ['presets', 'import', 'rich.json', '--dry-run'], lang)
      said.png = await whale(dir, ['presets', 'import', 'broken.png'], lang)
      said.outside = await whale(dir, ['inbox', 'confirm', '99'], lang)
      said.notIndex = await whale(dir, ['inbox', 'drop', 'x'], lang)
      said.manifest = await whale(dir, ['conformance', path.join(dir, 'empty')], lang)
      said.worldbook = await whale(dir, ['import', path.join(dir, 'broken.png')], lang, ['worldbook'])
      put('home/whale-persona/config.json', '[1]')
      await whale(dir, ['presets', 'import', 'card.json'], lang)
      said.apply = await whale(dir, ['presets', 'apply', 'marin'], lang)
      const data = [dir, 'first_mes', 'data.first_mes', 'other', 'config.json', 'nope', 'x', 'chara', 'ccv3', 'IEND', 'manifest.json']
      for (const [surface, text] of Object.entries(said)) {
        expect(text.trim(), surface).not.toBe('')
        expect({ surface, found: otherLanguage(lang, without(text, data)) }).toEqual({ surface, found: [] })
      }
      const expected = {
        zh: {
          missing: '里没有预设 "nope"',
          notes: '导入从不会启用这个人设',
          png: '读不了这张 PNG 卡',
          outside: '序号 99 超出了收件箱',
          notIndex: '"x" 不是序号',
          manifest: '里没有 manifest.json',
          worldbook: '这个 PNG 在某个块的头部被截断了',
          apply: 'config.json 里不是一个 JSON 对象',
        },
        en: {
          missing: 'no preset "nope" in',
          notes: 'An import never switches the persona on',
          png: 'cannot read the PNG card',
          outside: 'index 99 is outside the inbox',
          notIndex: '"x" is not an index',
          manifest: 'no manifest.json in',
          worldbook: 'the PNG is truncated inside a chunk header',
          apply: 'config.json does not hold a JSON object',
        },
      }[lang]
      for (const [surface, words] of Object.entries(expected)) expect(said[surface], surface).toContain(words)
      expect(said.notes).toContain(lang === 'zh' ? '扩展 other 原样保留' : 'Kept extensions other unchanged')
    })
  }

  it('the bytes the whale format fixes are the same in both languages (--json, an exported file)', async () => {
    const zh = home()
    const en = home()
    for (const argv of [
      ['render', '--json'],
      ['inbox', 'list', '--json'],
      ['presets', 'import', 'card.json', '--dry-run', '--json'],
    ])
      expect(without(await whale(zh, argv, 'zh'), [zh])).toBe(without(await whale(en, argv, 'en'), [en]))
  })
})
