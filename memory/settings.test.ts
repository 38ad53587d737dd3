import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { MemoryStore } from './store.ts'
import { parseSettingsText, readSettings, voiceSettingProblem, writeVoiceSetting } from './settings.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

const settingsFile = () => join(t.root, '元', 'settings.json')

describe('voice keys of 元/settings.json (nickname, style)', () => {
  it('a write saves one key atomically and keeps every other key, unknown ones included', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await fs.writeFile(settingsFile(), JSON.stringify({ anchor: { self: 700 }, panel: { theme: 'dark' } }))
    await writeVoiceSetting(store, 'nickname', '小满')
    await writeVoiceSetting(store, 'style', '清简')
    expect(JSON.parse(await fs.readFile(settingsFile(), 'utf8'))).toEqual({ anchor: { self: 700 }, panel: { theme: 'dark' }, nickname: '小满', style: '清简' })
    expect((await readSettings(t.root)).settings).toMatchObject({ nickname: '小满', style: '清简', anchor: { self: 700 } })
    expect(store.settings.nickname).toBe('小满')
    await writeVoiceSetting(store, 'nickname', undefined)
    expect(JSON.parse(await fs.readFile(settingsFile(), 'utf8'))).not.toHaveProperty('nickname')
    expect((await fs.readdir(join(t.root, '元'))).filter((n) => n.includes('.tmp-'))).toEqual([])
  })

  it('a settings file that is not a JSON object is refused, never replaced', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await fs.writeFile(settingsFile(), '{ "nickname": "半截')
    await expect(writeVoiceSetting(store, 'nickname', '小满')).rejects.toThrow(/not valid JSON.*nothing was changed/)
    expect(await fs.readFile(settingsFile(), 'utf8')).toBe('{ "nickname": "半截')
    await fs.writeFile(settingsFile(), '[1]')
    await expect(writeVoiceSetting(store, 'style', '温润')).rejects.toThrow(/JSON object/)
  })

  it('bad values are refused before anything is touched: empty, spaces around, line breaks, more than 20 characters', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    for (const bad of ['', '  ', ' 小满', '小\n满', '小\u2028满', '名'.repeat(21)])
      await expect(writeVoiceSetting(store, 'nickname', bad)).rejects.toThrow(/nothing was changed/)
    await expect(fs.readFile(settingsFile(), 'utf8')).rejects.toThrow()
    expect(voiceSettingProblem('nickname', '😀'.repeat(20))).toBeUndefined()
    expect(voiceSettingProblem('nickname', '😀'.repeat(21))).toMatch(/21 characters; at most 20/)
  })

  it('reading: bad JSON → defaults and a problem; a bad voice key is ignored with a problem, the others still read', () => {
    expect(parseSettingsText('{').problems[0]).toMatch(/not valid JSON/)
    const read = parseSettingsText(JSON.stringify({ nickname: 42, style: '绮丽', anchor: { self: 500 } }))
    expect(read.settings).toMatchObject({ style: '绮丽', anchor: { self: 500 } })
    expect(read.settings.nickname).toBeUndefined()
    expect(read.problems).toEqual(['元/settings.json nickname must be a string; ignored'])
  })
})
