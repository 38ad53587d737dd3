import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { PACKAGE_ROOT } from '../scripts/build.ts'
import { presetFromCyrenePersona } from './whale-cyrene.ts'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
const bin = (args: string[], home: string) =>
  execFileSync(process.execPath, [join(PACKAGE_ROOT, 'bin/cyrene.js'), 'whale', ...args], {
    env: { ...process.env, DSH_HOME: home, DSH_WHALE_CONFIG: '' },
    encoding: 'utf8',
  })

describe('Cyrene persona as a whale preset', () => {
  it('drops the memory block and host-variable lines, keeps the rest, names the person with {userName}', () => {
    const preset = presetFromCyrenePersona('你好，{{user_nickname}}。\n\n我们的记忆：\n{{cyrene_memory}}\n\n此刻你运行在 {{model}} 上。\n再见。\n', 'chat')
    expect(preset.persona.character).toBe('你好，{userName}。\n\n再见。')
    expect(preset.id).toBe('cyrene')
    expect(preset.persona.selfNameFlash).toBe('昔涟')
  })

  it('exports through the CLI as a preset and as a SillyTavern v2 card that import back', () => {
    const home = mkdtempSync(join(tmpdir(), 'cyrene-export-'))
    dirs.push(home)
    const presetOut = join(home, 'cyrene.json')
    const cardOut = join(home, 'cyrene-card.json')
    bin(['presets', 'export', 'cyrene:chat', presetOut], home)
    bin(['presets', 'export', 'cyrene:work', cardOut, '--tavern'], home)
    const preset = JSON.parse(readFileSync(presetOut, 'utf8'))
    expect(preset.spec).toBe('whale-persona-preset/1')
    expect(preset.persona.character).toContain('你是昔涟')
    expect(JSON.stringify(preset)).not.toContain('cyrene_memory')
    expect(JSON.stringify(preset)).not.toMatch(/\{\{/)
    const card = JSON.parse(readFileSync(cardOut, 'utf8'))
    expect(card.spec).toBe('chara_card_v2')
    expect(card.data.description).toContain('德谬歌')
    const imported = JSON.parse(bin(['presets', 'import', cardOut, '--json'], home))
    expect(imported).toMatchObject({ ok: true, detected: 'tavern-v2' })
    const expected = presetFromCyrenePersona(readFileSync(join(PACKAGE_ROOT, 'persona/work.md'), 'utf8'), 'work').persona.character
    expect(JSON.parse(readFileSync(imported.savedFile, 'utf8')).persona.character).toBe(expected)
  })
})
