import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { applyPreset, ApplyRefused, isPresetId, PERSONA_KEYS, presetFile, readPreset, snapshotPreset } from './presets.ts'

describe('preset ids (§4.1)', () => {
  it.each([
    ['a', true],
    ['A-b_9', true],
    ['x'.repeat(64), true],
    ['x'.repeat(65), false],
    ['', false],
    ['../x', false],
    ['a.b', false],
    ['a b', false],
    ['é', false],
  ])('%j → %s', (id, ok) => {
    expect(isPresetId(id)).toBe(ok)
  })
})

describe('readPreset (§4.2, §4.4)', () => {
  it('reads whitelisted persona keys as they are, names what apply will not take', () => {
    const read = readPreset(
      { label: 'L', persona: { character: 'c', enabled: false, contracts: 'no', tone: { enabled: true }, selfNameByModel: [1], stance: null }, memory: {} },
      'id1',
    )!
    expect(read.preset).toEqual({
      spec: '',
      id: 'id1',
      label: 'L',
      description: '',
      author: '',
      tags: [],
      persona: { character: 'c', contracts: 'no', tone: { enabled: true }, selfNameByModel: [1], stance: null },
    })
    expect(read.ignored).toEqual([
      'persona.selfNameByModel (wrong type, not applied)',
      'persona.contracts (wrong type, not applied)',
      'persona.enabled',
      'memory (a preset never carries memory)',
    ])
    // apply takes only the usable values
    expect(applyPreset({}, read.preset).config).toEqual({ persona: { character: 'c', tone: { enabled: true } } })
  })
  it('reads the early format: contracts when an array, character only when non-empty', () => {
    expect(readPreset({ character: '', contracts: [] }, 'o')!.preset.persona).toEqual({ contracts: [] })
    expect(readPreset({ character: 'c', stance: 'ignored' }, 'o')!.preset.persona).toEqual({ character: 'c' })
  })
  it('is null for anything that is not a preset', () => {
    for (const raw of [null, [], 'x', {}, { persona: [] }, { character: 1 }, { name: 'card', description: 'x' }]) expect(readPreset(raw, 'x')).toBeNull()
  })
  it('keeps thinkingLanguage only when it is a string', () => {
    expect(readPreset({ persona: {}, thinkingLanguage: 'ja' }, 'x')!.preset.thinkingLanguage).toBe('ja')
    expect('thinkingLanguage' in readPreset({ persona: {}, thinkingLanguage: 3 }, 'x')!.preset).toBe(false)
  })
})

describe('applyPreset (§4.3, §4.5)', () => {
  const preset = readPreset({ thinkingLanguage: 'ko', persona: { character: '', stance: 'new' } }, 'p')!.preset
  it('replaces whole values, "" included, keeps every other key and its order, and autosaves the old persona', () => {
    const live = {
      x: 1,
      persona: { stance: 'old', tone: { enabled: true, text: 't', extra: 1 }, enabled: false, character: 'c' },
      memory: { entries: [{ text: 'm' }] },
    }
    const result = applyPreset(live, preset)
    expect(result.config).toEqual({
      x: 1,
      persona: { stance: 'new', tone: { enabled: true, text: 't', extra: 1 }, enabled: false, character: '' },
      memory: { entries: [{ text: 'm' }] },
      thinkingLanguage: 'ko',
    })
    expect(Object.keys(result.config.persona as object)).toEqual(['stance', 'tone', 'enabled', 'character'])
    expect(result.autosave).toMatchObject({
      id: 'autosave',
      spec: 'whale-persona-preset/1',
      persona: { stance: 'old', tone: { enabled: true, text: 't', extra: 1 }, character: 'c' },
    })
    expect(live.persona.stance).toBe('old')
  })
  it('reports no change (and no autosave) when the card is already applied', () => {
    const once = applyPreset({}, preset).config
    expect(applyPreset(once, preset)).toMatchObject({ changed: false, autosave: null })
  })
  it('refuses configs that are not objects or whose persona is not an object', () => {
    for (const bad of [[], 'x', null, { persona: 'x' }, { persona: [] }, { persona: 0 }]) expect(() => applyPreset(bad, preset)).toThrow(ApplyRefused)
  })
  it('applies over "persona": null as over no persona, which holds nothing to lose (decision 307)', () => {
    const applied = applyPreset({ persona: null, memory: { enabled: true } }, preset)
    expect(applied.config).toEqual({ ...applyPreset({ memory: { enabled: true } }, preset).config })
    expect(applied).toMatchObject({ changed: true, autosave: { id: 'autosave', persona: {} } })
    const nothing = { spec: 'whale-persona-preset/1', id: 'n', label: 'n', description: '', author: '', tags: [], persona: {} }
    expect(applyPreset({ persona: null }, nothing)).toMatchObject({ changed: false, config: { persona: null } })
  })
})

