import { describe, expect, it } from 'vitest'
import { buildMeta, checkLink, checkText, clipForInjection, DEFAULT_LIMITS, importedMetaProblem, parseWhen, RefusedError } from './validate.ts'

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

describe('one strict date rule for write, --at and import (issue 7 item 13)', () => {
  it('refuses impossible dates, bare numbers and years outside 1000–9999, showing the accepted forms', () => {
    for (const at of [
      '2026-02-30',
      '2025-02-29',
      '2026-04-31',
      '2026-13-01',
      '2026-00-10',
      '12',
      '2026',
      '20260304',
      '2026-1-1',
      'tomorrow',
      '',
      '0999-12-31',
      '0050-01-01',
      '10000-01-01',
      '+020000-01-01T00:00:00Z',
      '2026-01-01T24:00',
      '2026-01-01T12:60',
      '2026-01-01T12:00:61',
      '2026-01-01T12',
      '2026-01-01T12:00+25:00',
    ]) {
      expect(() => parseWhen(at), at).toThrow(RefusedError)
      expect(() => parseWhen(at), at).toThrow(/Accepted: YYYY-MM-DD .*years 1000–9999/)
    }
    expect(() => parseWhen('2026-02-30')).toThrow(/2026-02 has 28 days/)
    expect(() => parseWhen('12')).toThrow(/bare number/)
  })
  it('reads calendar dates and date-times with explicit fields', () => {
    const leap = parseWhen('2024-02-29')
    expect([leap.getFullYear(), leap.getMonth() + 1, leap.getDate()]).toEqual([2024, 2, 29])
    expect(parseWhen('2026-03-04T13:30:00.123456Z').toISOString()).toBe('2026-03-04T13:30:00.123Z')
    expect(parseWhen('2026-03-04T21:30+08:00').toISOString()).toBe('2026-03-04T13:30:00.000Z')
    expect(parseWhen('2026-03-04T21:30:05-0130').toISOString()).toBe('2026-03-04T23:00:05.000Z')
    const local = parseWhen('2026-03-04T21:30')
    expect([local.getDate(), local.getHours(), local.getMinutes()]).toEqual([4, 21, 30])
    expect(parseWhen('1000-01-01').getFullYear()).toBe(1000)
    expect(parseWhen('9999-12-31').getFullYear()).toBe(9999)
  })
  it('buildMeta (every write) refuses year 0999 like the import does', () => {
    expect(() => buildMeta({ text: 'x', at: '0999-06-01' }, 'person', DEFAULT_LIMITS)).toThrow(/outside the years 1000–9999/)
  })
})

describe('text rules (issue 7 item 13)', () => {
  it('a text of only zero-width or direction marks is empty', () => {
    for (const t of ['\u200b', '\u200b \u200d', '\ufeff', '\u2060\u200c', '\u200e\u200f', ' \u2066\u2069 ', '\u00ad', '\u3164']) {
      expect(() => checkText(t, DEFAULT_LIMITS), JSON.stringify(t)).toThrow(/ is empty/)
    }
    const kept = checkText('a\u200bb', DEFAULT_LIMITS)
    expect(kept.text).toBe('a\u200bb')
    expect(kept.notes.join()).toMatch(/invisible/)
  })
  it('a lone surrogate is refused wherever it is given, never stored as U+FFFD', () => {
    expect(() => checkText('a\ud800b', DEFAULT_LIMITS)).toThrow(/lone surrogate \(U\+D800 at position 2\)/)
    expect(() => checkText('\udc00', DEFAULT_LIMITS)).toThrow(/lone surrogate/)
    expect(checkText('😀', DEFAULT_LIMITS).text).toBe('😀')
    for (const input of [
      { text: 'x', reason: 'r\ud83d' },
      { text: 'x', src_quote: '\ude00' },
      { text: 'x', extra: { k: ['\ud800'] } },
      { text: 'x', nature: { name: '\udfff' } },
    ]) {
      expect(() => buildMeta(input, 'person', DEFAULT_LIMITS), JSON.stringify(input)).toThrow(/lone surrogate/)
    }
  })
})

describe('imported metadata is validated like a write (issue 7 item 10)', () => {
  it('axis must be one of 德智体美劳, reason one line of at most 200 characters without controls, the comment ≤ 4000', () => {
    expect(importedMetaProblem({ id: 'a', axis: '德', reason: 'r' })).toBeUndefined()
    expect(importedMetaProblem({ id: 'a', axis: '\u001b[31mX' })).toMatch(/not one of 德 智 体 美 劳/)
    expect(importedMetaProblem({ id: 'a', axis: 'X' })).toMatch(/not one of/)
    expect(importedMetaProblem({ id: 'a', reason: 'x'.repeat(100_000) })).toMatch(/limit is 200/)
    expect(importedMetaProblem({ id: 'a', reason: 'two\nlines' })).toMatch(/one line/)
    expect(importedMetaProblem({ id: 'a', reason: 'bell\u0007' })).toMatch(/control/)
    expect(importedMetaProblem({ id: 'a', tag: 'csi\u009b31m' })).toMatch(/control/)
    expect(importedMetaProblem({ id: 'a', custom: { deep: 'esc\u001b' } })).toMatch(/control/)
    expect(importedMetaProblem({ id: 'a', blob: 'b'.repeat(5000) })).toMatch(/limit is 4000/)
  })
})
