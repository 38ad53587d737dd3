import { describe, expect, it } from 'vitest'
import { KEEP_OTHER_SNAPSHOTS, KEEP_SNAPSHOTS } from '../memory/upkeep.ts'
import { CATALOGUES, en, paramsOf, t, zh, type MessageKey } from './index.ts'
import { chineseLeft, englishSentences } from './testing/language-rule.ts'
import { importCard } from '../whale/card-import.ts'
import { parseIndices } from '../whale/inbox-actions.ts'
import { cardJsonFromPng } from '../whale/png.ts'
import { applyPreset } from '../whale/presets.ts'
import { WhaleError, type WhaleSaid } from '../whale/said.ts'
import { saidText } from './store-said.ts'
import { hasWhaleSaid, whaleSaidOr } from './whale-said.ts'

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

  it('every code whale/ refuses or notes with has words in both catalogues, the English its own sentence (decision 085)', () => {
    const thrown = (fn: () => unknown): WhaleError => {
      try {
        fn()
      } catch (e) {
        if (e instanceof WhaleError) return e
        throw e
      }
      throw new Error('not refused')
    }
    const png = (hex: string) => Buffer.from(`89504e470d0a1a0a${hex}`, 'hex')
    const saids: Array<{ said: WhaleSaid; en: string }> = [
      thrown(() => parseIndices([], 3)),
      thrown(() => parseIndices(['x'], 3)),
      thrown(() => parseIndices(['5'], 1)),
      thrown(() => parseIndices(['5'], 3)),
      thrown(() => parseIndices(['1', '1'], 3)),
      thrown(() => applyPreset([], { spec: 'whale-persona/1', id: 'a', label: 'a', persona: {} } as never)),
      thrown(() => applyPreset({ persona: 1 }, { spec: 'whale-persona/1', id: 'a', label: 'a', persona: {} } as never)),
      thrown(() => cardJsonFromPng(png(''))),
      thrown(() => cardJsonFromPng(png('00000000'))),
      thrown(() => cardJsonFromPng(png('0000000049454e44ae426082'))),
      thrown(() => cardJsonFromPng(png('000000003f3f3f3f00000000'))),
      thrown(() => cardJsonFromPng(png('0000ffff49444154'))),
      thrown(() => cardJsonFromPng(Buffer.from('plain'))),
    ].map((e) => ({ said: e.said, en: e.message }))
    for (const card of [
      Buffer.from([1, 0, 2]),
      Buffer.from('{oops'),
      Buffer.from('[1]'),
      Buffer.from('{"spec":"chara_card_v2","data":{"name":"n"}}'),
      png(''),
    ]) {
      const r = importCard(card, 'card.json')
      if (!r.ok) saids.push({ said: r.said, en: r.error })
    }
    const rich = { spec: 'chara_card_v2', data: { name: 'n', description: 'd', system_prompt: '{{original}}\nx', first_mes: 'h', extensions: { o: 1 } } }
    for (const card of [rich, { spec: 'whale-persona/1', id: 'p', label: 'p', persona: { character: 'c' }, nope: 1 }]) {
      const r = importCard(Buffer.from(JSON.stringify(card)), 'card.json')
      if (r.ok) r.notes.forEach((en, i) => saids.push({ said: r.notesSaid[i]!, en }))
    }
    expect(saids.length).toBeGreaterThan(20)
    for (const { said, en: english } of saids) {
      expect({ code: said.code, known: hasWhaleSaid(said) }).toEqual({ code: said.code, known: true })
      expect(whaleSaidOr(said, '', 'zh')).not.toBe('')
      expect(saidText(said, 'en', 'whale.said.')).toBe(english)
      // What another program said (JSON.parse's message) stays as written (decision 081).
      if (said.params?.error === undefined) expect(englishSentences(saidText(said, 'zh', 'whale.said.')!), said.code).toEqual([])
    }
  })
})

describe('English counts', () => {
  it('one entry, not "1 entries"; other counts keep the plural; Chinese has none to change', () => {
    expect(t('store.export.done', 'en', { n: 1, file: 'x.jsonl' })).toBe('exported 1 entry to x.jsonl')
    expect(t('store.export.done', 'en', { n: 11, file: 'x.jsonl' })).toBe('exported 11 entries to x.jsonl')
    expect(t('store.export.done', 'en', { n: 1001, file: 'x.jsonl' })).toBe('exported 1,001 entries to x.jsonl')
    expect(t('cli.list.count', 'en', { n: 1 })).toBe('1 entry')
    expect(t('store.export.done', 'zh', { n: 1, file: 'x.jsonl' })).toBe('导出了 1 条到 x.jsonl')
  })
})
