import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseEntry } from './entry.ts'
import { fileNameFor, ImportFormatError, planImport } from './sillytavern.ts'

const fixture = JSON.parse(readFileSync(new URL('../tests/fixtures/worldbook/st-world.json', import.meta.url), 'utf8'))

describe('SillyTavern World Info import', () => {
  const plan = planImport(fixture)
  const by = (name: string) => plan.entries.find((e) => e.name === name)!

  it('maps every field: keys, secondary keys and logic, constant, order, disable, comment, content', () => {
    expect(by('翁法罗斯').fields).toEqual({
      title: '翁法罗斯',
      keys: ['翁法罗斯', 'Amphoreus'],
      secondaryKeys: ['昔涟'],
      logic: 'not-any',
      constant: false,
      priority: 150,
      enabled: true,
      body: '故乡。\n第二行。',
    })
    expect(by('常驻设定').fields).toMatchObject({ constant: true, priority: 100, keys: [] })
    expect(by('关掉的').fields.enabled).toBe(false)
    expect(by('全都要').fields).toMatchObject({ logic: 'and-all', secondaryKeys: ['a', 'b'] })
    expect(by('不全').fields.logic).toBe('not-all')
  })

  it('each written file parses back to the same entry', () => {
    for (const e of plan.entries) {
      const r = parseEntry(e.name, e.text, 'person', e.name)
      expect('entry' in r && r.entry).toMatchObject(e.fields)
    }
  })

  it('regex keys are dropped with a note; an entry left without keys is kept switched off', () => {
    expect(by('正则').fields).toMatchObject({ keys: [], enabled: false })
    expect(by('正则').notes.join(' ')).toContain('regular expression')
  })

  it('secondary keys with selective off are dropped, as SillyTavern ignores them', () => {
    expect(by('非选择').fields.secondaryKeys).toEqual([])
    expect(by('非选择').notes.join(' ')).toContain('selective is off')
  })

  it('an entry without content is refused; names are made safe and unique', () => {
    expect(plan.refused).toEqual([{ origin: 'entries.9', why: 'no content: nothing to show the model' }])
    expect(plan.entries.map((e) => e.name)).toContain('a b c')
    expect(plan.entries.map((e) => e.name)).toContain('翁法罗斯-2')
    expect(fileNameFor('../../etc/passwd')).toBe('etc passwd')
    expect(fileNameFor('...')).toBe('')
  })

  it('a character card’s book (entries as a list, v2 names) imports too', () => {
    const card = { data: { character_book: { entries: [{ keys: ['k'], secondary_keys: [], content: 'c', insertion_order: 5, enabled: true, name: '卡' }] } } }
    expect(planImport(card).entries[0]!.fields).toMatchObject({ title: '卡', keys: ['k'], priority: 5, enabled: true })
  })

  it('a file that is not World Info is refused as a whole', () => {
    expect(() => planImport([1, 2])).toThrow(ImportFormatError)
    expect(() => planImport({ name: 'x' })).toThrow(/no "entries"/)
  })
})
