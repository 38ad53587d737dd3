import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { mkdirSync, mkdtempSync, promises as fs, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MemoryStore } from './store.ts'
import { applySettingsPatch, parseSettingsText, readSettings, SettingsSchema, voiceSettingProblem, writeVoiceSetting } from './settings.ts'
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

function storeWith(text: string | undefined): string {
  const root = mkdtempSync(join(tmpdir(), 'cyrene-settings-'))
  mkdirSync(join(root, '元'))
  if (text !== undefined) writeFileSync(join(root, '元', 'settings.json'), text)
  return root
}

describe('layered settings: defaults ← row config ← 元/settings.json (issue 12 item 1)', () => {
  it('each layer wins over the one below, key by key', async () => {
    const root = storeWith(JSON.stringify({ nickname: '阿远', siyuan: { notebook: '我的笔记' } }))
    const { settings, problems } = await readSettings(root, { nickname: '行', form: 'work', siyuan: { url: 'http://10.0.0.2:6806' } })
    expect(problems).toEqual([])
    expect(settings.values.nickname).toBe('阿远')
    expect(settings.values.form).toBe('work')
    expect(settings.values.siyuan).toEqual({
      enabled: false,
      url: 'http://10.0.0.2:6806',
      notebook: '我的笔记',
      tokenEnv: 'SIYUAN_API_TOKEN',
      tokenEnvAllow: ['SIYUAN_*'],
    })
    expect(settings.values.dream.time).toBe('23:30')
  })

  it('a wrong value keeps the lower layer and says which key; the others still apply', async () => {
    const root = storeWith(JSON.stringify({ anchor: { self: -3, goal: 60 }, dream: { time: '7pm' }, colour: 'red' }))
    const { settings, problems } = await readSettings(root)
    expect(settings.anchor).toEqual({ self: 800, user: 600, origin: 400, goal: 60 })
    expect(settings.values.dream.time).toBe('23:30')
    expect(problems.join('\n')).toMatch(/"anchor\.self"[\s\S]*"dream\.time"[\s\S]*"colour" is not a setting/)
  })

  it('quota keys become the store limits', async () => {
    const { settings } = await readSettings(storeWith(JSON.stringify({ quota: { totalMB: 2, entryChars: 300 } })))
    expect(settings.limits).toMatchObject({ totalBytes: 2 * 1024 * 1024, entryChars: 300, injectChars: 1200 })
  })

  it('broken JSON: the last good settings of that store stay, with a warning', async () => {
    const root = storeWith(JSON.stringify({ nickname: '小涟' }))
    expect((await readSettings(root)).settings.values.nickname).toBe('小涟')
    writeFileSync(join(root, '元', 'settings.json'), '{"nickname": "半截')
    const after = await readSettings(root)
    expect(after.settings.values.nickname).toBe('小涟')
    expect(after.problems[0]).toMatch(/not valid JSON.*last good settings/)
    // A store never read good before falls back to the defaults.
    const fresh = await readSettings(storeWith('[1, 2'))
    expect(fresh.settings.values).toEqual(SettingsSchema({}))
  })

  it('a patch says what changed and what waits for a restart; a bad patch or broken file is refused', () => {
    const change = applySettingsPatch('{"style": "轻一点"}', { nickname: '阿远', dream: { time: '22:00' } })
    expect(change.layer).toEqual({ style: '轻一点', nickname: '阿远', dream: { time: '22:00' } })
    expect(change.changed.sort()).toEqual(['dream.time', 'nickname'])
    expect(change.needRestart).toEqual(['dream.time'])
    expect(applySettingsPatch('', { nickname: '' }).changed).toEqual([])
    expect(() => applySettingsPatch('', { siyuan: { token: 't' } })).toThrow(/"siyuan.token" is not a setting.*Nothing was written/)
    expect(() => applySettingsPatch('', { form: 'dance' })).toThrow(/"form"/)
    expect(() => applySettingsPatch('{oops', { nickname: 'x' })).toThrow(/fix or remove the file first/)
    expect(() => applySettingsPatch('', 'nickname=x')).toThrow(/JSON object/)
  })
})

describe('settings keys and the SiYuan token variable (issue 19)', () => {
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('refuses %s: only own keys of the schema are settings', (key) => {
    const patch = JSON.parse(`{"${key}": {"x": 1}}`) as unknown
    expect(() => applySettingsPatch('', patch)).toThrow(new RegExp(`"${key}" is not a setting \\(settings are nickname, style`))
    expect(() => applySettingsPatch('', { siyuan: JSON.parse(`{"${key}": 1}`) as unknown })).toThrow(/is not a setting \(siyuan has enabled, url/)
  })

  it('a token variable the person did not allow is refused, whatever its name (PATH, DEEPSEEK_API_KEY)', () => {
    for (const name of ['PATH', 'DEEPSEEK_API_KEY', 'HOME'])
      expect(() => applySettingsPatch('', { siyuan: { tokenEnv: name } })).toThrow(/is not a variable you allowed/)
    expect(applySettingsPatch('', { siyuan: { tokenEnv: 'SIYUAN_TOKEN_2' } }).changed).toEqual(['siyuan.tokenEnv'])
  })

  it('the allow-list is the person’s: the settings page may not change it; the file may', () => {
    expect(() => applySettingsPatch('', { siyuan: { tokenEnvAllow: ['PATH'] } }, {}, { from: 'panel' })).toThrow(/set only by you/)
    const file = JSON.stringify({ siyuan: { tokenEnvAllow: ['MY_SIYUAN'], tokenEnv: 'MY_SIYUAN' } })
    expect(parseSettingsText(file).settings.values.siyuan.tokenEnv).toBe('MY_SIYUAN')
  })

  it('a hand-edited file naming a variable nobody allowed reads as the default, with a problem', () => {
    const read = parseSettingsText(JSON.stringify({ siyuan: { tokenEnv: 'DEEPSEEK_API_KEY' } }))
    expect(read.settings.values.siyuan.tokenEnv).toBe('SIYUAN_API_TOKEN')
    expect(read.problems.join('\n')).toMatch(/DEEPSEEK_API_KEY.*not a variable you allowed/)
  })
})
