import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { KEEP_OTHER_SNAPSHOTS, KEEP_SNAPSHOTS } from '../memory/upkeep.ts'
import { tempHome } from '../memory/testing/tmp.ts'
import { englishSentences, chineseLeft } from '../i18n/testing/language-rule.ts'
import { memoryIO } from './io.ts'
import { main } from './main.ts'

/** Issue 22: the command line in the person's language, and the small untruths of item 7 refused with the fix. */
let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

async function run(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ DSH_HOME: t.home, ...env }, t.home)
  const code = await main(args, io)
  return { code, out: io.out(), err: io.err() }
}

describe('the language of the command line', () => {
  it('--lang wins over LANG, LANG over the default zh; a --lang that is neither is refused (exit 2)', async () => {
    expect((await run(['doctor'])).out.split('\n')[0]).toMatch(/^昔涟 · 新卷 体检：/)
    expect((await run(['doctor'], { LANG: 'en_US.UTF-8' })).out.split('\n')[0]).toMatch(/^昔涟 · 新卷 \(Cyrene\) check-up: /)
    expect((await run(['doctor', '--lang', 'zh'], { LANG: 'en_US.UTF-8' })).out.split('\n')[0]).toMatch(/^昔涟 · 新卷 体检：/)
    expect((await run(['--lang=en', 'doctor'], { LC_ALL: 'zh_CN.UTF-8' })).out.split('\n')[0]).toMatch(/check-up/)
    const bad = await run(['doctor', '--lang', 'fr'])
    expect(bad.code).toBe(2)
    expect(bad.err).toContain('--lang 只能是 zh 或 en')
  })

  it('cyrene --help and cyrene memory write --help hold no English sentence in zh and no Chinese in en', async () => {
    for (const args of [['--help'], ['memory', 'write', '--help'], ['memory', 'list', '--help'], ['backup', '--help'], ['doctor', '--help']]) {
      const zh = await run(args)
      expect(zh.code).toBe(0)
      expect({ args, found: englishSentences(zh.out) }).toEqual({ args, found: [] })
      const en = await run([...args, '--lang', 'en'])
      expect({ args, left: chineseLeft(en.out) }).toEqual({ args, left: '' })
    }
  })

  it('backup --help says how many snapshots are kept as memory/snapshots.ts keeps them', async () => {
    const help = (await run(['backup', '--help', '--lang', 'en'])).out
    expect(help).toContain(`the newest ${KEEP_OTHER_SNAPSHOTS} manual ones stay, and ${KEEP_SNAPSHOTS} daily ones besides`)
  })
})

describe('bad dates and axes are refused with the fix (issue 22 item 7)', () => {
  it('memory list: a day that does not exist, a word, and --from after --to exit 2 and say what to write', async () => {
    for (const [args, says] of [
      [['--date', '2026-13-45'], '--date 2026-03-01'],
      [['--date', 'yesterday'], 'YYYY-MM-DD'],
      [['--from', '2026-02-30'], 'YYYY-MM-DD'],
      [['--from', '2026-03-02', '--to', '2026-03-01'], '--from 2026-03-01 --to 2026-03-02'],
    ] as const) {
      const r = await run(['memory', 'list', ...args, '--lang', 'en'])
      expect({ args, code: r.code, out: r.out }).toEqual({ args, code: 2, out: '' })
      expect(r.err).toContain(says)
    }
    expect((await run(['memory', 'list', '--date', '2024-02-29'])).code).toBe(0)
  })

  it('memory write --axis 坏 is refused naming the five, nothing written; a plain write says how to pass the gate', async () => {
    const refused = await run(['memory', 'write', '喜欢咖啡', '--axis', '坏'])
    expect(refused.code).toBe(2)
    expect(refused.err).toContain('德、智、体、美、劳')
    expect(await fs.readdir(t.home)).not.toContain('cyrene-philia093-0')
    const plain = await run(['memory', 'write', '喜欢咖啡'])
    expect(plain.code).toBe(0)
    expect(plain.out).toContain('--axis 德 --reason "…"')
    expect(plain.out).toContain('余页/待定')
    const passed = await run(['memory', 'write', '喜欢咖啡', '--axis', '美', '--reason', '口味'])
    expect(passed.out).not.toContain('--axis 德 --reason')
  })
})
