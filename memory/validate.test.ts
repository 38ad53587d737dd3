import { describe, expect, it } from 'vitest'
import { buildMeta, checkLink, clipForInjection, DEFAULT_LIMITS, parseWhen, RefusedError } from './validate.ts'

describe('buildMeta', () => {
  it('keeps only given fields, trims, and keeps extra keys the format does not define', () => {
    const r = buildMeta({ text: '  hi \r\n there ', kind: 'fact', reason: ' r ', extra: { mood: 'ok' } }, 'model', DEFAULT_LIMITS)
    expect(r.text).toBe('hi \n there')
    expect(r.meta).toEqual({ kind: 'fact', reason: 'r', mood: 'ok' })
  })
  it('never lets extra set a field of the format (no way around the person-only base rule)', () => {
    for (const k of ['base', 'id', 'gate', 'by', 'vol', 'src', 'pending_reasons', 'source_ref', 'axis']) {
      expect(() => buildMeta({ text: 'x', extra: { [k]: true } }, 'model', DEFAULT_LIMITS)).toThrow(/may not set/)
    }
  })
  it('refuses bad kinds, times, links and an over-long injection', () => {
    const bad = [
      { text: 'x', kind: 'Not A Kind' },
      { text: 'x', at: 'tomorrow' },
      { text: 'x', at: '+020000-01-01T00:00:00Z' },
      { text: 'x', links: ['a|朋友'] },
      { text: 'x', src_ids: ['a\u0000'] },
      { text: 'x'.repeat(400), src_quote: 'y'.repeat(900) },
    ]
    for (const b of bad) expect(() => buildMeta(b, 'person', DEFAULT_LIMITS)).toThrow(RefusedError)
  })
  it('refuses a huge metadata paste', () => {
    expect(() => buildMeta({ text: 'x', nature: { name: 'n'.repeat(5000) } }, 'model', DEFAULT_LIMITS)).toThrow(/metadata .* limit is 4000/)
    expect(() => buildMeta({ text: 'x', extra: { blob: 'b'.repeat(5000) } }, 'person', DEFAULT_LIMITS)).toThrow(/limit is 4000/)
  })
  it('notes unknown kinds but keeps them', () => {
    expect(buildMeta({ text: 'x', kind: 'dream' }, 'person', DEFAULT_LIMITS).notes.join()).toMatch(/not one of the known kinds/)
  })
})

it('checkLink normalises "<id>" to "<id>|"', () => {
  expect(checkLink('abc')).toBe('abc|')
  expect(checkLink('abc|因果')).toBe('abc|因果')
})

it('clipForInjection cuts at the limit with a mark', () => {
  expect(clipForInjection('a'.repeat(10), {}, 5)).toEqual({ text: 'aaaa…', clipped: true })
  expect(clipForInjection('ab', { src_quote: 'q' }, 100).text).toBe('ab\n（原话：「q」）')
})

it('parseWhen reads a bare date as local noon of that day', () => {
  const d = parseWhen('2026-03-04')
  expect([d.getFullYear(), d.getMonth() + 1, d.getDate(), d.getHours()]).toEqual([2026, 3, 4, 12])
  expect(parseWhen('2026-03-04T00:00:00Z').toISOString()).toBe('2026-03-04T00:00:00.000Z')
})
