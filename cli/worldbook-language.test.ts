import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempHome } from '../memory/testing/tmp.ts'
import { otherLanguage } from '../tests/harness/language.ts'
import { en, zh } from '../i18n/index.ts'
import { IMPORT_NOTE_CODES } from '../worldbook/index.ts'
import { runInLanguage } from './testing/in-language.ts'

/**
 * Issue 22: `cyrene worldbook import` and `list` speak the person's language
 * only — the summary, every entry's notes, how its keys match, each field not
 * carried with what happens instead, the refusals, and a file refused as a
 * whole. The source's own names (field names, values, entry names, origins:
 * read from the --json run) are data and taken out before the check.
 */
let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

const run = (args: string[], lang: 'zh' | 'en') => runInLanguage(t.home, args, lang)

const fixture = (name: string) => join(import.meta.dirname, '..', 'tests', 'fixtures', 'worldbook', name)

interface Carried {
  field: string
  value?: unknown
}
interface Plan {
  entries: { name: string; origin: string; kept: string[]; notCarried: Carried[] }[]
  refused: { origin: string }[]
  book: { notCarried: Carried[] }
}

/** The source's own words in a plan: names, origins, field names and values, the longest first. */
function dataOf(plan: Plan, extra: string[] = []): string[] {
  const fields = (list: Carried[]) => list.flatMap((d) => [d.field, ...(d.value === undefined ? [] : [JSON.stringify(d.value)])])
  return [
    ...extra,
    ...plan.entries.flatMap((e) => [e.name, e.origin, ...e.kept, ...fields(e.notCarried)]),
    ...plan.refused.map((r) => r.origin),
    ...fields(plan.book.notCarried),
  ].sort((a, b) => b.length - a.length)
}

const without = (text: string, data: string[]) => data.reduce((s, d) => s.split(d).join(' '), text)

describe('cyrene worldbook in the person’s language (issue 22)', () => {
  for (const lang of ['zh', 'en'] as const) {
    it(`${lang}: import of a world, an Eldoria-shaped world and a card's book — notes, matching, fields not carried, refusals`, async () => {
      for (const name of ['st-world.json', 'harbour-eldoria-shaped.json', 'card-with-book.json']) {
        const said = await run(['worldbook', 'import', fixture(name), '--dry-run'], lang)
        expect(said.code, said.err).toBe(0)
        const plan = JSON.parse((await run(['worldbook', 'import', fixture(name), '--dry-run', '--json'], lang)).out) as Plan
        // Values as the text shows them (matchWholeWords true), and the regular expression key of st-world.json.
        const text = without(said.out, dataOf(plan, ['"/昔.+涟/i"', 'true', 'false']))
        expect({ name, found: otherLanguage(lang, text) }).toEqual({ name, found: [] })
      }
      const eldoria = (await run(['worldbook', 'import', fixture('harbour-eldoria-shaped.json'), '--dry-run'], lang)).out
      if (lang === 'zh') {
        expect(eldoria).toContain('拆分：显示出来有 1,469 字，关键词命中块连框架只放得下 800 字：在换行处切成 3 段')
        expect(eldoria).toContain('没带过来：probability 40 —— 不照办：关键词一命中就进来（不掷骰子）')
        expect(eldoria).toContain('匹配：关键词按子串匹配（"beast" 也命中 "beasts"）（没写：用 SillyTavern 的默认值）')
      } else {
        expect(eldoria).toContain(
          'split: 1,469 characters as shown, and a keyword hit block holds 800 characters with its frame: cut at line breaks into 3 parts',
        )
        expect(eldoria).toContain('not carried: probability 40 — not honoured: it comes in every time its keys match (no dice)')
      }
    })

    it(`${lang}: a file refused as a whole, one that is not JSON, a missing one; and worldbook list`, async () => {
      await fs.writeFile(join(t.home, 'x.json'), '{"name": "not a world"}')
      await fs.writeFile(join(t.home, 'card.json'), '{"spec": "chara_card_v2", "data": {"name": "x"}}')
      await fs.writeFile(join(t.home, 'y.json'), '{broken')
      const refusals: string[] = []
      for (const file of ['x.json', 'card.json', 'y.json', 'nope.json']) {
        const r = await run(['worldbook', 'import', join(t.home, file)], lang)
        expect(r.code, file).toBe(2)
        // The file's path and what JSON.parse or the system said are theirs, not ours.
        refusals.push(r.err.replaceAll(join(t.home, file), ' ').replace(/（[^）]*）|\([^)]*\)|ENOENT:[^;；]*/g, ' '))
      }
      for (const text of refusals) expect({ text, found: otherLanguage(lang, text) }).toEqual({ text, found: [] })
      expect(refusals[1]).toContain(lang === 'zh' ? '这张角色卡没有 character_book' : 'this character card has no character_book')
      await run(['worldbook', 'import', fixture('st-world.json')], lang)
      const plan = JSON.parse((await run(['worldbook', 'import', fixture('st-world.json'), '--dry-run', '--json'], lang)).out) as Plan
      const list = (await run(['worldbook', 'list'], lang)).out
      // Entry names, keys and the folders are data: the starter's too (from the list's own --json).
      const listed = JSON.parse((await run(['worldbook', 'list', '--json'], lang)).out) as {
        folders: { dir: string }[]
        entries: { name: string; source: string; keys: string[]; secondaryKeys: string[]; logic: string }[]
      }
      const data = [
        ...listed.folders.map((f) => f.dir),
        ...listed.entries.flatMap((e) => [e.name, e.source, e.logic, ...e.keys, ...e.secondaryKeys]),
        ...dataOf(plan),
      ].sort((a, b) => b.length - a.length)
      expect(otherLanguage(lang, without(list, data))).toEqual([])
      expect(list).toContain(lang === 'zh' ? '优先级' : 'priority')
    })
  }

  it('every code of the import has its words in both catalogues', () => {
    for (const code of IMPORT_NOTE_CODES) {
      const key = `worldbook.note.${code}`
      expect({ key, zh: key in zh, en: key in en }).toEqual({ key, zh: true, en: true })
    }
  })
})
