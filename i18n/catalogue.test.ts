import { describe, expect, it } from 'vitest'
import { KEEP_OTHER_SNAPSHOTS, KEEP_SNAPSHOTS } from '../memory/index.ts'
import { CATALOGUES, en, paramsOf, t, zh, type MessageKey } from './index.ts'
import { chineseLeft, englishSentences } from './testing/language-rule.ts'

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
