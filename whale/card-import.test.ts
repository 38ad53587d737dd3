import { describe, expect, it } from 'vitest'
import { importCard } from './card-import.ts'

const json = (value: unknown) => Buffer.from(JSON.stringify(value))

describe('importCard: what real cards from the internet carry (decision 294)', () => {
  it('a text field holding a number, list or object is named as not taken, never dropped unnamed', () => {
    const r = importCard(
      json({ spec: 'chara_card_v2', data: { name: 'N', description: 'd', personality: 5, scenario: ['s'], system_prompt: { a: 1 } } }),
      'n.json',
    )
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.mapped).toEqual(['description'])
    expect(r.unmapped).toEqual(expect.arrayContaining(['data.personality', 'data.scenario', 'data.system_prompt']))
    expect(r.notesSaid).toContainEqual({ code: 'note.not-text', params: { fields: 'data.personality, data.scenario, data.system_prompt' } })
  })

  it('a card whose only text-like field is its tags saves no empty preset', () => {
    const r = importCard(json({ spec: 'chara_card_v2', data: { name: 'T', description: null, personality: 5, tags: 'solo' } }), 't.json')
    expect(r).toMatchObject({
      ok: false,
      detected: 'tavern-v2',
      said: { code: 'card.nothing-taken', params: { fields: 'data.name, data.personality, data.tags' } },
    })
  })

  it('a Pygmalion (Gradio) character file is refused by name, with the way through SillyTavern', () => {
    const r = importCard(json({ char_name: 'Pyg', char_persona: 'A persona.', char_greeting: 'hi', world_scenario: 'sc' }), 'pyg.json')
    expect(r).toMatchObject({ ok: false, detected: 'unknown', said: { code: 'card.pygmalion' } })
  })

  it('an Agnai character (a persona object of its own kind) is refused with what to do, not saved as an empty preset', () => {
    const agnai = { kind: 'character', name: 'Aria', persona: { kind: 'text', attributes: { text: ['kind'] } }, greeting: 'hi', scenario: 'sc' }
    const r = importCard(json(agnai), 'aria.json')
    expect(r).toMatchObject({
      ok: false,
      detected: 'whale-preset',
      said: { code: 'card.preset-empty', params: { fields: 'kind, name, persona, greeting, scenario' } },
    })
  })

  it('a card holding a value nested thousands deep is refused with a message, not a crash', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(100_000)
    for (const text of [
      `{"spec":"chara_card_v2","data":{"name":"D","description":"d","extensions":{"x":${deep}}}}`,
      `{"id":"dp","persona":{"stance":"s","tone":{"x":${deep}}}}`,
    ]) {
      const r = importCard(Buffer.from(text), 'deep.json')
      expect(r).toMatchObject({ ok: false, said: { code: 'card.too-deep' } })
    }
  })

  it('a whale-persona preset with a persona field still imports', () => {
    const r = importCard(json({ spec: 'whale-persona-preset/1', id: 'p', label: 'P', persona: { character: 'c' } }), 'p.json')
    expect(r).toMatchObject({ ok: true, detected: 'whale-preset', mapped: ['persona.character'] })
  })

  it('a card saved as UTF-16 with a byte-order mark (Notepad\'s "Unicode"), either byte order, imports as its UTF-8 twin does', () => {
    const card = { spec: 'chara_card_v2', data: { name: '昔涟', description: '粉色头发的少女' } }
    const text = JSON.stringify(card)
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')])
    const be = Buffer.from(le.subarray(2)).swap16()
    const plain = importCard(json(card), 'c.json')
    expect(plain.ok).toBe(true)
    expect(importCard(le, 'c.json')).toEqual(plain)
    expect(importCard(Buffer.concat([Buffer.from([0xfe, 0xff]), be]), 'c.json')).toEqual(plain)
    // Without the mark, the NUL bytes make it a binary file, refused as one.
    expect(importCard(le.subarray(2), 'c.json')).toMatchObject({ ok: false, said: { code: 'card.binary' } })
  })
})

