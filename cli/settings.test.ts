import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { main } from './main.ts'
import type { CliIO } from './io.ts'

let home: string
beforeEach(() => {
  home = mkdtempSync(join(tmpdir(), 'cyrene-settings-'))
})
afterEach(() => {
  rmSync(home, { recursive: true, force: true })
})

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const o = { out: '', err: '' }
  const io: CliIO = {
    // These tests read the English words; the Chinese ones are checked in cli/store-language.test.ts.
    env: { DSH_HOME: home, LANG: 'en_US.UTF-8' },
    cwd: home,
    readStdin: async () => '',
    stdout: (s) => void (o.out += s),
    stderr: (s) => void (o.err += s),
  }
  const code = await main(argv, io)
  return { code, ...o }
}
const file = () => join(home, 'cyrene-philia093-0', '元', 'settings.json')

describe('cyrene settings', () => {
  it('set, get and unset nickname and style', async () => {
    expect(await run(['settings', 'set', 'nickname', '小', '满'])).toMatchObject({ code: 0, out: 'nickname = 小 满\n' })
    expect(await run(['settings', 'get', 'nickname'])).toMatchObject({ code: 0, out: '小 满\n' })
    expect(await run(['settings', 'set', 'style', '绮丽'])).toMatchObject({ code: 0 })
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({ nickname: '小 满', style: '绮丽' })
    expect(await run(['settings', 'get', 'style', '--json'])).toMatchObject({ code: 0, out: expect.stringContaining('"value": "绮丽"') })
    expect(await run(['settings', 'unset', 'style'])).toMatchObject({ code: 0 })
    expect(await run(['settings', 'get', 'style'])).toMatchObject({ code: 1, out: '' })
  })

  it('unset of a key that is not set changes nothing and makes no settings file', async () => {
    expect(await run(['settings', 'unset', 'nickname'])).toMatchObject({ code: 0 })
    expect(existsSync(file())).toBe(false)
    await run(['settings', 'set', 'nickname', '小满'])
    // The file is replaced by a rename when written: the same inode is the same file, untouched.
    const before = statSync(file()).ino
    expect(await run(['settings', 'unset', 'style'])).toMatchObject({ code: 0 })
    expect(statSync(file()).ino).toBe(before)
  })

  it('bad input: exit 2, a message saying what to do, the file unchanged', async () => {
    await run(['settings', 'set', 'nickname', '小满'])
    const before = readFileSync(file(), 'utf8')
    const long = await run(['settings', 'set', 'nickname', '名'.repeat(21)])
    expect(long).toMatchObject({ code: 2, err: expect.stringContaining('at most 20; nothing was changed') })
    expect(await run(['settings', 'set', 'style', '不存在'])).toMatchObject({ code: 2, err: expect.stringContaining('one of 清简, 温润, 绮丽') })
    expect(await run(['settings', 'set', 'colour', 'x'])).toMatchObject({ code: 2, err: expect.stringContaining('one of nickname, style') })
    // Only a zero-width space: a name nobody would see.
    expect(await run(['settings', 'set', 'nickname', '\u200b'])).toMatchObject({ code: 2, err: expect.stringContaining('must not be empty') })
    expect(readFileSync(file(), 'utf8')).toBe(before)
  })

  it('a FIFO or a link where the settings file was is said, never taken for no settings', async () => {
    await run(['settings', 'set', 'nickname', '小满'])
    rmSync(file())
    execFileSync('mkfifo', [file()])
    const got = await run(['settings', 'get', 'nickname'])
    expect(got.err).toContain('元/settings.json is not a plain file (a link, a folder or a FIFO); its settings are not read. Move it away')
    rmSync(file())
    symlinkSync('/etc/hostname', file())
    expect((await run(['settings', 'get', 'nickname'])).err).toContain('is not a plain file')
  })

  it('a settings file with bytes that are not UTF-8 is refused, not written back with replacement characters (decision 310)', async () => {
    mkdirSync(join(home, 'cyrene-philia093-0', '元'), { recursive: true })
    // A key the command does not touch holds a byte that is not UTF-8 (a token saved in Latin-1 by an editor).
    const bytes = Buffer.concat([Buffer.from('{"nickname": "Ash", "siyuan": {"token": "ab'), Buffer.from([0xff]), Buffer.from('cd"}}\n')])
    writeFileSync(file(), bytes)
    for (const argv of [
      ['settings', 'set', 'nickname', 'Bo'],
      ['settings', 'unset', 'nickname'],
    ]) {
      const r = await run(argv)
      expect(r).toMatchObject({ code: 2, err: expect.stringContaining('元/settings.json is not valid UTF-8') })
      expect(r.err).toContain('re-save it as UTF-8 or remove it first, nothing was changed')
      expect(readFileSync(file()).equals(bytes)).toBe(true)
    }
    // Once it is UTF-8 again, the same command works.
    writeFileSync(file(), '{"nickname": "Ash", "siyuan": {"token": "abcd"}}\n')
    expect(await run(['settings', 'set', 'nickname', 'Bo'])).toMatchObject({ code: 0 })
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({ nickname: 'Bo', siyuan: { token: 'abcd' } })
  })

  it('style levels come from 元/styles.md when the person wrote one', async () => {
    mkdirSync(join(home, 'cyrene-philia093-0', '元'), { recursive: true })
    writeFileSync(join(home, 'cyrene-philia093-0', '元', 'styles.md'), '## 猫步\n轻轻地说。\n')
    expect(await run(['settings', 'set', 'style', '猫步'])).toMatchObject({ code: 0 })
    expect(await run(['settings', 'set', 'style', '温润'])).toMatchObject({ code: 2 })
  })
})
