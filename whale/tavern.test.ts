import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { importCard } from './card-import.ts'
import { readPreset, sameCardContent } from './presets.ts'
import { contractsFromPrompt, detectCard, fromTavern, slugId, toTavern } from './tavern.ts'

describe('detectCard (§4.6)', () => {
  it.each([
    [{ persona: {} }, 'whale-preset'],
    [{ character: 'x', spec: 'chara_card_v2' }, 'whale-preset'],
    [{ spec: 'CHARA_CARD_V3' }, 'tavern-v2'],
    [{ data: { description: '' } }, 'tavern-v2'],
    [{ data: { persona: {}, description: 'x' } }, 'tavern-v2'],
    [{ name: 'n', first_mes: 'hi' }, 'tavern-v1'],
    [{ name: 'n' }, 'unknown'],
    [[], 'unknown'],
    [null, 'unknown'],
  ])('%j → %s', (raw, kind) => {
    expect(detectCard(raw)).toBe(kind)
  })
})

describe('slugId', () => {
  it('folds to a safe id, cut to 40 and trimmed', () => {
    expect(slugId('  Hello, World!! ')).toBe('hello-world')
    expect(slugId('__a__')).toBe('a')
    expect(slugId('a'.repeat(39) + ' b')).toBe('a'.repeat(39))
  })
  it('hashes names with nothing left, stably and distinctly', () => {
    expect(slugId('林深见鹿')).toBe('card-13ar9c')
    expect(slugId('山')).toMatch(/^card-[0-9a-z]{1,6}$/)
    expect(slugId('山')).not.toBe(slugId('水'))
  })
})

describe('contractsFromPrompt', () => {
  it('strips list markers, drops short lines and duplicates, numbers ids', () => {
    expect(contractsFromPrompt('- a rule\n* a rule\n12) second\n3、third\n• x\n\n· 间隔').map((c) => [c.id, c.text])).toEqual([
      ['c1', 'a rule'],
      ['c2', 'second'],
      ['c3', 'third'],
      ['c4', '间隔'],
    ])
  })
  it('splits a line over 300 characters at sentence ends, then semicolons', () => {
    const long = '第一句很长' + '啊'.repeat(100) + '。第二句；第三句;' + '好'.repeat(200) + '！'
    expect(contractsFromPrompt(long).map((c) => c.text)).toEqual(['第一句很长' + '啊'.repeat(100) + '。', '第二句', '第三句', '好'.repeat(200) + '！'])
  })
  it('keeps at most 40', () => {
    expect(contractsFromPrompt(Array.from({ length: 50 }, (_, i) => `rule ${i}`).join('\n'))).toHaveLength(40)
  })
})

describe('fromTavern', () => {
  it('tags written as one string are split at commas, as SillyTavern reads them', () => {
    const r = fromTavern({ name: 'V', description: 'd', tags: 'fantasy, sea ,, 向导' }, 'tavern-v1')
    expect(r.preset.tags).toEqual(['fantasy', 'sea', '向导'])
    expect(fromTavern({ name: 'V', description: 'd', tags: ' , ' }, 'tavern-v1').mapped).not.toContain('tags')
  })

  it('maps the v2 fields and names what it does not take', () => {
    const r = fromTavern(
      {
        spec: 'chara_card_v2',
        data: {
          name: 'N',
          description: 'd',
          scenario: 's',
          personality: 'p',
          system_prompt: 'rule one',
          post_history_instructions: 'tail',
          tags: 'one',
          creator: 'c',
          character_version: '3',
          first_mes: 'hi',
          mes_example: ' ',
          alternate_greetings: [],
          character_book: null,
          assets: [{}],
          odd: 1,
        },
      },
      'tavern-v2',
    )
    expect(r.preset.persona).toEqual({ character: 'd\n\n【场景】\ns', stance: 'p', contracts: [{ id: 'c1', text: 'rule one', on: true }], suffix: 'tail' })
    expect(r.preset).toMatchObject({
      id: 'n',
      label: 'N',
      author: 'c',
      tags: ['one'],
      source: { kind: 'tavern-v2', name: 'N', creator: 'c', characterVersion: '3' },
    })
    expect(r.mapped).toEqual(['description', 'personality', 'scenario', 'system_prompt', 'post_history_instructions', 'tags'])
    expect(r.unmapped).toEqual(['data.odd', 'data.first_mes', 'data.assets'])
    expect(r.notes.some((n) => n.includes('data.odd, data.first_mes, data.assets'))).toBe(true)
  })
  it('names V3’s nickname and creator_notes_multilingual as not taken in a note, the report’s list staying the reference’s', () => {
    const r = fromTavern(
      { spec: 'chara_card_v3', data: { name: 'N', description: 'd', nickname: 'Nick', creator_notes_multilingual: { en: 'x' }, first_mes: 'hi' } },
      'tavern-v2',
    )
    expect(r.unmapped).toEqual(['data.first_mes'])
    expect(r.notesSaid).toContainEqual({ code: 'note.also-not-taken', params: { fields: 'data.nickname, data.creator_notes_multilingual' } })
  })
  it('keeps a name, creator or version written as a number as its text', () => {
    const r = fromTavern({ spec: 'chara_card_v2', data: { name: 12345, description: 'd', creator: 7, character_version: 2 } }, 'tavern-v2')
    expect(r.preset).toMatchObject({ label: '12345', author: '7', source: { name: '12345', creator: '7', characterVersion: '2' } })
    expect(toTavern(r.preset).data).toMatchObject({ name: '12345', creator: '7', character_version: '2' })
  })
  it('says that SillyTavern’s name macros stay as written in what it takes, in both forms', () => {
    const r = fromTavern(
      { spec: 'chara_card_v2', data: { name: 'N', description: '{{char}} 陪着 {{user}}', scenario: '<BOT> 与 <USER>', mes_example: '{{user}}: hi' } },
      'tavern-v2',
    )
    expect(r.notesSaid).toContainEqual({ code: 'note.macros-kept', params: { macros: '{{char}}, {{user}}, <BOT>, <USER>' } })
    const plain = fromTavern({ spec: 'chara_card_v2', data: { name: 'N', description: '没有宏', mes_example: '{{user}}: hi' } }, 'tavern-v2')
    expect(plain.notesSaid.map((n) => n.code)).not.toContain('note.macros-kept')
  })
  it('names a blank card "imported-card"', () => {
    expect(fromTavern({ name: '  ', description: 'x' }, 'tavern-v1').preset).toMatchObject({ id: 'imported-card', label: 'imported-card' })
  })
})

