import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { entriesOf, findEntries, findEntry, parseEntryFile } from './entry.ts'

// findEntry is the recall hit's shortcut through a day file: it must give what the whole parse gives.
const whole = (text: string, id: string) => entriesOf(parseEntryFile(text, 'd.md')).findLast((e) => e.meta.id === id)

describe('findEntry', () => {
  it('gives the entry the whole parse gives, for any text', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom('\n', '\r\n', ' ', '\t', '\u00a0', '\u3000', '\ufeff', '\u2028', '\r', '\\', 'C:\\dir'),
      fc.constantFrom('a', 'b', 'a-b', '"a"'),
      fc.constant('<!--cyrene:{"id":"a"}-->'),
      fc.constant('<!--cyrene:{"id":"b","at":"2025-01-01T00:00:00Z"}-->'),
      fc.constant('<!--cyrene:{"id":"\\u0061","n":2}-->'),
      fc.constant('<!--cyrene:{"id":"a-b"}-->'),
      fc.constant('<!--cyrene:{"id":"x","note":"a"}-->'),
      fc.constant('  <!--cyrene:{"id":"a","indented":true}-->  '),
      fc.constant('text <!--cyrene:{"id":"a","mid":true}-->'),
      fc.constant('<!--cyrene:{bad'),
      fc.constant('<!--cyrene:{"id":"a" oops}-->'),
      fc.constant('<!--cyrene:[1]-->'),
      fc.constant('<!--cyrene:{"id":""}-->'),
      fc.constant('<!--cyrene:{"id":"a","say":"\\"a\\""}-->'),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.constantFrom('a', 'b', 'a-b', 'x', 'missing', ''), (parts, id) => {
        const text = parts.join('')
        expect(findEntry(text, id)).toEqual(whole(text, id))
      }),
      { numRuns: 5000 },
    )
  })

  it('finds an entry whose id is spelled with an escape, and the last of a repeated id', () => {
    const text = 'one\n<!--cyrene:{"id":"a"}-->\n\ntwo\n<!--cyrene:{"id":"\\u0061","n":2}-->\nthree\n<!--cyrene:{"id":"b"}-->\n'
    expect(findEntry(text, 'a')).toEqual({ text: 'two', meta: { id: 'a', n: 2 } })
    expect(findEntry(text, 'b')?.text).toBe('three')
    expect(findEntry(text, 'c')).toBeUndefined()
  })

  it('ends a body at a broken comment, as the parse does', () => {
    const text = 'lost\n<!--cyrene:{"id": oops}-->\nkept\n<!--cyrene:{"id":"a"}-->\n'
    expect(findEntry(text, 'a')).toEqual({ text: 'kept', meta: { id: 'a' } })
    expect(whole(text, 'a')).toEqual({ text: 'kept', meta: { id: 'a' } })
  })
})

it('findEntries gives for several ids at once what the whole parse gives for each', () => {
  const piece = fc.oneof(
    fc.string(),
    fc.constantFrom('\n', '\r\n', ' ', '\u3000', '\\', 'a.b', '(a'),
    fc.constantFrom('<!--cyrene:{"id":"a"}-->', '<!--cyrene:{"id":"a-b"}-->', '<!--cyrene:{"id":"a.b"}-->', '<!--cyrene:{"id":"(a"}-->'),
    fc.constantFrom('<!--cyrene:{"id":"\\u0061","n":2}-->', '<!--cyrene:{"id":"b","links":["a"]}-->', 'x <!--cyrene:{"id":"b"}-->', '<!--cyrene:{bad'),
  )
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 40 }), fc.subarray(['a', 'b', 'a-b', 'a.b', '(a', 'ab', 'missing', '']), (parts, ids) => {
      const text = parts.join('')
      const found = findEntries(text, ids)
      for (const id of ids) expect(found.get(id)).toEqual(whole(text, id))
      expect([...found.keys()].every((id) => ids.includes(id))).toBe(true)
    }),
    { numRuns: 3000 },
  )
})
