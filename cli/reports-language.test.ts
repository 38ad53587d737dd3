import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { gateProblemOf, gateReasons } from '../memory/format.ts'
import { tempHome } from '../memory/testing/tmp.ts'
import { otherLanguage } from '../tests/harness/language.ts'
import { en, zh } from '../i18n/index.ts'
import { runInLanguage } from './testing/in-language.ts'

/**
 * Issue 22: what the lower layers report (the gate, recall's silence,
 * snapshots, SiYuan, git, the worldbook import) reaches the command line in
 * the person's language only. Each surface runs for real, in zh and in en, and
 * its text holds no sentence of the other language (the catalogue's rule,
 * tests/harness/language.ts), the person's data (memories, paths) aside.
 */
let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

const run = (args: string[], lang: 'zh' | 'en') => runInLanguage(t.home, args, lang)

const FIXTURE = join(import.meta.dirname, '..', 'tests', 'fixtures', 'worldbook', 'st-world.json')

describe('lower layers’ reports in the person’s language (issue 22)', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`${lang}: memory write’s gate reasons, recall’s why-nothing, backup and restore, sync and sync git, worldbook import`, async () => {
      const said: Record<string, string> = {}
      const pending = await run(['memory', 'write', 'likes coffee', '--kind', 'fact'], lang)
      expect(pending.code).toBe(0)
      said.write = pending.out.replace('likes coffee', '')
      said.recall = (await run(['memory', 'recall', 'Caroline Paris'], lang)).out
      const backup = await run(['backup'], lang)
      said.backup = backup.out
      const name = (await run(['restore', '--list', '--json'], lang)).out.match(/"snapshots": \[\s*"([^"]+)"/)?.[1]
      expect(name).toBeDefined()
      said.restore = (await run(['restore', name!], lang)).out
      said.sync = (await run(['sync'], lang)).out
      const bare = join(t.home, 'remote.git')
      execFileSync('git', ['init', '--quiet', '--bare', bare])
      const git = await run(['sync', 'git', '--remote', bare], lang)
      expect(git.code, git.err).toBe(0)
      said.git = git.out
      const world = await run(['worldbook', 'import', FIXTURE, '--dry-run'], lang)
      expect(world.code, world.err).toBe(0)
      // The summary and each entry's line; every note and reason is checked in cli/worldbook-language.test.ts (the source's names taken out).
      const lines = world.out.split('\n')
      said.worldbook = [lines[0], ...lines.filter((l) => l.includes(' → '))].join('\n')
      for (const [surface, text] of Object.entries(said)) {
        expect(text.trim(), surface).not.toBe('')
        expect({ surface, found: otherLanguage(lang, text) }).toEqual({ surface, found: [] })
      }
      // The words are the catalogue's, not the English a script reads in --json.
      if (lang === 'zh') {
        expect(said.write).toContain('第 2 条：五育要是 德、智、体、美、劳 之一')
        expect(said.recall).toContain('没有哪条记忆和这句话有相同的词')
        expect(said.sync).toContain('思源同步关着')
        expect(said.git).toMatch(/提交了 \d+ 条记忆；其他机器没有新的；已发到 /)
      } else {
        expect(said.write).toContain('rule 2: the virtue must be one of 德, 智, 体, 美, 劳')
        expect(said.git).toMatch(/committed (1 entry|\d+ entries); nothing new from the other machines; sent to /)
      }
    })
  }

  it('every sentence the gate keeps reads back as its code, so a file written by an older run is worded too', () => {
    const reasons = gateReasons({ id: 'x', kind: 'decision', reason: 'two\nlines' })
    expect(reasons.length).toBeGreaterThanOrEqual(3)
    for (const r of [...reasons, ...gateReasons({ id: 'y', kind: 'fact' })]) expect({ r, problem: gateProblemOf(r) }).not.toEqual({ r, problem: undefined })
    expect(gateProblemOf('something the gate never wrote')).toBeUndefined()
  })

  it('every code a lower layer gives has its words in both catalogues', () => {
    const codes = [
      ...[
        'empty-query',
        'empty-index',
        'no-match',
        'low-coverage',
        'weak-match',
        'unknown-person',
        'unknown-name',
        'missing-thing',
        'no-answer',
        'only-characters',
        'left-out',
      ].map((c) => `recall.silence.${c}`),
      ...['timeout', 'unreachable', 'token', 'forbidden', 'http', 'not-json', 'refused', 'read-only', 'no-list', 'no-notebook', 'no-doc'].map(
        (c) => `siyuan.error.${c}`,
      ),
    ]
    for (const key of codes) expect({ key, zh: key in zh, en: key in en }).toEqual({ key, zh: true, en: true })
  })
})
