import { expect, it } from 'vitest'
import { packColumns } from './columns.ts'
import { unpackColumns } from './columns-read.ts'
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
  // The lists are read when first wanted, and checked then: a term out of range in the last document's pairs.
  const badTerm = Buffer.from(good)
  badTerm.writeInt32LE(1 << 30, badTerm.length - 8)
  const lazily = unpackColumns(badTerm, tokenizerSignature()).columns
  expect(() => lazily.pairsOf(lazily.ids.length - 1)).toThrow(RecallFormatError)
  expect(() => lazily.readAll()).not.toThrow()
  expect(() => RecallIndex.fromColumns(unpackColumns(badTerm, tokenizerSignature()).columns).toColumns()).toThrow(RecallFormatError)
  // A posting of a document that is not there, found by the search that reads it.
  const badPosting = Buffer.from(good)
  const { postingOffsets, ids } = unpackColumns(good, tokenizerSignature()).columns
  badPosting.writeInt32LE(ids.length * 256 + 1, good.length - 8 * postingOffsets.at(-1)! - 4)
  expect(() => RecallIndex.fromColumns(unpackColumns(badPosting, tokenizerSignature()).columns).search('乌龙茶 cat 杭州 小说', { now: NOW })).toThrow(
    RecallFormatError,
  )
  // Anything else (ids, dates, lengths, offsets, the header) is under the CRC-32: one byte changed is refused at once.
  for (const at of [14, 12 + good.readUInt32LE(4) + 1, good.length - 12 * postingOffsets.at(-1)! - 5]) {
    const flipped = Buffer.from(good)
    flipped[at] = flipped[at]! ^ 1
    expect(() => unpackColumns(flipped, tokenizerSignature())).toThrow(RecallFormatError)
  }
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

it('packs an index of more documents than a call can take arguments (the fault audit found the cache unsaved past ~125,000)', () => {
  const index = new RecallIndex()
  for (let n = 0; n < 200_000; n++) index.add({ id: `d${n}`, text: `w${n % 50}`, at: '', source: 'entry' })
  const { columns } = unpackColumns(packColumns(index.toColumns(), {}), tokenizerSignature())
  expect(RecallIndex.fromColumns(columns).size).toBe(200_000)
})
