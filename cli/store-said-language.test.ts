import { execFileSync } from 'node:child_process'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempHome } from '../memory/testing/tmp.ts'
import { otherLanguage } from '../tests/harness/language.ts'
import { runInLanguage } from './testing/in-language.ts'

/**
 * Issue 22, decision 082: what memory/ itself says — a field refused on a
 * write, `memory check`'s findings on a damaged file, an import's per-line
 * reasons, a settings file's problems, a snapshot a restore refuses — reaches
 * the person in their language. Each runs the real command line on a real
 * store, in zh and in en, and no line is in the other language
 * (tests/harness/language.ts), the person's own words and file names aside.
 * English keeps the words it had.
 */
let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

const ROOT = 'cyrene-philia093-0'
/** The person's words in each language: data, not ours. */
const WORDS = { zh: '今天下雨了', en: 'rain today' } as const

function inLanguage(lang: 'zh' | 'en', text: string): string[] {
  return otherLanguage(lang, text.split(WORDS[lang]).join(' '))
}

async function run(args: string[], lang: 'zh' | 'en', exit: number): Promise<string> {
  const r = await runInLanguage(t.home, args, lang)
  const text = r.out + r.err
  expect(r.code, `${args.join(' ')}: ${text}`).toBe(exit)
  expect(inLanguage(lang, text), `${args.join(' ')} in ${lang}:\n${text}`).toEqual([])
  return text
}

/** What `text` must contain in the person's language: the same check for each language, each its own words. */
function says(lang: 'zh' | 'en', text: string, expected: Record<'zh' | 'en', string[]>): void {
  for (const words of expected[lang]) expect(text).toContain(words)
}

