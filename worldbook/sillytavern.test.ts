import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseEntry } from './entry.ts'
import { matchEntries } from './match.ts'
import { entryLine, roomForOne } from './render.ts'
import { fileNameFor, ImportFormatError, planImport } from './sillytavern.ts'

/** The codes of notes (the command line words them: i18n/worldbook.ts). */
const codes = (notes: { code: string }[]) => notes.map((n) => n.code)

function formatCode(action: () => unknown): string | undefined {
  try {
    action()
  } catch (e) {
    if (e instanceof ImportFormatError) return e.note.code
    throw e
  }
  return undefined
}

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
      wholeWords: false,
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

  it('a /…/flags key stays a pattern, as SillyTavern reads it, and the matching line says so (decision 333)', () => {
    expect(by('正则').fields).toMatchObject({ keys: ['/昔.+涟/i'], enabled: true })
    expect(by('正则').notes).toEqual([])
    expect(by('正则').matching.code).toBe('match-keys-patterns')
    expect(by('非选择').matching.code).toBe('match-keys')
  })

  it('a pattern the worldbook cannot run (look-ahead, a back-reference) is dropped with the reason; an entry left without keys is kept switched off (decision 333)', () => {
    const [ahead] = planImport({ entries: { 0: { key: ['/cat(?=s)/i'], content: '猫。' } } }).entries
    expect(ahead!.fields).toMatchObject({ keys: [], enabled: false })
    expect(codes(ahead!.notes)).toEqual(['pattern-unsupported', 'no-keys'])
    expect(ahead!.notes[0]!.params).toMatchObject({ key: '"/cat(?=s)/i"', why: expect.stringContaining('(?=') })
    const [back] = planImport({ entries: { 0: { key: ['/(a)\\1/', '猫'], content: '猫。' } } }).entries
    expect(back!.fields.keys).toEqual(['猫'])
    expect(codes(back!.notes)).toEqual(['pattern-unsupported'])
    // A key JavaScript refuses as a pattern is plain text in SillyTavern, and so here.
    const [text] = planImport({ entries: { 0: { key: ['/usr/bin'], content: '路径。' } } }).entries
    expect(text!.fields.keys).toEqual(['/usr/bin'])
  })

  it('secondary keys with selective off are dropped, as SillyTavern ignores them', () => {
    expect(by('非选择').fields.secondaryKeys).toEqual([])
    expect(codes(by('非选择').notes)).toContain('secondary-off')
  })

  it('an entry without content is refused; names are made safe and unique', () => {
    expect(plan.refused).toEqual([{ origin: 'entries.9', why: { code: 'no-content' } }])
    expect(plan.entries.map((e) => e.name)).toContain('a b c')
    expect(plan.entries.map((e) => e.name)).toContain('翁法罗斯-2')
    expect(fileNameFor('../../etc/passwd')).toBe('etc passwd')
    expect(fileNameFor('...')).toBe('')
  })

  it('a title Windows keeps for a device, or with direction marks, gives a name every system can hold and shows as it is', () => {
    expect(['con', 'NUL', 'com1', 'aux.txt', 'Lpt9', 'con.'].map(fileNameFor)).toEqual(['con_', 'NUL_', 'com1_', 'aux_.txt', 'Lpt9_', 'con_.'])
    expect(['console', 'com10', 'Null', 'icon'].map(fileNameFor)).toEqual(['console', 'com10', 'Null', 'icon'])
    expect(fileNameFor('\u202egpj.evil')).toBe('gpj.evil')
    expect(fileNameFor('a\u2066b\u2069c\u200bd')).toBe('abcd')
    // The joiners emoji and Persian need stay.
    expect(fileNameFor('👨\u200d👩 می\u200cخواهم')).toBe('👨\u200d👩 می\u200cخواهم')
    const plan = planImport({ entries: { 0: { key: ['k'], comment: 'CON', content: 'c' }, 1: { key: ['k'], comment: 'con_', content: 'd' } } })
    expect(plan.entries.map((e) => e.name)).toEqual(['CON_', 'con_-2'])
  })

  it("a world file's other fields are named as not carried; SillyTavern's copy of a converted card book is not, nor is an empty one", () => {
    const plan = planImport({
      entries: { 0: { key: ['k'], content: 'c' } },
      originalData: { entries: [{ keys: ['k'], content: 'c' }] },
      name: 'Eldoria',
      scan_depth: 3,
      description: '',
    })
    expect(plan.book.map((d) => [d.field, d.value, d.why.code])).toEqual([
      ['name', 'Eldoria', 'not-carried'],
      ['scan_depth', 3, 'not-carried'],
    ])
    expect(planImport({ entries: { 0: { key: ['k'], content: 'c' } } }).book).toEqual([])
  })

  it('a comment that is an object or a list gives no title; the name, then the first key, stand in (decision 294)', () => {
    const plan = planImport({
      entries: {
        0: { key: ['港口'], comment: { x: 1 }, content: 'a' },
        1: { key: ['k'], comment: ['l'], name: 'Named', content: 'b' },
        2: { key: ['k2'], comment: 7, content: 'c' },
      },
    })
    expect(plan.entries.map((e) => e.name)).toEqual(['港口', 'Named', '7'])
  })

  it('a long title of wide characters stays well inside a file name (255 bytes), whole characters only', () => {
    const dragons = fileNameFor('🐉'.repeat(59))
    expect(Buffer.byteLength(dragons)).toBeLessThanOrEqual(150)
    expect(dragons).toBe('🐉'.repeat(37))
    expect(fileNameFor('翁法罗斯'.repeat(20))).toBe('翁法罗斯'.repeat(12) + '翁法')
    const long = planImport({ entries: { 0: { key: ['k'], comment: '🐉'.repeat(59), content: 'x\n'.repeat(400) } } })
    for (const e of long.entries) expect(Buffer.byteLength(`${e.name}.md.tmp-99999-abcdefgh`)).toBeLessThan(255)
  })

  it('a character card’s book (entries as a list, v2 names) imports too', () => {
    const card = { data: { character_book: { entries: [{ keys: ['k'], secondary_keys: [], content: 'c', insertion_order: 5, enabled: true, name: '卡' }] } } }
    expect(planImport(card).entries[0]!.fields).toMatchObject({ title: '卡', keys: ['k'], priority: 5, enabled: true })
  })

  it('a card with its book under extensions (not where SillyTavern reads it) is refused with where it is (decision 294)', () => {
    const book = { entries: [{ keys: ['k'], content: 'c', enabled: true, insertion_order: 1 }] }
    const refusal = (card: unknown) => {
      try {
        planImport(card)
      } catch (e) {
        return (e as ImportFormatError).note
      }
      return undefined
    }
    expect(refusal({ spec: 'chara_card_v2', data: { name: 'N', description: 'd', extensions: { character_book: book } } })).toEqual({
      code: 'format-card-book-elsewhere',
      params: { at: 'data.extensions.character_book' },
    })
    expect(refusal({ name: 'N', first_mes: 'hi', extensions: { character_book: book } })).toMatchObject({ params: { at: 'extensions.character_book' } })
    expect(refusal({ spec: 'chara_card_v2', data: { name: 'N', extensions: { world: 'Eldoria' } } })).toEqual({ code: 'format-card-no-book' })
  })

  it('a file that is not World Info is refused as a whole', () => {
    expect(() => planImport([1, 2])).toThrow(ImportFormatError)
    expect(formatCode(() => planImport({ name: 'x' }))).toBe('format-no-entries')
    expect(formatCode(() => planImport(42))).toBe('format-not-object')
  })

  it('newer SillyTavern’s card-book fields are known (named with what happens instead), empty or off ones are not listed, and V3 use_regex keys are dropped as regular expressions', () => {
    const card = {
      spec: 'chara_card_v3',
      data: {
        character_book: {
          entries: [
            {
              keys: ['港口'],
              content: '港口的灯塔彻夜亮着。',
              enabled: true,
              insertion_order: 100,
              use_regex: false,
              extensions: {
                ignore_budget: true,
                triggers: ['normal'],
                match_persona_description: true,
                outlet_name: '',
                automation_id: '',
                match_scenario: false,
              },
            },
            { keys: ['^灯塔$'], content: '正则键。', enabled: true, insertion_order: 100, use_regex: true, extensions: {} },
          ],
        },
      },
    }
    const [plain, regex] = planImport(card).entries
    const codesOf = (e: typeof plain) => e!.notCarried.map((d) => [d.field, d.why.code])
    expect(codesOf(plain)).toEqual([
      ['extensions.triggers', 'triggers'],
      ['extensions.ignore_budget', 'ignore-budget'],
      ['extensions.match_persona_description', 'match-elsewhere'],
    ])
    expect(regex!.fields.keys).toEqual([])
    expect(regex!.fields.enabled).toBe(false)
    expect(codes(regex!.notes)).toEqual(['regex-key', 'no-keys'])
  })

  it('a card SillyTavern exported (use_regex: true on every entry) keeps its plain keys; a key with pattern characters is still dropped', () => {
    const entry = (keys: string[], secondary: string[] = []) => ({
      keys,
      secondary_keys: secondary,
      content: '灯塔彻夜亮着。',
      enabled: true,
      selective: true,
      insertion_order: 100,
      use_regex: true,
      extensions: { selectiveLogic: 0 },
    })
    const card = {
      spec: 'chara_card_v2',
      data: { name: 'Mira', character_book: { entries: [entry(['lighthouse', '灯塔'], ['night']), entry(['harbou?r', 'dock'])] } },
    }
    const [plain, mixed] = planImport(card).entries
    expect(plain!.fields).toMatchObject({ keys: ['lighthouse', '灯塔'], secondaryKeys: ['night'], enabled: true })
    expect(codes(plain!.notes)).toEqual([])
    expect(mixed!.fields).toMatchObject({ keys: ['dock'], enabled: true })
    expect(mixed!.notes).toEqual([{ code: 'regex-key', params: { key: '"harbou?r"' } }])
  })

  it('a card book SillyTavern itself exported (use_regex: true beside its extensions) keeps keys with pattern characters as text, as SillyTavern reads them (decision 322)', () => {
    const st = (keys: string[], extensions: object = { selectiveLogic: 0, useProbability: true, depth: 4, position: 1, display_index: 0 }) => ({
      keys,
      content: 'Dr. Lin runs the clinic by the harbour.',
      enabled: true,
      insertion_order: 100,
      use_regex: true,
      extensions,
    })
    const card = (entry: object) => planImport({ spec: 'chara_card_v2', data: { name: 'Mira', character_book: { entries: [entry] } } }).entries[0]!
    const exported = card(st(['Dr. Lin', 'C++', 'St. Mary?', '/clinic/i']))
    // A /…/ key is a pattern in SillyTavern too: kept as one (decision 333).
    expect(exported.fields).toMatchObject({ keys: ['Dr. Lin', 'C++', 'St. Mary?', '/clinic/i'], enabled: true })
    expect(exported.notes).toEqual([])
    // Without SillyTavern's extensions (a V3 editor that means the flag), pattern keys are still dropped.
    const editor = card(st(['Dr. Lin', 'clinic'], { depth: 4 }))
    expect(editor.fields.keys).toEqual(['clinic'])
    expect(codes(editor.notes)).toEqual(['regex-key'])
  })

  it('@@activate and @@dont_activate at the top of the text act as SillyTavern reads them, and every leading @@ line leaves the text', () => {
    const plan = planImport({
      entries: {
        0: { key: ['moon'], comment: 'Moon', content: '@@activate\r\nThe moon is always here.' },
        1: { key: ['sun'], comment: 'Sun', constant: true, content: '@@dont_activate\nThe sun never comes.' },
        2: { key: ['star'], comment: 'Star', content: '@@depth 0\n@@@activate\nStar text.' },
        3: { key: ['comet'], comment: 'Comet', content: '@@@activate\nComet text.\n@@activate' },
        4: { key: ['tide'], comment: 'Tide', content: ' @@activate\nTide text.' },
      },
    })
    const [moon, sun, star, comet, tide] = plan.entries
    expect(moon!.fields).toMatchObject({ constant: true, enabled: true, body: 'The moon is always here.' })
    expect(codes(moon!.notes)).toEqual(['decorator-activate'])
    expect(sun!.fields).toMatchObject({ constant: true, enabled: false, body: 'The sun never comes.' })
    expect(codes(sun!.notes)).toEqual(['decorator-dont-activate'])
    // A fallback (@@@) after an unknown decorator is read: SillyTavern's own order.
    expect(star!.fields).toMatchObject({ constant: true, enabled: true, body: 'Star text.' })
    expect(star!.notes).toEqual([{ code: 'decorator-activate' }, { code: 'decorators-dropped', params: { lines: '"@@depth 0"' } }])
    // A fallback with nothing unknown before it is not; a decorator below the text is text.
    expect(comet!.fields).toMatchObject({ constant: false, body: 'Comet text.\n@@activate' })
    expect(comet!.notes).toEqual([{ code: 'decorators-dropped', params: { lines: '"@@@activate"' } }])
    expect(tide!.fields).toMatchObject({ constant: false, body: '@@activate\nTide text.' })
  })

  it('a card whose book keys its entries by id is read with the card names', () => {
    const card = {
      spec: 'chara_card_v2',
      data: { name: 'O', character_book: { entries: { 7: { keys: ['港口'], content: '灯塔。', enabled: true, insertion_order: 10 } } } },
    }
    const [entry] = planImport(card).entries
    expect(entry!.fields).toMatchObject({ keys: ['港口'], enabled: true, priority: 10 })
    expect(entry!.origin).toBe('entries.7')
    expect(entry!.notCarried).toEqual([])
  })

  it('SillyTavern’s {{char}} and {{user}} are kept as written, and the entry says so', () => {
    const [entry] = planImport({ entries: { 0: { key: ['k'], content: '{{char}} 在港口等 {{user}}，{{Char}} 不急。' } } }).entries
    expect(entry!.fields.body).toBe('{{char}} 在港口等 {{user}}，{{Char}} 不急。')
    expect(entry!.notes).toContainEqual({ code: 'macros-kept', params: { macros: '{{char}}, {{user}}' } })
    expect(codes(planImport({ entries: { 0: { key: ['k'], content: '没有宏 {{cwd}}' } } }).entries[0]!.notes)).not.toContain('macros-kept')
  })

  it('<BOT> and <USER>, the older forms, are named as well', () => {
    const [entry] = planImport({ entries: { 0: { key: ['k'], content: '<BOT> 在港口等 <user>。' } } }).entries
    expect(entry!.notes).toContainEqual({ code: 'macros-kept', params: { macros: '<BOT>, <USER>' } })
  })

  it('a title with line breaks is written on one line, and the file reads back', () => {
    const [entry] = planImport({ entries: { 0: { key: ['Eldoria'], comment: 'Eldoria\n(the kingdom)\r\n- old', content: '王国。' } } }).entries
    expect(entry!.fields.title).toBe('Eldoria (the kingdom) - old')
    const read = parseEntry(entry!.name, entry!.text, 'person', `${entry!.name}.md`)
    expect('entry' in read ? read.entry.title : read.skipped).toBe('Eldoria (the kingdom) - old')
  })

  it('on and off are read as SillyTavern reads them: disable == true, a truthy constant, a card book’s !enabled', () => {
    const world = (fields: Record<string, unknown>) => planImport({ entries: { 0: { key: ['k'], content: '正文', ...fields } } }).entries[0]!.fields
    expect(world({ disable: 1 }).enabled).toBe(false)
    expect(world({ disable: '1' }).enabled).toBe(false)
    expect(world({ disable: 'true' }).enabled).toBe(true)
    expect(world({ disable: 0 }).enabled).toBe(true)
    expect(world({ constant: 1, key: [] })).toMatchObject({ constant: true, enabled: true })
    expect(world({ constant: 0 }).constant).toBe(false)
    expect(world({ matchWholeWords: 'true' }).wholeWords).toBe(true)
    expect(world({ caseSensitive: 1 }).caseSensitive).toBe(true)
    const card = (entry: Record<string, unknown>) =>
      planImport({ spec: 'chara_card_v2', data: { name: 'c', character_book: { entries: [{ keys: ['k'], content: '正文', ...entry }] } } }).entries[0]!.fields
    expect(card({ enabled: 0 }).enabled).toBe(false)
    expect(card({ enabled: null }).enabled).toBe(false)
    expect(card({ enabled: true }).enabled).toBe(true)
    // A v2 entry must say `enabled`; one that does not is kept on rather than lost unasked (decision 136).
    expect(card({}).enabled).toBe(true)
  })

  it('a probability written as text is named like a number', () => {
    const [entry] = planImport({ entries: { 0: { key: ['k'], content: '正文', probability: '30' } } }).entries
    expect(entry!.notCarried.map((d) => d.field)).toContain('probability')
  })

  it('an order that is no number gets the default priority and says so; a number written as text is read as one', () => {
    const [odd, texty, card] = planImport({
      entries: {
        0: { key: ['k'], content: 'a', order: 'abc' },
        1: { key: ['k'], content: 'b', order: '40' },
        2: { key: ['k'], content: 'c', order: { n: 1 } },
      },
    }).entries
    expect(odd!.fields.priority).toBe(100)
    expect(odd!.notCarried).toContainEqual({ field: 'order', value: 'abc', why: { code: 'order-not-number', params: { priority: 100 } } })
    expect(texty!.fields.priority).toBe(40)
    expect(texty!.notCarried.map((d) => d.field)).not.toContain('order')
    expect(card!.notCarried.map((d) => d.field)).toContain('order')
  })

  it('keys given as one string are split at commas, but a whole /…/flags is one regular expression', () => {
    const [regex] = planImport({ entries: { 0: { key: '/dragons?{1,2}/i', content: '龙。' } } }).entries
    expect(regex!.fields.keys).toEqual(['/dragons?{1,2}/i'])
    expect(planImport({ entries: { 0: { key: '港口, 灯塔', content: '灯。' } } }).entries[0]!.fields.keys).toEqual(['港口', '灯塔'])
  })

  it('an AND entry whose secondary keys were all patterns the worldbook cannot run is written switched off, not left to fire on its primary keys alone', () => {
    const book = (logic: number, secondary: string[]) =>
      planImport({ entries: { 0: { key: ['港口'], keysecondary: secondary, selective: true, selectiveLogic: logic, content: '只在夜里说。' } } }).entries[0]!
    const and = book(0, ['/夜(?=晚)/'])
    expect(and.fields.enabled).toBe(false)
    expect(and.notes).toContainEqual({ code: 'no-secondary-keys', params: { logic: 'and-any' } })
    // A plain key left, a pattern it runs, or a NOT logic (dropping an exclusion is said by its note): kept on.
    expect(book(0, ['/夜(?=晚)/', '夜里']).fields.enabled).toBe(true)
    expect(book(0, ['/夜(晚|里)/']).fields).toMatchObject({ enabled: true, secondaryKeys: ['/夜(晚|里)/'] })
    expect(book(2, ['/白(?=天)/']).fields.enabled).toBe(true)
  })

  it("an entry SillyTavern places in no prompt (position 7, an outlet; a position it has no case for) is written switched off with why; 0–6 and a card book's position words stay on (decision 321)", () => {
    const at = (position: unknown, extra: object = {}) =>
      planImport({ entries: { 0: { key: ['港口'], content: '夜里的港口。', position, ...extra } } }).entries[0]!
    const outlet = at(7, { outletName: ' mood ' })
    expect(outlet.fields.enabled).toBe(false)
    expect(outlet.notes).toEqual([{ code: 'position-outlet', params: { name: '"mood"' } }])
    expect(outlet.notCarried.find((d) => d.field === 'position')!.why).toMatchObject({ params: { where: { code: 'position-7' } } })
    for (const odd of ['4', 8, -1, 1.5, 'before_char'])
      expect([odd, at(odd).fields.enabled, at(odd).notes]).toEqual([odd, false, [{ code: 'position-nowhere', params: { value: JSON.stringify(odd) } }]])
    // A constant entry at such a position reached no prompt either.
    expect(at(9, { constant: true }).fields).toMatchObject({ constant: true, enabled: false })
    for (const fine of [0, 1, 2, 3, 4, 5, 6, null, undefined]) expect([fine, at(fine).fields.enabled, codes(at(fine).notes)]).toEqual([fine, true, []])
    // A card book: `extensions.position` is taken as written, its own `position` words always become 0 or 1 there.
    const card = (entry: object) =>
      planImport({ spec: 'chara_card_v2', data: { name: 'n', character_book: { entries: [{ keys: ['港口'], content: '灯。', enabled: true, ...entry }] } } })
        .entries[0]!
    expect(card({ extensions: { position: 7, outlet_name: 'mood' } }).fields.enabled).toBe(false)
    expect(card({ extensions: { position: '4' } }).notes).toEqual([{ code: 'position-nowhere', params: { value: '"4"' } }])
    expect(card({ position: 'somewhere', extensions: { position: null } }).fields.enabled).toBe(true)
    expect(card({ position: 'before_char' }).fields.enabled).toBe(true)
  })

  it('an entry whose roll SillyTavern never passes (useProbability on, probability 0 or below) is written switched off, said once (decision 321)', () => {
    const world = (probability: unknown, useProbability?: unknown) =>
      planImport({ entries: { 0: { key: ['港口'], content: '灯。', probability, ...(useProbability === undefined ? {} : { useProbability }) } } }).entries[0]!
    const never = world(0, true)
    expect(never.fields.enabled).toBe(false)
    expect(never.notes).toEqual([{ code: 'probability-never', params: { value: '0' } }])
    expect(never.notCarried.map((d) => d.field)).not.toContain('probability')
    expect(world('0', 1).fields.enabled).toBe(false)
    expect(world(-5, true).fields.enabled).toBe(false)
    // No roll there: useProbability off, or absent in a world file; any chance above 0 is rolled there and not here (named).
    expect(world(0, false).fields.enabled).toBe(true)
    expect(world(0).fields.enabled).toBe(true)
    expect(world(1, true).fields.enabled).toBe(true)
    expect(world(1, true).notCarried.map((d) => d.why.code)).toContain('probability-ignored')
    // A card book's absent useProbability is on (SillyTavern converts it so), its null probability 100.
    const card = (extensions: object) =>
      planImport({ spec: 'chara_card_v2', data: { name: 'n', character_book: { entries: [{ keys: ['港口'], content: '灯。', enabled: true, extensions }] } } })
        .entries[0]!.fields.enabled
    expect(card({ probability: 0 })).toBe(false)
    expect(card({ probability: null, useProbability: true })).toBe(true)
    expect(card({ probability: 0, useProbability: false })).toBe(true)
  })

  it('an emptied character filter (isExclude alone, no names or tags) filters nothing in SillyTavern and is not named', () => {
    const filter = (characterFilter: object) =>
      planImport({ entries: { 0: { key: ['港口'], content: '灯。', characterFilter } } }).entries[0]!.notCarried.map((d) => d.field)
    expect(filter({ isExclude: false, names: [], tags: [] })).toEqual([])
    expect(filter({ isExclude: true, names: [], tags: [] })).toEqual([])
    expect(filter({ isExclude: false, names: ['Mira'], tags: [] })).toEqual(['characterFilter'])
    expect(filter({ isExclude: true, names: [], tags: ['t1'] })).toEqual(['characterFilter'])
  })

  it('selectiveLogic written as text: "2" is the number (as SillyTavern’s editor saves it); a name or an unknown value is no logic there, so an entry with secondary keys is written switched off (decision 312)', () => {
    const one = (selectiveLogic: unknown, keysecondary: string[] = ['白天']) =>
      planImport({ entries: { 0: { key: ['港口', 'harbour'], keysecondary, selective: true, selectiveLogic, content: '夜里的港口。The harbour at night.' } } })
        .entries[0]!
    expect(one('2').fields).toMatchObject({ logic: 'not-any', enabled: true })
    expect(codes(one(' 3 ').notes)).toEqual([])
    const named = one('NOT_ANY')
    expect(named.fields).toMatchObject({ logic: 'not-any', enabled: false, secondaryKeys: ['白天'] })
    expect(named.notes).toEqual([{ code: 'logic-never', params: { value: '"NOT_ANY"', logic: 'not-any' } }])
    expect(one('and all').fields).toMatchObject({ logic: 'and-all', enabled: false })
    // Without secondary keys SillyTavern never looks at the logic: the entry stays on, the named logic kept.
    expect(one('NOT_ANY', []).fields).toMatchObject({ logic: 'not-any', enabled: true })
    expect(codes(one('NOT_ANY', []).notes)).toEqual([])
    // Not 0–3 there either: a number out of range, a hexadecimal string, true.
    for (const odd of [4, '0x3', true, '']) expect([odd, one(odd).fields.enabled, codes(one(odd).notes)]).toEqual([odd, false, ['logic-never']])
    expect(codes(one(4, []).notes)).toEqual(['logic-unknown'])
    // A card book's extensions.selectiveLogic is read the same way; a constant entry comes in whatever its logic.
    const card = planImport({
      spec: 'chara_card_v2',
      data: {
        name: 'n',
        character_book: {
          entries: [
            {
              keys: ['灯塔'],
              secondary_keys: ['雾'],
              selective: true,
              content: '雾里的灯塔。',
              enabled: true,
              insertion_order: 1,
              extensions: { selectiveLogic: 'AND_ALL' },
            },
            {
              keys: ['灯塔'],
              secondary_keys: ['雾'],
              selective: true,
              constant: true,
              content: '常驻。',
              enabled: true,
              insertion_order: 1,
              extensions: { selectiveLogic: 'AND_ALL' },
            },
          ],
        },
      },
    }).entries
    expect(card.map((e) => [e.fields.logic, e.fields.enabled])).toEqual([
      ['and-all', false],
      ['and-all', true],
    ])
  })

  it('a book marked as another program’s lorebook but without its list of entries is refused, named by its format', () => {
    expect(formatCode(() => planImport({ lorebookVersion: 5, entries: {} }))).toBe('format-other-no-entries')
    expect(formatCode(() => planImport({ type: 'risu', ver: 1, entries: [] }))).toBe('format-other-no-entries')
  })
})

