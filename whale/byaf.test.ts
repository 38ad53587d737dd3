import { describe, expect, it } from 'vitest'
import { byafCard, ByafError, isByaf, MAX_BYAF_MEMBER_BYTES } from './byaf.ts'
import { importCard } from './card-import.ts'
import { zip, type ZipMember } from './testing/zip.ts'

/** A Backyard AI archive laid out as its exporter lays one out (our own text): manifest, character, scenarios, an image. */
const manifest = {
  schemaVersion: 1,
  characters: ['characters/old-wen/character.json'],
  scenarios: ['scenarios/fog.json', 'scenarios/storm.json'],
  author: { name: 'Harbour Notes', backyardURL: 'https://example.invalid/@harbour' },
}
const character = {
  id: 'c1',
  name: 'Old Wen',
  displayName: '温伯',
  persona: '{character} mends nets on the fog harbour and calls {user} "lad".',
  loreItems: [{ key: 'fog harbour, 雾港', value: "No sun all winter at {character}'s harbour." }, null, { key: 'nets', value: 'Mended by hand.' }],
  images: [{ path: 'images/wen.png', label: '' }],
}
const fog = {
  title: 'Fog',
  narrative: 'A foggy morning on the pier.',
  formattingInstructions: 'Write in short lines.',
  firstMessages: [{ text: 'Fog again, {user}.' }],
  exampleMessages: [{ text: '#{user}: Any fish?\n#{character}: Only fog.' }, { text: '' }, { text: '#{character}: Sit.' }],
  messages: [{ type: 'human', text: 'a chat that is never read', createdAt: '2024-01-01' }],
}
const storm = { title: 'Storm', narrative: 'Rain.', firstMessages: [{ text: 'Hold the rope!' }] }
const members = (over: Partial<Record<string, string | object | null>> = {}): ZipMember[] => {
  const files: Record<string, string | object | null> = {
    'manifest.json': manifest,
    'characters/old-wen/character.json': character,
    'characters/old-wen/images/wen.png': '\x89PNG not really',
    'scenarios/fog.json': fog,
    'scenarios/storm.json': storm,
    ...over,
  }
  return Object.entries(files)
    .filter((e): e is [string, string | object] => e[1] !== null)
    .map(([name, data]) => ({ name, data: typeof data === 'string' ? data : JSON.stringify(data) }))
}
const archive = (over?: Partial<Record<string, string | object | null>>): Buffer => zip(members(over))

const refusal = (bytes: Buffer): { code: string; message: string } => {
  try {
    byafCard(bytes)
  } catch (error) {
    if (error instanceof ByafError) return { code: error.said.code, message: error.message }
    throw error
  }
  throw new Error('not refused')
}

