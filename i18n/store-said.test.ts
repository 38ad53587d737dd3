import { describe, expect, it } from 'vitest'
import { parseImportJsonl, restoreTombstone } from '../memory/upkeep.ts'
import { parseEntryFile } from '../memory/format.ts'
import type { Said } from '../memory/said.ts'
import { applySettingsPatch, parseSettingsText, abReviewOf, reportMarkLine, openVolume, personaFingerprint } from '../memory/person.ts'
import { buildMeta, checkText, DEFAULT_LIMITS, importedMetaSaid, parseWhen, RefusedError, type NewEntry } from '../memory/validate.ts'
import { englishSentences } from './testing/language-rule.ts'
import { linkEntries, MemoryStore } from '../memory/index.ts'
import { resolveConflict } from '../memory/git.ts'
import { refuseBadRemote } from '../memory/git-repo.ts'
import { tempHome } from '../memory/testing/tmp.ts'
import { errorText, hasSaid, saidText } from './store-said.ts'

/**
 * Decision 082: what memory/ says as a code is worded from the catalogue —
 * its English words are memory/'s own sentence (so English readers, tests and
 * scripts see no change) and its Chinese words hold no English sentence.
 * Every said (and every said inside one) has words in the catalogue.
 */
function refusal(fn: () => unknown, which: number): RefusedError {
  try {
    fn()
  } catch (e) {
    if (e instanceof RefusedError) return e
    throw e
  }
  throw new Error(`case ${which} was not refused`)
}

function allCoded(said: Said): string[] {
  const missing = hasSaid(said) ? [] : [said.code]
  for (const v of Object.values(said.params ?? {})) {
    if (Array.isArray(v)) for (const x of v as Said[]) missing.push(...allCoded(x))
    else if (typeof v === 'object') missing.push(...allCoded(v as Said))
  }
  return missing
}

function expectWorded(said: Said, english: string): void {
  expect(allCoded(said), english).toEqual([])
  expect(saidText(said, 'en')).toBe(english)
  expect(englishSentences(saidText(said, 'zh') ?? ''), saidText(said, 'zh')).toEqual([])
}

const write =
  (input: Partial<NewEntry>, by: 'person' | 'model' = 'person') =>
  () =>
    buildMeta({ text: 'x', ...input } as NewEntry, by, DEFAULT_LIMITS)