describe('presetFile and snapshotPreset', () => {
  it('writes only non-empty optional fields', () => {
    expect(presetFile({ id: 'a', label: 'A', description: '', author: '', tags: [], persona: {} })).toEqual({
      spec: 'whale-persona-preset/1',
      id: 'a',
      label: 'A',
      persona: {},
    })
  })
  it('snapshots the whitelisted persona and the thinking language', () => {
    expect(snapshotPreset({ thinkingLanguage: 'en', persona: { enabled: true, userName: 'u', preset: 'x' } }, 's', '')).toMatchObject({
      id: 's',
      label: 's',
      thinkingLanguage: 'en',
      persona: { userName: 'u' },
    })
  })
})

describe('applyPreset properties', () => {
  it('keeps every key outside the whitelist, at every level, exactly as it was', () => {
    const whitelisted = new Set<string>(PERSONA_KEYS)
    fc.assert(
      fc.property(
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.dictionary(fc.string(), fc.jsonValue()),
        fc.dictionary(fc.constantFrom(...PERSONA_KEYS), fc.oneof(fc.string(), fc.dictionary(fc.string(), fc.string()), fc.array(fc.jsonValue()))),
        (top, persona, card) => {
          const live = JSON.parse(JSON.stringify({ ...top, persona }))
          const read = readPreset({ persona: card }, 'p')
          if (read === null) return
          const after = applyPreset(live, read.preset).config
          for (const key of Object.keys(live)) if (key !== 'persona' && key !== 'thinkingLanguage') expect(after[key]).toEqual(live[key])
          for (const key of Object.keys(live.persona)) {
            if (!whitelisted.has(key) || read.preset.persona[key as keyof typeof read.preset.persona] === undefined)
              expect((after.persona as Record<string, unknown>)[key]).toEqual(live.persona[key])
          }
        },
      ),
      { numRuns: 200 },
    )
  })
})

describe('readPreset metadata (as the reference reads it)', () => {
  it('prefers a valid id inside the file, falls back through label/name/id for the label, trims texts', () => {
    expect(readPreset({ id: 'inner', name: ' Named ', description: ' d ', creator: 'c', tags: ['a', 3, {}, ''], persona: {} }, 'file')!.preset).toMatchObject({
      id: 'inner',
      label: 'Named',
      description: 'd',
      author: 'c',
      tags: ['a', '3'],
    })
    expect(readPreset({ id: '../bad', persona: {} }, 'file')!.preset).toMatchObject({ id: 'file', label: '../bad' })
  })
  it('lets top-level early-format fields override a persona object, as the reference does', () => {
    expect(readPreset({ persona: { character: 'inner', stance: 's' }, character: 'outer' }, 'f')!.preset.persona).toEqual({ character: 'outer', stance: 's' })
  })
})

describe('autosave trigger', () => {
  it('is written only when the persona changes, not for a thinking language change alone', () => {
    const preset = readPreset({ thinkingLanguage: 'ja', persona: { stance: 's' } }, 'p')!.preset
    expect(applyPreset({ persona: { stance: 's' }, thinkingLanguage: 'en' }, preset)).toMatchObject({ changed: true, autosave: null })
  })
})