describe('importCard: a lorebook brought to the card import', () => {
  it('is refused with where it goes (the worldbook import), for SillyTavern World Info and the lorebooks SillyTavern converts', () => {
    for (const book of [
      { entries: { 0: { key: ['k'], content: 'c' } } },
      { entries: [] },
      { lorebookVersion: 5, entries: [] },
      { kind: 'memory' },
      { type: 'risu' },
    ])
      expect(importCard(json(book), 'world.json')).toMatchObject({ ok: false, detected: 'unknown', said: { code: 'card.lorebook' } })
    expect(importCard(json({ hello: 'world' }), 'x.json')).toMatchObject({ ok: false, said: { code: 'card.unknown' } })
  })
})

describe('importCard: a text-generation-webui YAML character, as SillyTavern imports one (decision 323)', () => {
  const yaml = (text: string, name = 'aqua.yaml') => importCard(Buffer.from(text), name)

  it('context becomes the character, greeting is named as not taken, the report uses the file’s own names', () => {
    const r = yaml('name: Aqua\ngreeting: |-\n  Hello there!\ncontext: |-\n  Aqua is a goddess of water.\n  She is cheerful.\nexample_dialogue: hi\n')
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.detected).toBe('tavern-v1')
    expect(r.preset).toMatchObject({ id: 'aqua', label: 'Aqua', persona: { character: 'Aqua is a goddess of water.\nShe is cheerful.' } })
    expect(r.mapped).toEqual(['context'])
    expect(r.unmapped).toEqual(['greeting', 'example_dialogue'])
    expect(r.notesSaid.map((s) => s.code)).toEqual(['note.yaml-read', 'note.yaml-left', 'note.not-taken', 'note.never-switches'])
    expect(r.notesSaid[2]).toEqual({ code: 'note.not-taken', params: { fields: 'greeting' } })
    // A .yml name, a byte-order mark and CRLF read the same.
    expect(yaml('\uFEFFname: Aqua\r\ncontext: Water.\r\n', 'a.YML')).toMatchObject({ ok: true, preset: { persona: { character: 'Water.' } } })
  })

  it('is refused, saving nothing, when it is no YAML, has no name, or has nothing taken; JSON named .yaml stays a JSON card', () => {
    expect(yaml('a: [1\n')).toMatchObject({ ok: false, said: { code: 'card.yaml' } })
    expect(yaml('- 1\n')).toMatchObject({ ok: false, said: { code: 'card.yaml-not-character' } })
    expect(yaml('context: Water.\n')).toMatchObject({ ok: false, said: { code: 'card.yaml-not-character' } })
    expect(yaml('name: Aqua\ngreeting: Hi\n')).toMatchObject({ ok: false, said: { code: 'card.nothing-taken' } })
    // Nested aliases would expand without bound: refused as no valid YAML.
    const bomb = [
      'a: &a [x, x, x, x, x, x, x, x, x, x]',
      ...Array.from(
        { length: 20 },
        (_, i) =>
          `${'b' + i}: &b${i} [${Array(10)
            .fill(i === 0 ? '*a' : `*b${i - 1}`)
            .join(', ')}]`,
      ),
      'name: N',
      'context: c',
    ].join('\n')
    expect(yaml(bomb)).toMatchObject({ ok: false, said: { code: 'card.yaml' } })
    expect(yaml(JSON.stringify({ spec: 'chara_card_v2', data: { name: 'Mira', description: 'Keeper.' } }))).toMatchObject({
      ok: true,
      detected: 'tavern-v2',
      mapped: ['description'],
    })
    // Not YAML by its name: refused as JSON, as before.
    expect(yaml('name: Aqua\ncontext: Water.\n', 'aqua.txt')).toMatchObject({ ok: false, said: { code: 'card.json' } })
  })
})