describe('Other programs’ lorebooks, converted as SillyTavern converts them (decision 312)', () => {
  const load = (name: string) => JSON.parse(readFileSync(new URL(`../tests/fixtures/worldbook/${name}`, import.meta.url), 'utf8')) as unknown
  const named = { 'NovelAI lorebook': 'book-novelai', 'Agnai memory book': 'book-agnai', 'RisuAI lorebook': 'book-risu' } as const
  const dropped = (format: keyof typeof named) => ({ code: 'other-format-dropped', params: { format: { code: named[format] } } })

  it('a NovelAI lorebook: keys, text, displayName, enabled and contextConfig.budgetPriority; what SillyTavern leaves is named', () => {
    const plan = planImport(load('novelai-lorebook.json'))
    const [harbour, wen] = plan.entries
    expect(harbour!.name).toBe('雾港 Fog Harbour')
    expect(harbour!.fields).toMatchObject({ keys: ['雾港', 'Fog Harbour'], secondaryKeys: [], constant: false, priority: 400, enabled: true })
    expect(harbour!.fields.body).toBe('雾港是群岛最北的港口，冬天整月不见太阳。\nThe lighthouse keeper rings the bell at dusk.')
    expect(harbour!.kept).toEqual(['keys', 'contextConfig.budgetPriority', 'enabled', 'displayName', 'text'])
    // NovelAI's defaults (suffix "\n", searchRange 1000, a bias group with no phrases…) are not listed.
    expect(harbour!.notCarried).toEqual([{ field: 'contextConfig.tokenBudget', value: 2048, why: dropped('NovelAI lorebook') }])
    expect(harbour!.origin).toBe('entries[0]')
    // No displayName: titled by its first key; no budgetPriority: 0, as SillyTavern converts it; forceActivation is not constant there either.
    expect(wen!.name).toBe('Old Wen')
    expect(wen!.fields).toMatchObject({ priority: 0, enabled: false, constant: false })
    expect(wen!.notCarried.map((d) => d.field)).toEqual(['contextConfig.prefix', 'contextConfig.tokenBudget', 'searchRange', 'forceActivation', 'category'])
    expect(plan.book).toEqual([{ field: 'categories', value: [{ name: '人物 People', id: 'c1', enabled: true }], why: dropped('NovelAI lorebook') }])
  })

  it('an Agnai memory book: keywords, entry, name, enabled and weight; its priority named, an entry without text refused', () => {
    const plan = planImport(load('agnai-memory.json'))
    expect(plan.entries.map((e) => [e.name, e.fields.keys, e.fields.priority, e.fields.enabled])).toEqual([
      ['茶馆', ['茶馆', 'teahouse'], 20, true],
      ['The Owner', ['Madam Lin', '林老板'], 7, false],
    ])
    expect(plan.entries[0]!.fields.body).toBe('晨雾茶馆开在运河边，只卖一种茶。')
    expect(plan.entries[0]!.notCarried).toEqual([{ field: 'priority', value: 10, why: dropped('Agnai memory book') }])
    expect(plan.refused).toEqual([{ origin: 'entries[2]', why: { code: 'no-content' } }])
    expect(plan.book.map((d) => d.field)).toEqual(['name', 'description'])
  })

  it('a RisuAI lorebook: keys split at commas, secondkey, alwaysActive, selective, insertorder, activationPercent', () => {
    const plan = planImport(load('risu-lorebook.json'))
    const by = (name: string) => plan.entries.find((e) => e.name === name)!
    expect(by('星桥').fields).toMatchObject({ keys: ['星桥', 'Star Bridge'], secondaryKeys: [], priority: 100, enabled: true, constant: false })
    expect(by('World rules').fields).toMatchObject({ constant: true, keys: [], priority: 300, enabled: true })
    expect(by('守桥人').fields).toMatchObject({ keys: ['守桥人', 'bridge keeper'], secondaryKeys: ['夜里', 'night'], logic: 'and-any', priority: 50 })
    expect(by('守桥人').notCarried).toContainEqual({ field: 'activationPercent', value: 40, why: { code: 'probability-ignored' } })
    expect(by('守桥人').notCarried).toContainEqual({ field: 'mode', value: 'multiple', why: dropped('RisuAI lorebook') })
    // Its useRegex read as a V3 card's use_regex (decision 303): a pattern is no key here, so the entry is written switched off.
    expect(by('桥头').fields.enabled).toBe(false)
    expect(codes(by('桥头').notes)).toEqual(['regex-key', 'no-keys'])
    expect(plan.entries.map((e) => e.origin)).toEqual(['data[0]', 'data[1]', 'data[2]', 'data[3]'])
    expect(plan.book).toEqual([])
  })

  it('secondary keys of a RisuAI entry count only when it is selective, as SillyTavern reads the converted entry', () => {
    const [entry] = planImport({ type: 'risu', data: [{ key: '灯塔', secondkey: '夜里', content: '灯。' }] }).entries
    expect(entry!.fields.secondaryKeys).toEqual([])
    expect(codes(entry!.notes)).toContain('secondary-off')
  })
})