describe('what the store says, in the person’s language (decision 082)', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`${lang}: an anchor that is not UTF-8 is left untouched, said in the person's language`, async () => {
      await run(['memory', 'anchor', 'write', 'user', WORDS[lang]], lang, 0)
      const anchors = join(t.home, ROOT, '锚')
      const file = (await fs.readdir(anchors)).find((n) => n.endsWith('.md'))!
      await fs.appendFile(join(anchors, file), Buffer.from([0xff, 0xfe, 0x0a]))
      const before = await fs.readFile(join(anchors, file))
      const refused = await run(['memory', 'anchor', 'write', 'user', WORDS[lang]], lang, 2)
      says(lang, refused, {
        en: [`锚/${file} is not valid UTF-8 (edited with another encoding?); it was left untouched and nothing was written.`],
        zh: [`锚/${file} 不是有效的 UTF-8（用别的编码保存过？）；它原样没动，什么都没写。`],
      })
      expect(await fs.readFile(join(anchors, file))).toEqual(before)
    })

    it(`${lang}: a bad field on a write`, async () => {
      const tooLong = await run(['memory', 'write', 'x'.repeat(401)], lang, 2)
      await run(['memory', 'write', WORDS[lang], '--kind', 'Not A Kind'], lang, 2)
      const at = await run(['memory', 'write', WORDS[lang], '--at', '2026-02-30'], lang, 2)
      const reason = await run(['memory', 'write', WORDS[lang], '--reason', 'r'.repeat(201)], lang, 2)
      const kept = await run(['memory', 'write', `${WORDS[lang]}\u200b`, '--kind', 'mood'], lang, 0)
      says(lang, tooLong, { en: ['entry text is 401 characters; the limit is 400. Split it into smaller memories'], zh: ['条目正文 有 401 个字，上限是 400'] })
      says(lang, at, {
        en: ['at "2026-02-30" is not a day of the calendar (2026-02 has 28 days). Accepted:'],
        zh: ['不是日历上有的日子（2026-02 只有 28 天）'],
      })
      says(lang, reason, { en: ['reason is 201 characters; the limit is 200. Shorten it.'], zh: ['reason 有 201 个字，上限是 200'] })
      says(lang, kept, { en: ['kind "mood" is not one of the known kinds'], zh: ['kind "mood" 不是已知的种类'] })
    })

    it(`${lang}: memory check on a damaged day file`, async () => {
      const written = JSON.parse((await runInLanguage(t.home, ['memory', 'write', WORDS[lang], '--json'], lang)).out) as { file: string }
      const day = join(t.home, ROOT, written.file)
      await fs.appendFile(
        day,
        `${WORDS[lang]}\n<!--cyrene:{"id": "x"\n\n${WORDS[lang]}\n<!--cyrene:{"id":"20260101T000000Z-abcd","links":["nowhere|"]}-->\n\n${WORDS[lang]}\n`,
      )
      const text = await run(['memory', 'check'], lang, 1)
      says(lang, text, {
        en: ['the cyrene comment is not closed with "-->" on the same line', 'link to unknown entry nowhere', 'text without a cyrene comment after it'],
        zh: ['这条 cyrene 注释没有在同一行用 "-->" 收尾', '链接指向的条目 nowhere 不存在', '这段文字后面没有 cyrene 注释'],
      })
    })

    it(`${lang}: an import with bad lines`, async () => {
      const file = join(t.home, 'in.jsonl')
      const lines = [
        JSON.stringify({ text: WORDS[lang] }),
        'not json',
        '[1]',
        JSON.stringify({ kind: 'fact' }),
        JSON.stringify({ text: WORDS[lang], axis: 'X' }),
        JSON.stringify({ text: WORDS[lang], at: '2026-13-01' }),
      ]
      await fs.writeFile(file, Buffer.concat([Buffer.from(`${lines.join('\n')}\n`), Buffer.from([0x7b, 0xff, 0x7d, 0x0a])]))
      const text = await run(['memory', 'import', '--jsonl', file], lang, 0)
      expect(text.split('\n').filter((l) => l.includes('in.jsonl:'))).toHaveLength(6)
      says(lang, text, {
        en: ['in.jsonl:2: not valid JSON', 'axis "X" is not one of 德 智 体 美 劳', 'not valid UTF-8 (near byte 2 of the line, 0xff)'],
        zh: ['in.jsonl:2：不是有效的 JSON', 'axis "X" 不是 德 智 体 美 劳 之一', '不是有效的 UTF-8（在这一行第 2 个字节附近，0xff）'],
      })
    })

    it(`${lang}: a settings file with wrong values`, async () => {
      await run(['memory', 'write', WORDS[lang]], lang, 0)
      await fs.writeFile(
        join(t.home, ROOT, '元', 'settings.json'),
        JSON.stringify({ form: 'desk', nope: 1, nickname: ' a', quota: { totalMB: 0 }, siyuan: { url: 'ftp://x' } }),
      )
      const shown = await run(['settings', 'get', 'nickname'], lang, 1)
      const checked = await run(['memory', 'check'], lang, 0)
      const doctor = await run(['doctor', '--verbose'], lang, 0)
      for (const text of [shown, checked, doctor])
        says(lang, text, {
          en: ['元/settings.json: "nope" is not a setting', '元/settings.json nickname must not start or end with spaces; ignored'],
          zh: [
            '元/settings.json：没有 "nope" 这个设置',
            '"form" 只能是 `chat, work` 之一；仍用 "chat"',
            '"quota.totalMB" 要是不小于 1 的整数',
            '"siyuan.url" 格式不对',
          ],
        })
    })

    it(`${lang}: a settings change refused for a settings file that is not an object (decision 083)`, async () => {
      await run(['memory', 'write', WORDS[lang]], lang, 0)
      await fs.writeFile(join(t.home, ROOT, '元', 'settings.json'), '[1]')
      const text = await run(['sync', 'git', '--remote', join(t.home, 'r.git')], lang, 2)
      says(lang, text, {
        en: ['元/settings.json must hold a JSON object; using the last good settings; fix or remove the file first, nothing was written'],
        zh: ['元/settings.json 里必须是一个 JSON 对象', '先改好或删掉这个文件，什么都没写'],
      })
    })

    it(`${lang}: a new volume, a sync conflict and a sync remote refused (decision 084)`, async () => {
      await run(['memory', 'write', WORDS[lang]], lang, 0)
      const confirm = await run(['volume', 'new', '--reason', WORDS[lang]], lang, 2)
      const reason = await run(['volume', 'new', '--confirm', 'new-volume'], lang, 2)
      const report = join(t.home, 'report.md')
      await fs.writeFile(report, WORDS[lang])
      const verdict = await run(['volume', 'new', '--confirm', 'new-volume', '--reason', 'x', '--ab-report', report, '--verdict', 'maybe'], lang, 2)
      const notReport = await run(['volume', 'new', '--confirm', 'new-volume', '--reason', 'x', '--ab-report', report, '--verdict', 'keep'], lang, 2)
      const conflict = await run(['memory', 'resolve', 'nope', '--keep', 'a'], lang, 2)
      const remote = await run(['sync', 'git', '--remote', 'ftp://x'], lang, 2)
      says(lang, [confirm, reason, verdict, notReport, conflict, remote].join('\n'), {
        en: [
          'opening a volume is for big changes',
          'give a one-line --reason for the new volume',
          '--verdict must be keep or revert, got "maybe"',
          'is not a persona A/B report',
          'no sync conflict "nope"',
          'the scheme "ftp" is not one git sync uses',
        ],
        zh: [
          '开新卷是给大改动用的',
          '请用 --reason 给新卷写一行理由',
          '--verdict 只能是 keep 或 revert，收到的是 "maybe"',
          '不是人设 A/B 报告',
          '没有 "nope" 这个同步冲突',
          'git 同步不用 "ftp" 这种地址',
        ],
      })
    })

    it(`${lang}: a broken volume index and person-marks record, by the command and the doctor (decision 084)`, async () => {
      const written = JSON.parse((await runInLanguage(t.home, ['memory', 'write', WORDS[lang], '--json'], lang)).out) as { id: string }
      await fs.writeFile(join(t.home, ROOT, '元', '卷.json'), '{"current": 5, "volumes": []}')
      await fs.writeFile(join(t.home, ROOT, '元', 'person-marks.json'), '{"version": 2}')
      const volume = await run(['volume'], lang, 2)
      const marks = await run(['memory', 'marks', '--confirm', written.id], lang, 2)
      const doctor = await run(['doctor', '--verbose'], lang, 1)
      for (const text of [volume, doctor])
        says(lang, text, {
          en: ['元/卷.json is not a valid volume index (current volume 5 is not listed)'],
          zh: ['元/卷.json 不是有效的卷索引（当前卷 5 不在列表里）'],
        })
      for (const text of [marks, doctor])
        says(lang, text, { en: ['元/person-marks.json is not a version-1 record of person marks'], zh: ['元/person-marks.json 不是第 1 版的本人记号记录'] })
    })

    it(`${lang}: a git config the sync does not allow (decision 084)`, async () => {
      await run(['memory', 'write', WORDS[lang]], lang, 0)
      const bare = join(t.home, 'remote.git')
      execFileSync('git', ['init', '--quiet', '--bare', bare])
      await run(['sync', 'git', '--remote', bare, '--quiet'], lang, 0)
      execFileSync('git', ['-C', join(t.home, ROOT), 'config', '--local', 'core.sshCommand', 'x'])
      const text = await run(['sync', 'git'], lang, 2)
      says(lang, text, {
        en: ['the store\'s .git/config has "core.sshcommand", which the sync does not allow', 'Remove it with'],
        zh: ['记忆库的 .git/config 里有 "core.sshcommand"，同步不允许', '删掉它，再同步一次'],
      })
    })

    it(`${lang}: a restore refused for a damaged snapshot`, async () => {
      await run(['memory', 'write', WORDS[lang]], lang, 0)
      await run(['backup', '--quiet'], lang, 0)
      const snapshots = join(t.home, `${ROOT}-snapshots`)
      const [name] = await fs.readdir(snapshots)
      const snapshot = join(snapshots, name!)
      const dayFiles = (await fs.readdir(snapshot, { recursive: true })).filter((f) => f.endsWith('.md'))
      await fs.appendFile(join(snapshot, dayFiles[0]!), WORDS[lang])
      await fs.writeFile(join(snapshot, '元', 'extra.json'), '{}')
      const text = await run(['restore', name!], lang, 2)
      says(lang, text, {
        en: [
          `snapshot ${name} cannot be restored; nothing was changed:`,
          'when the snapshot was taken (cut short or edited)',
          '元/extra.json was added after the snapshot was taken',
        ],
        zh: [`快照 ${name} 没法恢复；什么都没改`, '拍快照时是', '元/extra.json 是拍快照以后加进去的'],
      })
    })
  }
})
