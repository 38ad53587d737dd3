import { mkdir, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempHome } from '../memory/testing/tmp.ts'
import { StoreTexts } from './store-file.ts'
import { VoiceSettingsReader } from './voice-settings.ts'

describe('VoiceSettingsReader', () => {
  let t: Awaited<ReturnType<typeof tempHome>>
  let root: string | undefined
  beforeEach(async () => {
    t = await tempHome()
    root = t.root
    await mkdir(join(t.root, '元'), { recursive: true })
  })
  afterEach(async () => {
    await t.cleanup()
  })
  const settingsFile = () => join(t.root, '元', 'settings.json')
  const reader = () => new VoiceSettingsReader(new StoreTexts(() => root), {})

  it('reads nickname and style, and a change made while running is in the next assembly, not in the current one', async () => {
    await writeFile(settingsFile(), JSON.stringify({ nickname: '小满', style: '温润' }))
    const voice = reader()
    const assembly = {}
    expect(voice.settings(assembly)).toEqual({ nickname: '小满', style: '温润', problems: [] })
    // A different size, so the stamp changes whatever the clock's resolution.
    await writeFile(settingsFile(), JSON.stringify({ nickname: '阿满同学' }))
    expect(voice.nickname(assembly)).toBe('小满')
    expect(voice.settings({})).toEqual({ nickname: '阿满同学', problems: [] })
  })

  it('says nothing when no store root is known, the file is missing or reached through a link', async () => {
    root = undefined
    expect(reader().settings()).toEqual({ problems: [] })
    root = t.root
    expect(reader().settings()).toEqual({ problems: [] })
    const outside = join(t.home, 'elsewhere.json')
    await writeFile(outside, JSON.stringify({ nickname: '外人' }))
    await symlink(outside, settingsFile())
    expect(reader().nickname()).toBeUndefined()
    await rm(settingsFile())
  })

  it('a broken settings file gives a problem and no voice keys, and a copy the caller changes is not kept', async () => {
    await writeFile(settingsFile(), '{ nickname: ')
    const voice = reader()
    const read = voice.settings()
    expect(read.nickname).toBeUndefined()
    expect(read.problems.length).toBeGreaterThan(0)
    read.problems.length = 0
    expect(voice.settings().problems.length).toBeGreaterThan(0)
  })
})
