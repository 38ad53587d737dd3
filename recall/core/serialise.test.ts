import { describe, expect, it } from 'vitest'
import { RecallIndex } from './recall-index.ts'
import { RecallFormatError, RECALL_INDEX_FORMAT, RECALL_INDEX_VERSION } from './serialise.ts'
import { tokenizerSignature } from './tokenize.ts'

const saved = () => {
  const index = new RecallIndex()
  index.add({ id: 'a', text: '喜欢喝茶', at: '2026-01-01T00:00:00Z', source: 'entry', kind: 'preference', links: ['b|相似'] })
  index.add({ id: 'b', text: 'green tea', at: '2026-01-02T00:00:00Z', source: 'anchor' })
  return JSON.parse(JSON.stringify(index.toJSON()))
}

describe('serialised index', () => {
  it('states its format, version, tokenizer and fingerprint, with docs sorted by id', () => {
    const data = saved()
    expect(data).toMatchObject({ format: RECALL_INDEX_FORMAT, version: RECALL_INDEX_VERSION, tokenizer: tokenizerSignature() })
    expect(data.fingerprint).toMatch(/^[0-9a-f]{14}$/)
    expect(data.docs.map((d: { id: string }) => d.id)).toEqual(['a', 'b'])
    expect(data.docs[0]).toMatchObject({ kind: 'preference', links: ['b|相似'] })
    expect(data.docs[1].links).toBeUndefined()
  })

  it('keeps metadata through a round trip', () => {
    const loaded = RecallIndex.fromJSON(saved())
    expect(loaded.ids()).toEqual(['a', 'b'])
    expect(loaded.toJSON()).toEqual(saved())
  })

  it.each([
    ['not an object', () => null],
    ['another format', (d: any) => ({ ...d, format: 'other' })],
    ['another version', (d: any) => ({ ...d, version: RECALL_INDEX_VERSION + 1 })],
    ['another tokenizer', (d: any) => ({ ...d, tokenizer: 'tok0/icu1' })],
    ['a changed fingerprint', (d: any) => ({ ...d, fingerprint: '00000000000000' })],
    ['a term index out of range', (d: any) => ({ ...d, docs: [{ ...d.docs[0], terms: [999, 1] }, d.docs[1]] })],
    ['a wrong length', (d: any) => ({ ...d, docs: [{ ...d.docs[0], length: 99 }, d.docs[1]] })],
    ['a repeated term', (d: any) => ({ ...d, docs: [{ ...d.docs[0], terms: [0, 1, 0, 1], length: 2 }, d.docs[1]] })],
    ['a duplicate id', (d: any) => ({ ...d, docs: [d.docs[0], d.docs[0]] })],
    ['an unknown source', (d: any) => ({ ...d, docs: [{ ...d.docs[0], source: 'margin' }, d.docs[1]] })],
    ['a vocabulary that is not strings', (d: any) => ({ ...d, vocabulary: [1, 2] })],
  ])('refuses %s with RecallFormatError', (_why, corrupt) => {
    expect(() => RecallIndex.fromJSON(corrupt(saved()))).toThrow(RecallFormatError)
  })

  it('applies the options given at load time', () => {
    const loaded = RecallIndex.fromJSON(saved(), { linkShare: 0 })
    expect(loaded.options.linkShare).toBe(0)
  })
})