describe('export → import round trip', () => {
  it('restores every persona field exactly, including disabled and multi-line contracts', () => {
    const raw = {
      id: 'my-id',
      label: 'Shown Label',
      tags: ['t'],
      thinkingLanguage: 'ru',
      persona: {
        character: ' keep spaces ',
        contracts: [
          { id: 'x', text: 'a', on: false },
          { id: 'y', text: 'b\nc' },
        ],
        appearance: { enabled: true, text: 'A', byModel: { pro: 'B' } },
      },
    }
    const preset = readPreset(raw, 'my-id')!.preset
    const card = toTavern(preset)
    const back = importCard(Buffer.from(JSON.stringify(card)), 'card.json')
    expect(back.ok).toBe(true)
    if (!back.ok) return
    expect(back.preset.persona).toEqual(raw.persona)
    expect(back.preset).toMatchObject({ id: 'shown-label', label: 'Shown Label', thinkingLanguage: 'ru', tags: ['t'] })
    expect(Object.keys((card.data as Record<string, any>).extensions.whale_persona).sort()).toEqual([
      'appearance',
      'character',
      'contracts',
      'spec',
      'thinkingLanguage',
    ])
    expect(back.mapped).toContain('extensions.whale_persona')
  })
  it('restores what import would normalise or drop: CRLF in any text field, a contract that says {{original}}', () => {
    const persona = {
      character: '第一行\r\n第二行',
      suffix: '尾\r\n第二行',
      contracts: [
        { id: 'c1', text: '{{original}}', on: true },
        { id: 'c2', text: '第一\r\n第二', on: true },
        { id: 'c3', text: '关掉的', on: false },
      ],
    }
    const card = toTavern(readPreset({ spec: 'whale-persona-preset/1', id: 'x', label: 'X', persona }, 'x')!.preset)
    const back = fromTavern(card, 'tavern-v2')
    expect(back.preset.persona).toEqual(persona)
    expect(back.notes.join(' ')).not.toContain('differs')
  })
  it('reads cards exported by the reference shape (extensions without contracts)', () => {
    const r = fromTavern(
      {
        spec: 'chara_card_v2',
        data: {
          name: 'R',
          description: 'd',
          system_prompt: '- a rule',
          extensions: { whale_persona: { spec: 'whale-persona-preset/1', userName: 'U', tone: { enabled: true, text: 't' } } },
        },
      },
      'tavern-v2',
    )
    expect(r.preset.persona).toEqual({ character: 'd', contracts: [{ id: 'c1', text: 'a rule', on: true }], userName: 'U', tone: { enabled: true, text: 't' } })
  })
})

describe('card round trip property (§4.6, issue 14 item "card round trip")', () => {
  // CRLF and {{original}} are what import normalises or drops from a visible field: the extension's copy must still come back.
  const text = fc.oneof(fc.string(), fc.constantFrom('', ' x ', 'a\nb', 'a\r\nb', ' x\r\n', '\r', '{{original}}', '- item', '{selfName}', '。！'))
  const style = fc.record({ enabled: fc.boolean(), text, byModel: fc.dictionary(fc.string(), text) })
  const persona = fc.record(
    {
      userName: text,
      selfNameFlash: text,
      selfNamePro: text,
      selfNameByModel: fc.dictionary(fc.string(), text),
      stance: text,
      character: text,
      suffix: text,
      contracts: fc.array(fc.record({ id: fc.string(), text, on: fc.boolean() }, { requiredKeys: ['text'] }), { maxLength: 5 }),
      tone: style,
      appearance: style,
    },
    { requiredKeys: [] },
  )
  it('an empty contract list comes back empty, not absent (absent would let apply keep the live contracts)', () => {
    const read = readPreset({ spec: 'whale-persona-preset/1', id: 'x', label: 'X', persona: { contracts: [] } }, 'x')!.preset
    expect(fromTavern(toTavern(read), 'tavern-v2').preset.persona).toEqual({ contracts: [] })
  })
  it('a preset read from its file, exported and imported back has the same content (so re-importing into its home needs no --force)', () => {
    fc.assert(
      fc.property(
        persona,
        fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ]{0,20}[A-Za-z0-9]$/),
        fc.array(fc.stringMatching(/^[a-z]{1,8}$/), { maxLength: 3 }),
        fc.option(fc.constantFrom('zh-CN', 'en', 'off'), { nil: undefined }),
        (p, label, tags, thinkingLanguage) => {
          const file = { spec: 'whale-persona-preset/1', id: 'x', label, tags, persona: p, ...(thinkingLanguage ? { thinkingLanguage } : {}) }
          const read = readPreset(file, 'x')!.preset
          const back = fromTavern(toTavern(read), 'tavern-v2').preset
          expect(sameCardContent(read, back)).toBe(true)
        },
      ),
      { numRuns: 300 },
    )
  })
})
