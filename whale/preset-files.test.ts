import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { importCard } from './card-import.ts'
import { locationsFor } from './files.ts'
import { applyPresetById, loadPreset, PresetError, saveImportedPreset, saveLivePersona } from './preset-files.ts'
import { toTavern } from './tavern.ts'

describe('importing a card over an existing preset (§4.6 lossless round trip)', () => {
  let dir = ''
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  const starter = {
    spec: 'whale-persona-preset/1',
    id: 'starter',
    label: 'Starter',
    description: 'my own words, which a card does not carry',
    tags: ['work'],
    thinkingLanguage: 'zh-CN',
    persona: {
      userName: '小林',
      stance: ' 搭子 ',
      character: '你是{selfName}。',
      contracts: [
        { id: 'terse', text: '结论先行。', on: true },
        { id: 'off', text: '停用的', on: false },
      ],
      tone: { enabled: true, text: '简洁。', byModel: { pro: '更简洁。' } },
    },
    extensions: { depth_prompt: { depth: 4 } },
  }

  function setup(): { ctx: { env: Record<string, string>; cwd: string }; file: string; text: string } {
    dir = mkdtempSync(path.join(os.tmpdir(), 'whale-import-'))
    const file = path.join(dir, 'home', 'whale-persona', 'presets', 'starter.json')
    mkdirSync(path.dirname(file), { recursive: true })
    const text = JSON.stringify(starter, null, 2) + '\n'
    writeFileSync(file, text)
    return { ctx: { env: { DSH_HOME: 'home' }, cwd: dir }, file, text }
  }

  function exportedCard(ctx: { env: Record<string, string>; cwd: string }): Record<string, any> {
    const loaded = loadPreset(ctx, locationsFor(ctx), 'starter')
    return toTavern({ ...loaded.preset, extensions: loaded.raw.extensions as Record<string, unknown> })
  }

  function imported(card: unknown) {
    const result = importCard(Buffer.from(JSON.stringify(card)), 'card.json')
    if (!result.ok) throw new Error(result.error)
    return result.preset
  }

  it('card round trip: a card exported from this home imports back into it and leaves the preset byte-identical (issue 14 item "card round trip")', async () => {
    const { ctx, file, text } = setup()
    const preset = imported(exportedCard(ctx))
    expect(preset.id).toBe('starter')
    await expect(saveImportedPreset(ctx, locationsFor(ctx), preset, { overwrite: false })).resolves.toEqual({
      file: 'home/whale-persona/presets/starter.json',
      id: 'starter',
      unchanged: true,
    })
    expect(readFileSync(file, 'utf8')).toBe(text)
  })

  it('card round trip: a card that would replace different content still needs --force (issue 14 item "card round trip")', async () => {
    const { ctx, file, text } = setup()
    for (const edit of [
      (card: Record<string, any>) => (card.data.extensions.whale_persona.userName = '阿明'),
      (card: Record<string, any>) => (card.data.tags = ['play']),
      (card: Record<string, any>) => (card.data.post_history_instructions = '新的末尾'),
      (card: Record<string, any>) => (card.data.extensions.depth_prompt = { depth: 2 }),
    ]) {
      const card = exportedCard(ctx)
      edit(card)
      await expect(saveImportedPreset(ctx, locationsFor(ctx), imported(card), { overwrite: false })).rejects.toThrow(PresetError)
      expect(readFileSync(file, 'utf8')).toBe(text)
    }
    const card = exportedCard(ctx)
    card.data.extensions.whale_persona.userName = '阿明'
    await expect(saveImportedPreset(ctx, locationsFor(ctx), imported(card), { overwrite: true })).resolves.toMatchObject({ unchanged: false })
    expect(JSON.parse(readFileSync(file, 'utf8')).persona.userName).toBe('阿明')
  })

  it('an existing file that is not a readable preset is never replaced without --force', async () => {
    const { ctx, file } = setup()
    const card = exportedCard(ctx)
    writeFileSync(file, '{ broken')
    await expect(saveImportedPreset(ctx, locationsFor(ctx), imported(card), { overwrite: false })).rejects.toThrow('--force')
    expect(readFileSync(file, 'utf8')).toBe('{ broken')
    // with the card's own id, the broken file stays and the card goes beside it (decision 307)
    await expect(saveImportedPreset(ctx, locationsFor(ctx), imported(card), { overwrite: false, chooseFreeId: true })).resolves.toEqual({
      file: 'home/whale-persona/presets/starter-2.json',
      id: 'starter-2',
      unchanged: false,
    })
    expect(readFileSync(file, 'utf8')).toBe('{ broken')
  })

  it('a card whose own id is taken goes to the next free <id>-2, -3 within 64 characters; one of them holding the card is the same preset (decision 307)', async () => {
    const { ctx, file, text } = setup()
    const card = exportedCard(ctx)
    card.data.description = 'another text'
    const where = locationsFor(ctx)
    await expect(saveImportedPreset(ctx, where, imported(card), { overwrite: false, chooseFreeId: true })).resolves.toEqual({
      file: 'home/whale-persona/presets/starter-2.json',
      id: 'starter-2',
      unchanged: false,
    })
    expect(readFileSync(file, 'utf8')).toBe(text)
    await expect(saveImportedPreset(ctx, where, imported(card), { overwrite: false, chooseFreeId: true })).resolves.toMatchObject({
      id: 'starter-2',
      unchanged: true,
    })
    card.data.description = 'a third text'
    await expect(saveImportedPreset(ctx, where, imported(card), { overwrite: false, chooseFreeId: true })).resolves.toMatchObject({
      id: 'starter-3',
      unchanged: false,
    })
    // --force replaces the card's own id, as before
    await expect(saveImportedPreset(ctx, where, imported(card), { overwrite: true, chooseFreeId: true })).resolves.toMatchObject({
      id: 'starter',
      unchanged: false,
    })
    // a 64-character id is cut so that the suffix fits
    const long = 'a'.repeat(64)
    writeFileSync(path.join(path.dirname(file), long + '.json'), text)
    const preset = imported(card)
    preset.id = long
    await expect(saveImportedPreset(ctx, where, preset, { overwrite: false, chooseFreeId: true })).resolves.toMatchObject({ id: 'a'.repeat(62) + '-2' })
  })
})