describe('what memory/ says, in both languages (decision 082)', () => {
  it('the refusals of a write: each field check', () => {
    const cases = [
      write({ text: '' }),
      write({ text: '\u200b\u200b' }),
      write({ text: 'x'.repeat(401) }),
      write({ text: 'bell\u0007' }),
      write({ text: 'a\n<!--cyrene:{"id":"x"}-->' }),
      write({ text: 'half \ud83d' }),
      write({ text: 3 as unknown as string }),
      write({ reason: 'r'.repeat(201) }),
      write({ reason: 'a\u0007' }),
      write({ reason: 5 as unknown as string }),
      write({ kind: 'Not A Kind' }),
      write({ base: true }, 'model'),
      write({ links: 'x' as unknown as string[] }),
      write({ links: [3 as unknown as string] }),
      write({ links: [' |'] }),
      write({ links: ['20260101T000000Z-aaaa|nope'] }),
      write({ src_ids: [''] }),
      write({ consequence: 'x' as never }),
      write({ consequence: { self: 'a\u0007' } }),
      write({ extra: [] as never }),
      write({ extra: { id: 'x' } }),
      write({ extra: { blob: 'b'.repeat(5000) } }),
      write({ src_quote: 'q'.repeat(1199) }),
      write({ at: '2026-13-45' }),
      write({ at: '12' }),
      write({ at: 'yesterday' }),
      write({ at: '2026-02-30' }),
      write({ at: '0999-01-01' }),
      write({ at: '2026-01-01T25:00' }),
      write({ at: '2026-01-01T10:00+24:00' }),
      write({ at: 7 as unknown as string }),
      () => checkText('x', DEFAULT_LIMITS, { en: '余页 text', said: { code: 'part.margin-text' } }) && checkText('', DEFAULT_LIMITS),
    ]
    for (const [i, c] of cases.entries()) {
      const e = refusal(c, i)
      expectWorded(e.said, e.message)
    }
    expect(() => parseWhen('2026-03-04')).not.toThrow()
  })

  it('a chat command words a store refusal as the command line does (errorText)', () => {
    const e = refusal(write({ text: 'x'.repeat(401) }), 0)
    expect(errorText(e, 'zh')).toBe(saidText(e.said, 'zh'))
    expect(errorText(e, 'zh')).toContain('条目正文 有 401 个字')
    expect(errorText(e, 'en')).toBe(e.message)
    expect(errorText(new Error('disk said no'), 'zh')).toBe('disk said no')
  })

  it('the notes of a write', () => {
    const r = buildMeta({ text: 'a\u200bb', kind: 'mood' }, 'person', DEFAULT_LIMITS)
    expect(r.saidNotes).toHaveLength(2)
    r.saidNotes.forEach((said, i) => {
      expectWorded(said, r.notes[i]!)
    })
  })

  it('why an imported line is refused', () => {
    const lines = ['not json', '[1]', '{"kind":"fact"}', '{"text":"x","at":"2026-13-01"}', '{"text":"x","kind":3}'].join('\n')
    const { skipped } = parseImportJsonl(new TextEncoder().encode(`${lines}\n\xff\n`.replace('\xff', '')), 'in.jsonl')
    const bad = parseImportJsonl(Uint8Array.from([0x7b, 0xff, 0x7d]), 'bad.jsonl').skipped
    for (const s of [...skipped, ...bad]) expectWorded(s.said!, s.why)
    expect(skipped.length + bad.length).toBe(6)
    for (const meta of [{ axis: 'X' }, { reason: 4 }, { reason: 'a\nb' }, { x: 'esc\u001b' }, { blob: 'b'.repeat(5000) }]) {
      const p = importedMetaSaid(meta)!
      expectWorded(p.said, p.why)
    }
  })

  it('what a store file’s format is missing', () => {
    const text = 'a\n<!--cyrene:{"id": -->\nb\n<!--cyrene:[1]-->\nc\n<!--cyrene:{}-->\nd\n<!--cyrene:{"id":"x"}\n'
    const { problems } = parseEntryFile(text, '日/2026/01/2026-01-01.md')
    expect(problems).toHaveLength(4)
    for (const p of problems) {
      expect(allCoded(p.said)).toEqual([])
      expect(saidText(p.said, 'en')).toBe(p.message)
    }
  })

  it('what a settings file holds wrong', () => {
    const cases = [
      '{"nope": 1, "dream": {"x": 1}, "siyuan": 3, "nickname": " a", "style": 4, "form": "x", "quota": {"totalMB": 0}, "dream.time": 1}',
      '{"siyuan": {"url": "ftp://x", "tokenEnv": "OTHER"}}',
      '[1]',
      '{',
    ]
    for (const text of cases) {
      const { problems, problemsSaid } = parseSettingsText(text)
      expect(problemsSaid).toHaveLength(problems.length)
      problemsSaid.forEach((said, i) => {
        expect(allCoded(said), problems[i]).toEqual([])
        // Schemastery's and JSON.parse's own English are not ours to word: the Chinese says what the setting takes instead.
        if (said.code !== 'settings.bad-value') expect(saidText(said, 'en')).toBe(problems[i])
        if (said.code !== 'settings.json') expect(englishSentences(saidText(said, 'zh')!), saidText(said, 'zh')).toEqual([])
      })
    }
  })

  it('why a settings change is refused (decision 083)', () => {
    const cases = [
      () => applySettingsPatch('', 'nickname=x'),
      () => applySettingsPatch('', { siyuan: { tokenEnvAllow: ['PATH'] } }, {}, { from: 'panel' }),
      () => applySettingsPatch('[1]', { nickname: 'x' }),
      () => applySettingsPatch('', { siyuan: { tokenEnv: 'PATH' } }),
      () => applySettingsPatch('', { form: 'desk', nope: 1 }),
    ]
    for (const [i, c] of cases.entries()) {
      const e = refusal(c, i)
      expect(allCoded(e.said), e.message).toEqual([])
      expect(englishSentences(saidText(e.said, 'zh')!), saidText(e.said, 'zh')).toEqual([])
      // A list of problems is one line each, not joined by "; ": the English said says the same in lines.
      if (e.params.variant !== 'values') expect(saidText(e.said, 'en')).toBe(e.message)
    }
  })

  it('what volumes, margin, links, sync conflicts, the A/B review and the git remote refuse (decision 084)', async () => {
    const t = await tempHome()
    try {
      const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
      const a = await store.write({ text: 'a', base: true }, { by: 'person' })
      const model = { by: 'model' } as const
      const refused = async (p: Promise<unknown>): Promise<RefusedError> => {
        const e: unknown = await p.then(
          () => undefined,
          (x: unknown) => x,
        )
        if (e instanceof RefusedError) return e
        throw new Error(`not refused: ${String(e)}`)
      }
      const report = Buffer.from(
        reportMarkLine({ base: 'sha256:aaaaaaaaaaaaaaaaaaaa', change: 'sha256:bbbbbbbbbbbbbbbbbbbb', seed: 1, createdAt: '2026-01-01T00:00:00Z' }),
      )
      const errors = [
        await refused(linkEntries(store, { from: '', to: a.id, type: '' }, model)),
        await refused(linkEntries(store, { from: a.id, to: a.id, type: '' }, model)),
        await refused(linkEntries(store, { from: a.id, to: 'x', type: 'nope' }, model)),
        await refused(linkEntries(store, { from: 'nowhere', to: a.id, type: '' }, model)),
        await refused(linkEntries(store, { from: a.id, to: 'x', type: '' }, model)),
        await refused(resolveConflict(store, 'x', 'a', model)),
        await refused(restoreTombstone(store, 'x', model)),
        await refused(openVolume(store, { reason: 'r', confirm: 'new-volume', sources: [] }, model)),
        await refused(personaFingerprint([])),
        refusal(() => abReviewOf(report, 'keep', 'sha256:cccccccccccccccccccc', 'report.md'), 0),
        refusal(() => {
          refuseBadRemote('https://me:pw@example.com/x.git')
        }, 1),
      ]
      for (const e of errors) expectWorded(e.said, e.message)
      await store.close()
    } finally {
      await t.cleanup()
    }
  })
})
