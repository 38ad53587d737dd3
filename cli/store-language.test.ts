import { promises as fs, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempHome } from '../memory/testing/tmp.ts'
import { otherLanguage } from '../tests/harness/language.ts'
import { memoryIO } from './io.ts'
import { main } from './main.ts'

/**
 * Issue 22: the store's commands (memory …, backup, restore, volume, migrate,
 * settings, sync) speak the person's language only — their lines, their
 * refusals and the store's own refusals (the quota, a link to nothing, a
 * missing snapshot), worded from their codes (decision 078). Each command runs
 * for real under LANG, good input and bad, and no line is in the other
 * language (tests/harness/language.ts), the person's own words aside.
 */
let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

const LOCALE = { zh: 'zh_CN.UTF-8', en: 'en_US.UTF-8' } as const
/** The person's words in each language: they are data, and the check is about ours. */
const WORDS = { zh: { note: '今天下雨了', query: '下雨', none: '咖啡' }, en: { note: 'rain today', query: 'rain', none: 'sunshine' } } as const

async function run(args: string[], lang: 'zh' | 'en', stdin?: string): Promise<{ code: number; out: string; text: string }> {
  const io = memoryIO({ DSH_HOME: t.home, HOME: t.home, PATH: process.env.PATH, LANG: LOCALE[lang] }, t.home, stdin)
  const code = await main(args, io)
  return { code, out: io.out(), text: io.out() + io.err() }
}