describe('apply writes back the keys it does not know as they were (§2.6)', () => {
  let dir = ''
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('keeps numbers JSON.stringify would round, null or reformat, in config, autosave and a saved preset', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'whale-apply-'))
    const folder = path.join(dir, 'home', 'whale-persona')
    mkdirSync(path.join(folder, 'presets'), { recursive: true })
    writeFileSync(
      path.join(folder, 'config.json'),
      '{"persona":{"stance":"a","tone":{"enabled":true,"text":"t","weight":1.50}},"ids":[12345678901234567890],"huge":1e400,"tiny":1e-400,"zero":-0}',
    )
    writeFileSync(path.join(folder, 'presets', 'p.json'), JSON.stringify({ persona: { stance: 'b' } }))
    const ctx = { env: { DSH_HOME: 'home' }, cwd: dir }
    await expect(applyPresetById(ctx, 'p')).resolves.toMatchObject({ ok: true, changed: true, autosaveWritten: true })
    const config = readFileSync(path.join(folder, 'config.json'), 'utf8')
    for (const kept of ['"weight": 1.50', '12345678901234567890', '"huge": 1e400', '"tiny": 1e-400', '"zero": -0', '"stance": "b"'])
      expect(config).toContain(kept)
    expect(readFileSync(path.join(folder, 'presets', 'autosave.json'), 'utf8')).toContain('"weight": 1.50')
    await saveLivePersona(ctx, 'mine', '', { overwrite: false })
    expect(readFileSync(path.join(folder, 'presets', 'mine.json'), 'utf8')).toContain('"weight": 1.50')
  })

  it('still applies over a config holding a value nested thousands deep', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'whale-apply-'))
    const folder = path.join(dir, 'home', 'whale-persona')
    mkdirSync(path.join(folder, 'presets'), { recursive: true })
    const deep = '['.repeat(3000) + ']'.repeat(3000)
    writeFileSync(path.join(folder, 'config.json'), `{"persona":{"stance":"a"},"deep":${deep}}`)
    writeFileSync(path.join(folder, 'presets', 'p.json'), JSON.stringify({ persona: { stance: 'b' } }))
    const ctx = { env: { DSH_HOME: 'home' }, cwd: dir }
    await expect(applyPresetById(ctx, 'p')).resolves.toMatchObject({ ok: true, changed: true })
    expect(JSON.stringify(JSON.parse(readFileSync(path.join(folder, 'config.json'), 'utf8')))).toBe(`{"persona":{"stance":"b"},"deep":${deep}}`)
  })

  it('a preset file holding a value nested thousands deep is refused with a message, not a crash', () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'whale-apply-'))
    const folder = path.join(dir, 'home', 'whale-persona')
    mkdirSync(path.join(folder, 'presets'), { recursive: true })
    writeFileSync(path.join(folder, 'presets', 'p.json'), `{"persona":{"tone":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`)
    const ctx = { env: { DSH_HOME: 'home' }, cwd: dir }
    expect(() => loadPreset(ctx, locationsFor(ctx), 'p')).toThrow(expect.objectContaining({ said: expect.objectContaining({ code: 'preset.too-deep' }) }))
  })

  it('refuses, writing nothing, when the config holds a value too deep to write back', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'whale-apply-'))
    const folder = path.join(dir, 'home', 'whale-persona')
    mkdirSync(path.join(folder, 'presets'), { recursive: true })
    const text = `{"persona":{"stance":"a"},"deep":${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    writeFileSync(path.join(folder, 'config.json'), text)
    writeFileSync(path.join(folder, 'presets', 'p.json'), JSON.stringify({ persona: { stance: 'b' } }))
    const ctx = { env: { DSH_HOME: 'home' }, cwd: dir }
    await expect(applyPresetById(ctx, 'p')).resolves.toMatchObject({ ok: false, changed: false, errorSaid: { code: 'apply.too-deep' } })
    expect(readFileSync(path.join(folder, 'config.json'), 'utf8')).toBe(text)
    expect(existsSync(path.join(folder, 'presets', 'autosave.json'))).toBe(false)
  })

  it('refuses apply and save, writing nothing, when the live persona holds a value too deep to copy', async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'whale-apply-'))
    const folder = path.join(dir, 'home', 'whale-persona')
    mkdirSync(path.join(folder, 'presets'), { recursive: true })
    const text = `{"persona":{"stance":"a","tone":{"x":${'['.repeat(100_000)}${']'.repeat(100_000)}}}}`
    writeFileSync(path.join(folder, 'config.json'), text)
    writeFileSync(path.join(folder, 'presets', 'p.json'), JSON.stringify({ persona: { stance: 'b' } }))
    const ctx = { env: { DSH_HOME: 'home' }, cwd: dir }
    await expect(applyPresetById(ctx, 'p')).resolves.toMatchObject({ ok: false, errorSaid: { code: 'apply.too-deep' } })
    await expect(saveLivePersona(ctx, 'mine', '', { overwrite: false })).rejects.toMatchObject({ said: { code: 'apply.too-deep' } })
    expect(readFileSync(path.join(folder, 'config.json'), 'utf8')).toBe(text)
    expect(existsSync(path.join(folder, 'presets', 'autosave.json')) || existsSync(path.join(folder, 'presets', 'mine.json'))).toBe(false)
  })
})
