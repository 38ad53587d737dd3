import { describe, expect, it } from 'vitest'
import { KEEP_OTHER_SNAPSHOTS, KEEP_SNAPSHOTS } from '../memory/index.ts'
import { CATALOGUES, en, paramsOf, t, zh, type MessageKey } from './index.ts'

/**
 * The rule (docs/decisions/060): a zh text holds no English sentence — after
 * taking out `{params}`, `code`, commands (`cyrene …`, `npm …`, `/cyrene …`),
 * options, paths and file names, no three Latin words stand in a row; an en
 * text holds no Chinese — after taking out paths (元/…, 锚/…) and the names
 * that stay Chinese in every language (昔涟 · 新卷, 余页/待定, 道韵, the five
 * virtues 德 智 体 美 劳 given as values), no Han character is left.
 */
const HAN = /\p{Script=Han}/u
const EN_ALLOWED = ['昔涟 · 新卷', '昔涟', '新卷', '余页/待定', '余页', '待定', '道韵', '德', '智', '体', '美', '劳']

function englishSentences(text: string): string[] {
  const stripped = text
    .replace(/\{[A-Za-z0-9_]+\}/g, ' ')
    .replace(/`[^`]*`/g, ' ')
    .replace(/(?:cyrene|npm|dsh)(?: +(?:[a-z][a-z-]*|--?[a-z][\w-]*(?:=\S+)?|<[^>]*>|[A-Z_]+=\S+|\S*[./|]\S*|"[^"]*"|…))+/g, ' ')
    .replace(/\/[a-z][\w-]*(?: +(?:[a-z][a-z|-]*|<[^>]*>|\[[^\]]*\]))*/g, ' ')
    .replace(/--?[a-z][\w-]*(?:=\S+)?/g, ' ')
    .replace(/\S*[./_=|<>@]\S*/g, ' ')
  const found: string[] = []
  for (const m of stripped.matchAll(/[A-Za-z][A-Za-z'’-]*(?:[ ,]+[A-Za-z][A-Za-z'’-]*){2,}/g)) found.push(m[0])
  return found
}

function chineseLeft(text: string): string {
  let s = text.replace(/\S*[/.]\S*/g, (token) => (HAN.test(token) ? ' ' : token))
  for (const name of EN_ALLOWED) s = s.split(name).join(' ')
  return [...s].filter((c) => HAN.test(c)).join('')
}

describe('the message catalogues (issue 22)', () => {
  const keys = Object.keys(zh) as MessageKey[]

  it('every key is in both catalogues, with the same {params}', () => {
    expect(Object.keys(en).sort()).toEqual([...keys].sort())
    for (const key of keys) expect({ key, params: paramsOf(en[key]) }).toEqual({ key, params: paramsOf(zh[key]) })
  })

  it('no Chinese text holds an English sentence', () => {
    const bad = keys.map((k) => ({ k, found: englishSentences(zh[k]) })).filter((x) => x.found.length > 0)
    expect(bad).toEqual([])
  })

  it('no English text holds Chinese beyond the names that stay Chinese', () => {
    const bad = keys.map((k) => ({ k, left: chineseLeft(en[k]) })).filter((x) => x.left !== '')
    expect(bad).toEqual([])
  })

  it('the rule catches what it is for', () => {
    expect(englishSentences('recall: 1 entries indexed in a worker')).not.toEqual([])
    expect(englishSentences('请运行 cyrene memory export --json 后再看 元/settings.json')).toEqual([])
    expect(chineseLeft('(空 —— 该段不会出现在系统提示词里)')).not.toBe('')
    expect(chineseLeft('the journal in 元/梦/2026-05-02.md, 余页/待定 re-checked')).toBe('')
  })

  it('t fills params, numbers as 1,024, in the language asked for', () => {
    expect(t('doctor.memory.summary', 'zh', { n: 1024 })).toBe('1,024 条，一切正常')
    expect(t('doctor.memory.summary', 'en', { n: 1024 })).toBe('1,024 entries, all well')
    expect(Object.keys(CATALOGUES)).toEqual(['zh', 'en'])
  })

  it('the help texts say how many snapshots are kept as memory/snapshots.ts keeps them', () => {
    for (const lang of ['zh', 'en'] as const) {
      const help = t('help.backup.summary', lang)
      expect(help).toContain(String(KEEP_OTHER_SNAPSHOTS))
      expect(help).toContain(String(KEEP_SNAPSHOTS))
    }
  })
})