describe('World Info import says what it did (issue 21)', () => {
  const load = (name: string) => JSON.parse(readFileSync(new URL(`../tests/fixtures/worldbook/${name}`, import.meta.url), 'utf8')) as unknown
  const world = planImport(load('harbour-eldoria-shaped.json'))
  const card = planImport(load('card-with-book.json'))
  const of = (plan: typeof world, origin: string) => plan.entries.filter((e) => e.origin === origin)

  it('every field not carried is named per entry with its value, the book’s settings too', () => {
    const salt = of(world, 'entries.3')[0]!
    expect(salt.notCarried.map((d) => [d.field, d.value])).toEqual([
      ['position', 1],
      ['depth', 2],
      ['probability', 40],
      ['scanDepth', 3],
      ['group', 'roads'],
      ['sticky', 2],
    ])
    expect(salt.notCarried[0]!.why).toEqual({ code: 'position', params: { where: { code: 'position-1' }, place: { code: 'place-hits' } } })
    expect(salt.kept).toEqual(expect.arrayContaining(['matchWholeWords', 'caseSensitive', 'order', 'content']))
    expect(of(card, 'entries[0]')[0]!.notCarried.map((d) => d.field)).toEqual(['extensions.position', 'extensions.depth', 'priority'])
    expect(of(card, 'entries[2]')[0]!.notCarried[0]!.why.params?.place).toEqual({ code: 'place-rail' })
    expect(card.book.map((d) => d.field)).toEqual(['scan_depth', 'token_budget', 'recursive_scanning', 'name'])
  })

  it('an entry longer than its block is split at line breaks into parts that each fit; one paragraph too long is written switched off with its size and the cap', () => {
    const harbour = of(world, 'entries.0')
    expect(harbour.map((e) => e.name)).toEqual(['harbour (1 of 3)', 'harbour (2 of 3)', 'harbour (3 of 3)'])
    expect(harbour.map((e) => e.fields.body).join('\n')).toBe(
      load('harbour-eldoria-shaped.json') && (load('harbour-eldoria-shaped.json') as { entries: Record<string, { content: string }> }).entries['0']!.content,
    )
    for (const e of harbour) expect(entryLine({ ...e.fields, name: e.name, source: 'person', file: '' }).length).toBeLessThanOrEqual(roomForOne(false))
    expect(harbour[0]!.notes.filter((n) => n.code !== 'macros-kept')).toEqual([
      { code: 'split-hits', params: { chars: harbour[0]!.part!.chars, cap: 800, parts: 3 } },
    ])
    const marin = of(world, 'entries.2')
    expect(marin).toHaveLength(1)
    expect(marin[0]!.fields.enabled).toBe(false)
    expect(marin[0]!.notes.filter((n) => n.code !== 'macros-kept')).toEqual([
      { code: 'too-long-hits', params: { chars: expect.any(Number), cap: 800, room: roomForOne(false) } },
    ])
    expect(marin[0]!.notes.find((n) => n.code === 'too-long-hits')!.params!.chars).toBeGreaterThan(roomForOne(false))
  })

  it('a split keeps each part’s lines as written: indentation and the blank lines inside a part stay', () => {
    const paragraph = (n: number) => `# 第${n}节\n\n${'这是一段说明文字。'.repeat(12)}\n  {"op":"replace","path":"/${n}"}`
    const body = [1, 2, 3, 4, 5, 6, 7, 8].map(paragraph).join('\n\n')
    const parts = planImport({ entries: { 0: { key: ['k'], comment: 'rules', content: body } } }).entries
    expect(parts.length).toBeGreaterThan(1)
    for (const part of parts) {
      expect(body).toContain(part.fields.body)
      expect(part.fields.body).toMatch(/\n\n/)
      expect(part.fields.body).toMatch(/\n  \{"op"/)
    }
    expect(parts.map((p) => p.fields.body).join('\n\n')).toBe(body)
  })

  it('keys follow the file’s matchWholeWords, with SillyTavern’s default (substring) when absent; caseSensitive is honoured', () => {
    const beast = of(world, 'entries.1')[0]!
    expect(beast.fields.wholeWords).toBe(false)
    const parsed = parseEntry(beast.name, beast.text, 'person', beast.name)
    const entry = 'entry' in parsed ? parsed.entry : undefined
    expect(matchEntries([entry!], ['the beasts of the bay'])).toHaveLength(1)
    const bay = of(card, 'entries[1]')[0]!
    const bayEntry = parseEntry(bay.name, bay.text, 'person', bay.name)
    const e = 'entry' in bayEntry ? bayEntry.entry : undefined
    expect(e).toMatchObject({ wholeWords: true, caseSensitive: true })
    expect(matchEntries([e!], ['the Beast of the bay'])).toHaveLength(1)
    expect(matchEntries([e!], ['the beast of the bay'])).toHaveLength(0)
    expect(matchEntries([e!], ['the Beasts of the bay'])).toHaveLength(0)
  })

  it('a card book’s entry is selective only when it says so (SillyTavern’s convertCharacterBook)', () => {
    expect(of(card, 'entries[0]')[0]!.fields.secondaryKeys).toEqual(['storm'])
    const loose = planImport({ data: { character_book: { entries: [{ keys: ['k'], secondary_keys: ['s'], content: 'c', enabled: true }] } } })
    expect(loose.entries[0]!.fields.secondaryKeys).toEqual([])
  })

  it('a card without a character_book is refused as holding no World Info', () => {
    expect(formatCode(() => planImport({ spec: 'chara_card_v2', data: { name: 'x' } }))).toBe('format-card-no-book')
  })

  it('a card whose character_book is a list, and a file that is a list, are refused for what they are (decision 294 left this)', () => {
    const entries = [{ keys: ['k'], content: 'c', enabled: true }]
    expect(formatCode(() => planImport({ spec: 'chara_card_v2', data: { name: 'x', character_book: entries } }))).toBe('format-book-not-object')
    expect(formatCode(() => planImport({ name: 'x', first_mes: 'hi', character_book: entries }))).toBe('format-book-not-object')
    expect(formatCode(() => planImport(entries))).toBe('format-not-object')
  })
})