describe('the store’s commands in the person’s language (issue 22)', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`${lang}: every line of memory, backup, restore, volume, migrate, settings and sync, and their refusals`, async () => {
      const w = WORDS[lang]
      const said: Record<string, string> = {}
      const check = async (surface: string, args: string[], exit: number | 'refused', stdin?: string): Promise<string> => {
        const r = await run(args, lang, stdin)
        if (exit === 'refused') expect(r.code, `${surface}: ${r.text}`).toBeGreaterThanOrEqual(1)
        else expect(r.code, `${surface}: ${r.text}`).toBe(exit)
        said[surface] = r.text
        return r.text
      }
      const written = await check('write', ['memory', 'write', w.note, '--axis', '智', '--reason', w.note], 0)
      const id = /(\d{8}T\S+)/.exec(written)?.[1]
      expect(id, written).toBeDefined()
      await check('write (bad consequence)', ['memory', 'write', w.note, '--consequence', 'nope'], 2)
      await check('write (empty)', ['memory', 'write', ' '], 2)
      await check('write (link to nothing)', ['memory', 'write', w.note, '--link', 'nope|'], 2)
      await check('write (link type)', ['memory', 'write', w.note, '--link', `${id}|nope`], 2)
      await check('show', ['memory', 'show', id!], 0)
      await check('show (no such id)', ['memory', 'show', 'x'], 1)
      await check('search', ['memory', 'search', w.query], 0)
      await check('search (nothing)', ['memory', 'search', w.none], 0)
      await check('search (bad limit)', ['memory', 'search', w.query, '--limit', '0'], 2)
      await check('list', ['memory', 'list'], 0)
      await check('log', ['memory', 'log'], 0)
      await check('log (bad limit)', ['memory', 'log', '--limit', 'x'], 2)
      await check('check', ['memory', 'check'], 0)
      await check('resolve (bad keep)', ['memory', 'resolve', 'x', '--keep', 'c'], 2)
      await check('resolve (no id)', ['memory', 'resolve'], 2)
      await check('reindex', ['memory', 'reindex'], 0)
      await check('recheck', ['memory', 'recheck'], 0)
      await check('recheck (bad scope)', ['memory', 'recheck', '--scope', 'week'], 2)
      await check('untomb (no tombstone)', ['memory', 'untomb', 'x'], 2)
      await check('anchor write', ['memory', 'anchor', 'write', 'user', w.note], 0)
      await check('anchor (bad key)', ['memory', 'anchor', 'write', 'nope', w.note], 2)
      await check('anchor (bad verb)', ['memory', 'anchor', 'nope'], 2)
      await check('marks', ['memory', 'marks'], 0)
      await check('marks (no such id)', ['memory', 'marks', '--confirm', 'x'], 2)
      await check('recall', ['memory', 'recall', w.query], 0)
      await check('recall (bad k)', ['memory', 'recall', w.query, '--k', '0'], 2)
      const lines = JSON.stringify({ text: w.note, at: '2026-03-01T10:00:00Z' }) + '\n'
      await fs.writeFile(join(t.home, 'in.jsonl'), lines)
      await check('import', ['memory', 'import', '--jsonl', join(t.home, 'in.jsonl')], 0)
      await check('import (dry run)', ['memory', 'import', '--jsonl', '-', '--dry-run'], 0, lines)
      await check('import (no file)', ['memory', 'import', '--jsonl', join(t.home, 'missing.jsonl')], 2)
      await check('import (no option)', ['memory', 'import'], 2)
      await check('export', ['memory', 'export', '--out', join(t.home, 'out.jsonl')], 0)
      await check('backup', ['backup', '--quiet'], 0)
      await check('restore (no such snapshot)', ['restore', 'nope'], 2)
      await check('volume', ['volume'], 0)
      await check('volume (bad verb)', ['volume', 'nope'], 2)
      await check('volume (A/B half)', ['volume', 'new', '--verdict', 'keep'], 2)
      await check('migrate', ['migrate', '--from', join(t.home, 'in.jsonl'), '--dry-run', '--quiet'], 0)
      await check('migrate (no source)', ['migrate'], 2)
      await check('settings set', ['settings', 'set', 'nickname', lang === 'zh' ? '小涟' : 'Rin'], 0)
      await check('settings unset', ['settings', 'unset', 'nickname'], 0)
      await check('settings (unknown key)', ['settings', 'get', 'nope'], 2)
      await check('settings (too long)', ['settings', 'set', 'nickname', 'x'.repeat(200)], 2)
      // SiYuan sync is off in a new store: it says so, exit 1.
      await check('sync', ['sync'], 1)
      await check('sync git (bad remote)', ['sync', 'git', '--remote', 'ftp://example.org/memory.git'], 2)
      // The quota: a store over its 1 MB refuses the write, and says what to raise.
      const root = join(t.home, 'cyrene-philia093-0')
      await fs.writeFile(join(root, '余页', 'long.md'), 'x'.repeat(1_100_000))
      await fs.writeFile(join(root, '元', 'settings.json'), JSON.stringify({ quota: { totalMB: 1 } }))
      const full = await check('write (store full)', ['memory', 'write', w.note], 2)
      expect(full).toContain('quota.totalMB')

      for (const [surface, text] of Object.entries(said)) {
        // An item's skip reason is memory/migrate's English sentence, not coded yet (decision 078): the line around it is ours.
        const reasonless = surface === 'migrate' ? text.replace(/^( {2}(?:跳过|skipped) \S+?)(：|: ).*$/gm, '$1') : text
        const ours = reasonless.split(w.note).join(' ').split(w.query).join(' ').split(w.none).join(' ')
        expect(ours.trim(), surface).not.toBe('')
        expect({ surface, found: otherLanguage(lang, ours) }).toEqual({ surface, found: [] })
      }
      if (lang === 'zh') {
        expect(said['search (nothing)']).toContain('没有找到和 "咖啡" 有关的记忆')
        expect(said.check).toContain('记忆库检查无误')
        expect(full).toContain('记忆库满了')
      } else {
        expect(said['search (nothing)']).toContain('nothing found for "sunshine"')
        expect(said.check).toContain('the store checks clean')
        expect(full).toContain('the memory store is full')
      }
    })
  }

  it("list --pending with a broken re-check record lists the entries without their counts, says why in the person's language, exits 0", async () => {
    await run(['memory', 'write', '今天下雨了'], 'zh')
    const record = join(t.home, 'cyrene-philia093-0', '元', '待定复检.json')
    writeFileSync(record, '{"version":1,"entr')
    const zh = await run(['memory', 'list', '--pending'], 'zh')
    expect(zh.code).toBe(0)
    expect(zh.out).toContain('今天下雨了')
    expect(zh.text).toContain('所以不显示复核次数')
    expect(zh.text).not.toContain('再复核')
    const en = await run(['memory', 'list', '--pending', '--json'], 'en')
    const listed = JSON.parse(en.out) as { entries: Array<{ record?: unknown }>; recordProblem?: string }
    expect(listed.entries).toHaveLength(1)
    expect(listed.entries[0]!.record).toBeUndefined()
    expect(listed.recordProblem).toContain('元/待定复检.json is not valid JSON')
    expect(readFileSync(record, 'utf8')).toBe('{"version":1,"entr')
    const recheck = await run(['memory', 'recheck'], 'en')
    expect(recheck.code).toBe(2)
  })

  it('--json keeps its keys and values under a Chinese locale', async () => {
    await run(['memory', 'write', '今天下雨了'], 'zh')
    const r = await run(['memory', 'list', '--pending', '--json'], 'zh')
    const listed = JSON.parse(r.out) as { entries: Array<{ owner: string; area: string; meta: { gate: string } }> }
    expect(listed.entries.map((e) => [e.owner, e.area, e.meta.gate])).toEqual([['person', 'pending', 'pending']])
    const report = JSON.parse((await run(['memory', 'check', '--json'], 'zh')).out) as { stats: { entries: number; pending: number } }
    expect(report.stats).toMatchObject({ entries: 1, pending: 1 })
  })
})
