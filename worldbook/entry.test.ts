import { describe, expect, it } from 'vitest'
import { formatEntry, parseEntry } from './entry.ts'

const parse = (text: string) => parseEntry('name', text, 'person', '/x/name.md')

describe('entry files', () => {
  it('reads the front matter and the body; yes/no and comma lists are understood', () => {
    const r = parse(
      '---\ntitle: 翁法罗斯\nkeys: 翁法罗斯，Amphoreus, 永恒之地\nsecondary_keys: [昔涟]\nsecondary_logic: NOT ANY\nconstant: no\npriority: 7\nenabled: yes\n---\n\n正文一行。\n第二行。\n',
    )
    expect(r).toEqual({
      entry: {
        name: 'name',
        title: '翁法罗斯',
        keys: ['翁法罗斯', 'Amphoreus', '永恒之地'],
        secondaryKeys: ['昔涟'],
        logic: 'not-any',
        constant: false,
        priority: 7,
        enabled: true,
        body: '正文一行。\n第二行。',
        source: 'person',
        file: '/x/name.md',
      },
      warnings: [],
    })
  })

  it('defaults: title = file name, priority 100, enabled, not constant, AND ANY; a BOM and CRLF are fine', () => {
    const r = parse('\uFEFF---\r\nkeys: [a]\r\n---\r\nbody\r\n')
    expect('entry' in r && r.entry).toMatchObject({ title: 'name', priority: 100, enabled: true, constant: false, logic: 'and-any', body: 'body' })
  })

  it.each([
    ['no front matter', 'just text', 'no front matter'],
    ['bad YAML', '---\nkeys: [a\n---\nbody', 'not valid YAML'],
    ['a list, not fields', '---\n- a\n- b\n---\nbody', 'must be fields'],
    ['constant maybe', '---\nkeys: [a]\nconstant: maybe\n---\nbody', 'constant must be yes or no'],
    ['priority text', '---\nkeys: [a]\npriority: high\n---\nbody', 'priority must be a number'],
    ['unknown logic', '---\nkeys: [a]\nsecondary_logic: sometimes\n---\nbody', 'secondary_logic must be one of'],
    ['keys of objects', '---\nkeys: [{a: 1}]\n---\nbody', 'keys must be a list of words'],
    ['no keys, not constant', '---\ntitle: x\n---\nbody', 'no keys and not constant'],
    ['empty body', '---\nkeys: [a]\n---\n\n', 'the body is empty'],
  ])('skips a file with %s, saying why', (_what, text, why) => {
    const r = parse(text)
    expect('skipped' in r && r.skipped).toContain(why)
  })

  it('an empty front matter is still one: the entry is skipped for what it lacks, not for its shape', () => {
    const r = parse('---\n---\nbody\n')
    expect('skipped' in r && r.skipped).toContain('no keys and not constant')
  })

  it('a switched-off entry needs neither keys nor body (it overrides a starter entry); unknown fields warn', () => {
    const r = parse('---\nenabled: no\nkey: [typo]\n---\n')
    expect('entry' in r && r.entry.enabled).toBe(false)
    expect('entry' in r && r.warnings[0]).toContain('unknown field "key"')
  })

  it('formatEntry writes a file that parses back to the same fields', () => {
    const fields = {
      title: '标题: 带冒号 #与井号',
      keys: ['a, b', '钥匙'],
      secondaryKeys: ['x'],
      logic: 'and-all' as const,
      constant: false,
      priority: 42,
      enabled: true,
      body: '正文 {{char}}\r\n第二行',
    }
    const r = parse(formatEntry(fields))
    expect('entry' in r && r.entry).toMatchObject({ ...fields, body: '正文 {{char}}\n第二行' })
  })

  it('a pattern key the worldbook cannot run is named in the warnings (the doctor shows them); one it runs is not (decision 333)', () => {
    const r = parse('---\nkeys: ["/cat(?=s)/", "/\\\\bdogs?\\\\b/i", 猫]\n---\n猫。\n')
    expect('entry' in r && r.entry.keys).toEqual(['/cat(?=s)/', '/\\bdogs?\\b/i', '猫'])
    expect('entry' in r && r.warnings).toEqual([expect.stringContaining('key "/cat(?=s)/" is a pattern the worldbook cannot run')])
  })

  it('a pattern key with commas, brackets and quotes survives formatEntry and parses back', () => {
    const keys = ['/\\b(cat|kitten){1,2}s?\\b/i', '/"quoted", [x]/']
    const r = parse(formatEntry({ title: 't', keys, secondaryKeys: [], logic: 'and-any', constant: false, priority: 100, enabled: true, body: 'b' }))
    expect('entry' in r && r.entry.keys).toEqual(keys)
  })
})