describe('Backyard AI archives (.byaf), read as SillyTavern reads them (decision 330)', () => {
  it('builds the V2 card SillyTavern builds: persona, the first scenario, the others as greetings, lore items as a book', () => {
    const { card, skipped, otherCharacters } = byafCard(archive())
    expect(skipped).toEqual([])
    expect(otherCharacters).toBe(0)
    expect(card).toEqual({
      spec: 'chara_card_v2',
      spec_version: '2.0',
      data: {
        name: 'Old Wen',
        description: '{{char}} mends nets on the fog harbour and calls {{user}} "lad".',
        personality: '',
        scenario: 'A foggy morning on the pier.',
        first_mes: 'Fog again, {{user}}.',
        mes_example: '<START>\n{{user}}: Any fish?\n{{char}}: Only fog.\n<START>\n{{char}}: Sit.',
        creator_notes: 'https://example.invalid/@harbour',
        system_prompt: 'Write in short lines.',
        post_history_instructions: '',
        alternate_greetings: ['Hold the rope!'],
        character_book: {
          entries: [
            { keys: ['fog harbour', '雾港'], content: "No sun all winter at {{char}}'s harbour.", extensions: {}, enabled: true, insertion_order: 0 },
            { keys: ['nets'], content: 'Mended by hand.', extensions: {}, enabled: true, insertion_order: 2 },
          ],
          extensions: {},
        },
        tags: [],
        creator: 'Harbour Notes',
        character_version: '',
        extensions: {},
      },
    })
    // no name: the display name; no scenario at all: an empty one
    const bare = byafCard(
      archive({ 'manifest.json': { characters: manifest.characters }, 'characters/old-wen/character.json': { displayName: '温伯', persona: 'x' } }),
    )
    expect(bare.card.data).toMatchObject({ name: '温伯', scenario: '', first_mes: '', alternate_greetings: [], creator: '' })
  })
  it('is imported by presets import as that V2 card, said so; a zip with a manifest and no card.json is one whatever its name', () => {
    for (const name of ['old-wen.byaf', 'old-wen.zip']) {
      const result = importCard(archive(), name)
      if (!result.ok) throw new Error(result.error)
      expect(result.detected).toBe('tavern-v2')
      expect(result.preset.persona.character).toContain('{{char}} mends nets')
      expect(result.preset.persona.character).toContain('A foggy morning on the pier.')
      expect(result.mapped).toEqual(['description', 'scenario', 'system_prompt'])
      expect(result.unmapped).toContain('data.alternate_greetings')
      expect(result.notesSaid[0]).toEqual({ code: 'note.byaf-read' })
    }
    expect(
      isByaf(
        zip([
          { name: 'card.json', data: '{}' },
          { name: 'manifest.json', data: '{}' },
        ]),
        'x.zip',
      ),
    ).toBe(false)
  })
  it('names a scenario it could not read and the characters after the first, as SillyTavern skips them', () => {
    const result = importCard(
      archive({
        'manifest.json': {
          ...manifest,
          characters: [...manifest.characters, 'characters/two.json'],
          scenarios: ['scenarios/gone.json', 'scenarios/fog.json', 'scenarios/bad.json'],
        },
        'scenarios/bad.json': '{',
      }),
      'x.byaf',
    )
    if (!result.ok) throw new Error(result.error)
    expect(result.notesSaid.slice(0, 3)).toEqual([
      { code: 'note.byaf-read' },
      { code: 'note.byaf-characters', params: { n: 2 } },
      { code: 'note.byaf-skipped', params: { files: 'scenarios/gone.json, scenarios/bad.json' } },
    ])
    // the first scenario read is the first one
    expect(result.preset.persona.character).toContain('A foggy morning on the pier.')
  })
  it('refuses a damaged archive or one without a character, saying what is wrong', () => {
    const cases: Array<[Buffer, string, RegExp]> = [
      [Buffer.from('not a zip at all, just words'), 'byaf.damaged', /not a zip.*not a Backyard AI archive/],
      [archive({ 'manifest.json': null }), 'byaf.no-manifest', /no manifest\.json/],
      [archive({ 'manifest.json': '[1, 2' }), 'byaf.bad-manifest', /manifest\.json is not a JSON object/],
      [archive({ 'manifest.json': { characters: [] } }), 'byaf.no-character', /names no character/],
      [archive({ 'characters/old-wen/character.json': null }), 'byaf.character-missing', /characters\/old-wen\/character\.json .* is not in the archive/],
      [archive({ 'characters/old-wen/character.json': '"just text"' }), 'byaf.character-not-json', /is not a JSON object/],
      [zip([...members(), { name: 'scenarios/x.json', data: 'x' }]).subarray(0, 200), 'byaf.damaged', /damaged|not a zip/],
      [zip(members().map((m) => (m.name === 'manifest.json' ? { ...m, declaredCrc: 1 } : m))), 'byaf.damaged', /manifest\.json fails its size or CRC check/],
      [
        zip(
          members().map((m) =>
            m.name === 'characters/old-wen/character.json' ? { ...m, data: Buffer.alloc(MAX_BYAF_MEMBER_BYTES + 1, 0x20), declaredSize: 10 } : m,
          ),
        ),
        'byaf.member-too-large',
        /character\.json would inflate past 8388608 bytes/,
      ],
    ]
    for (const [bytes, code, message] of cases) {
      const got = refusal(bytes)
      expect(got.code, code).toBe(code)
      expect(got.message).toMatch(message)
      const imported = importCard(bytes, 'x.byaf')
      expect(imported).toMatchObject({ ok: false, said: { code: 'card.byaf', params: { why: { code } } } })
    }
  })
})
