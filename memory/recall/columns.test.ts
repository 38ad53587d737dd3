import { expect, it } from 'vitest'
import { packColumns, unpackColumns } from './columns.ts'
import { RecallIndex } from './recall-index.ts'
import { RecallFormatError } from './serialise.ts'
import { tokenizerSignature } from './tokenize.ts'

const docs = [
  { id: 'a', text: '我最喜欢喝乌龙茶，不加糖。', at: '2024-01-01T10:00:00Z', source: 'entry' as const, kind: 'preference' },
  { id: 'b', text: 'She adopted two cats last spring.', at: '2024-02-01T10:00:00Z', source: 'entry' as const, links: ['a|相似'] },
  { id: 'anchor:user', text: '写小说的人，住在杭州。', at: '', source: 'anchor' as const },
]
const NOW = new Date('2025-01-01T00:00:00Z')

it('round-trips an index: the same ranking and the same JSON form as the index it came from', () => {
  const index = new RecallIndex()
  for (const d of docs) index.add(d)
  const { columns, extra } = unpackColumns(packColumns(index.toColumns(), { files: 3 }), tokenizerSignature())
  const back = RecallIndex.fromColumns(columns)
  expect(extra).toEqual({ files: 3 })
  expect(back.toJSON()).toEqual(index.toJSON())
  for (const q of ['乌龙茶', 'cat', '杭州的小说'])
    expect(back.search(q, { now: NOW }).map((h) => [h.id, h.score])).toEqual(index.search(q, { now: NOW }).map((h) => [h.id, h.score]))
  // Still a live index: documents come and go as before.
  back.remove('a')
  expect(back.search('乌龙茶', { now: NOW })).toEqual([])
})

it('refuses a cache of another tokenizer, a cut or altered file, and anything else', () => {
  const index = new RecallIndex()
  for (const d of docs) index.add(d)
  const good = packColumns(index.toColumns(), null)
  expect(() => unpackColumns(good, 'another-tokenizer')).toThrow(RecallFormatError)
  expect(() => unpackColumns(good.subarray(0, good.length - 8), tokenizerSignature())).toThrow(RecallFormatError)
  const badTerm = Buffer.from(good)
  badTerm.writeInt32LE(1 << 30, badTerm.length - 8)
  expect(() => unpackColumns(badTerm, tokenizerSignature())).toThrow(RecallFormatError)
  expect(() => unpackColumns(Buffer.from('{"not":"columns"}'), tokenizerSignature())).toThrow(RecallFormatError)
  // Two documents under one id: well-formed columns, not an index.
  const { columns } = unpackColumns(good, tokenizerSignature())
  expect(() => RecallIndex.fromColumns({ ...columns, ids: columns.ids.map(() => 'a') })).toThrow(RecallFormatError)
  expect(() => RecallIndex.fromColumns({ ...columns, tokenizer: 'another' })).toThrow(RecallFormatError)
})

it('keeps an empty date and an empty index apart from a cut file', () => {
  for (const set of [[], [docs[2]!]]) {
    const index = new RecallIndex()
    for (const d of set) index.add(d)
    const back = RecallIndex.fromColumns(unpackColumns(packColumns(index.toColumns(), null), tokenizerSignature()).columns)
    expect(back.toJSON()).toEqual(index.toJSON())
  }
})
