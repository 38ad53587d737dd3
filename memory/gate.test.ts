import { describe, expect, it } from 'vitest'
import { gate } from './gate.ts'

const ok = { id: 'x', kind: 'fact', axis: '智', reason: '了解她的工作' }

describe('gate', () => {
  it('passes a complete fact', () => {
    expect(gate({ text: 't', meta: ok })).toEqual({ gate: 'day', reasons: [] })
  })
  it('rule 2: axis and reason are required', () => {
    const r = gate({ text: 't', meta: { id: 'x', kind: 'fact' } })
    expect(r.gate).toBe('pending')
    expect(r.reasons.join(' ')).toMatch(/axis/)
    expect(r.reasons.join(' ')).toMatch(/reason/)
    expect(gate({ text: 't', meta: { ...ok, axis: '财' } }).gate).toBe('pending')
  })
  it('rule 1: decision/lesson/rule need a source', () => {
    for (const kind of ['lesson', 'rule']) {
      expect(gate({ text: 't', meta: { ...ok, kind } }).reasons).toEqual([expect.stringMatching(/rule 1/)])
      expect(gate({ text: 't', meta: { ...ok, kind, src_quote: '她说的' } }).gate).toBe('day')
      expect(gate({ text: 't', meta: { ...ok, kind, src_ids: ['a'] } }).gate).toBe('day')
      expect(gate({ text: 't', meta: { ...ok, kind, src_ids: [''] } }).gate).toBe('pending')
    }
  })
  it('rule 3: a decision needs a consequence on at least one scale', () => {
    const d = { ...ok, kind: 'decision', src_quote: 'q' }
    expect(gate({ text: 't', meta: d }).reasons).toEqual([expect.stringMatching(/rule 3/)])
    expect(gate({ text: 't', meta: { ...d, consequence: { future: '' } } }).gate).toBe('pending')
    expect(gate({ text: 't', meta: { ...d, consequence: { relation: '更信任' } } }).gate).toBe('day')
  })
})
