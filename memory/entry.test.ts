import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import {
  appendEntriesText,
  endOfLastClosedComment,
  entriesOf,
  joinSegments,
  parseEntryFile,
  reserializeSegment,
  serializeEntry,
  serializeMeta,
  type Segment,
} from './entry.ts'

const appendOne = (current: string, entry: { text: string; meta: { id: string } }) => appendEntriesText(current, [entry])

/** Appending as it was done before decision 315, one entry at a time through the whole parse: what the fast append must equal. */
function appendByWholeParse(current: string, entry: { text: string; meta: { id: string } }): string {
  const block = serializeEntry(entry)
  if (current.trim() === '') return block
  const segments = parseEntryFile(current, '').segments
  const last = segments.at(-1)
  const blankEnd = (text: string) => (text === '' || /\n[ \t]*\r?\n$/.test(text) ? text : text.endsWith('\n') ? `${text}\n` : `${text}\n\n`)
  if (last !== undefined && last.type === 'loose' && last.raw.trim() !== '')
    return `${blankEnd(joinSegments(segments.slice(0, -1)))}${block}\n${last.raw.replace(/^(?:[ \t]*\r?\n)+/, '')}`
  return `${blankEnd(current)}${block}`
}

const legacyDay = [
  '# 2025-03-01',
  '',
  '她说今天第一次自己做了饭。',
  '<!--cyrene:{"id":"m-001","kind":"event","axis":"劳","reason":"动手","at":"2025-03-01T12:00:00Z","mood":"happy"}-->',
  '',
  '喜欢抹茶，不喜欢太甜。',
  '第二行。',
  '<!--cyrene:{"id":"m-002","kind":"preference","weird":{"nested":[1,2,3]}}-->',
  '',
].join('\n')

describe('parseEntryFile', () => {
  it('reads a 0.5.x-style day file as-is and keeps every byte', () => {
    const p = parseEntryFile(legacyDay, 'd.md')
    expect(p.problems).toEqual([])
    const es = entriesOf(p)
    expect(es.map((e) => e.meta.id)).toEqual(['m-001', 'm-002'])
    expect(es[0]!.text).toBe('# 2025-03-01\n\n她说今天第一次自己做了饭。')
    expect(es[1]!.text).toBe('喜欢抹茶，不喜欢太甜。\n第二行。')
    expect(es[1]!.meta.weird).toEqual({ nested: [1, 2, 3] })
    expect(joinSegments(p.segments)).toBe(legacyDay)
  })

  it('reports a malformed comment with file and line, skips it, keeps its text', () => {
    const text = 'ok\n<!--cyrene:{"id":"a"}-->\n\nbroken text\n<!--cyrene:{"id": "b", oops}-->\nlast\n<!--cyrene:{"id":"c"}-->\n'
    const p = parseEntryFile(text, '岁月涟漪/日档/2025/01/2025-01-01.md')
    expect(entriesOf(p).map((e) => e.meta.id)).toEqual(['a', 'c'])
    expect(p.problems).toHaveLength(1)
    expect(p.problems[0]).toMatchObject({ file: '岁月涟漪/日档/2025/01/2025-01-01.md', line: 5 })
    expect(joinSegments(p.segments)).toBe(text)
    expect(p.segments.find((s) => s.type === 'broken')!.raw).toContain('broken text')
  })

  it('treats a truncated file (comment cut mid-way) as a problem, not a crash', () => {
    const text = 'one\n<!--cyrene:{"id":"a"}-->\ntwo\n<!--cyrene:{"id":"b","ki'
    const p = parseEntryFile(text, 'f')
    expect(entriesOf(p).map((e) => e.meta.id)).toEqual(['a'])
    expect(p.problems[0]!.line).toBe(4)
    expect(joinSegments(p.segments)).toBe(text)
  })

  it('rejects comments that are not objects or have no id', () => {
    for (const bad of ['[1,2]', '"x"', '{"kind":"fact"}', '{"id":""}', 'null']) {
      const p = parseEntryFile(`t\n<!--cyrene:${bad}-->\n`, 'f')
      expect(entriesOf(p)).toHaveLength(0)
      expect(p.problems).toHaveLength(1)
    }
  })

  it('keeps loose text after the last comment as a loose segment', () => {
    const p = parseEntryFile('a\n<!--cyrene:{"id":"a"}-->\nhand note\n', 'f')
    expect(p.segments.at(-1)).toMatchObject({ type: 'loose', raw: 'hand note\n' })
  })

  it('handles CRLF files', () => {
    const text = 'a\r\nb\r\n<!--cyrene:{"id":"x"}-->\r\n'
    const p = parseEntryFile(text, 'f')
    expect(entriesOf(p)[0]!.text).toBe('a\nb')
    expect(joinSegments(p.segments)).toBe(text)
  })
})

it('parsing never loses a byte, whatever the file holds (property)', () => {
  const piece = fc.oneof(
    fc.string(),
    fc.constant('\n'),
    fc.constant('\r\n'),
    fc.constant('<!--cyrene:{"id":"a"}-->'),
    fc.constant('<!--cyrene:{bad'),
    fc.constant('<!--cyrene:[1]-->'),
  )
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 30 }), (parts) => {
      const text = parts.join('')
      const p = parseEntryFile(text, 'f')
      expect(joinSegments(p.segments)).toBe(text)
      // appending keeps every earlier byte except where loose text is moved after the new entry
      const next = appendOne(text, { text: 'new', meta: { id: 'n' } })
      expect(entriesOf(parseEntryFile(next, 'f')).filter((e) => e.meta.id === 'n')).toHaveLength(1)
      for (const s of p.segments) if (s.type !== 'loose') expect(next).toContain(s.raw.trimEnd())
    }),
  )
})

describe('serialize', () => {
  it('escapes --> inside JSON strings and round-trips', () => {
    const meta = { id: 'x', src_quote: 'a --> b <!-- c' }
    const line = serializeMeta(meta)
    expect(line.indexOf('-->')).toBe(line.length - 3)
    const p = parseEntryFile(serializeEntry({ text: 't', meta }), 'f')
    expect(entriesOf(p)[0]!.meta).toEqual(meta)
  })

  it('rewrites an unchanged entry byte for byte, even with odd spacing and key order', () => {
    const raw = '\n\n  spaced text  \n<!--cyrene:{"z":1,"id":"a","b":[2]}-->\n'
    const seg = parseEntryFile(raw, 'f').segments[0] as Extract<Segment, { type: 'entry' }>
    expect(reserializeSegment(seg, { text: seg.entry.text, meta: { id: 'a', b: [2], z: 1 } })).toBe(raw)
  })

  it('keeps unknown keys when an entry changes', () => {
    const seg = parseEntryFile('t\n<!--cyrene:{"id":"a","future_key":{"x":1}}-->\n', 'f').segments[0] as Extract<Segment, { type: 'entry' }>
    const out = reserializeSegment(seg, { text: 'new', meta: { ...seg.entry.meta, kind: 'fact' } })
    expect(entriesOf(parseEntryFile(out, 'f'))[0]!.meta).toEqual({ id: 'a', future_key: { x: 1 }, kind: 'fact' })
  })

  it('round-trips arbitrary text and metadata (property)', () => {
    const textArb = fc
      .string({ minLength: 1, maxLength: 60 })
      .map((s) => s.replace(/<!--cyrene:/g, '').trim())
      .filter((s) => s !== '')
    fc.assert(
      fc.property(
        textArb,
        fc.dictionary(
          fc.string({ maxLength: 8 }).filter((k) => k !== 'id' && k !== '__proto__'),
          fc.jsonValue(),
        ),
        (text, extra) => {
          const meta = { ...extra, id: 'x1' }
          const file = serializeEntry({ text, meta })
          const es = entriesOf(parseEntryFile(file, 'f'))
          expect(es).toHaveLength(1)
          expect(es[0]!.meta).toEqual(JSON.parse(JSON.stringify(meta)))
        },
      ),
    )
  })
})

describe('appendEntriesText', () => {
  it('separates entries with a blank line and never changes earlier bytes', () => {
    const first = appendOne('', { text: 'a', meta: { id: '1' } })
    const second = appendOne(first, { text: 'b', meta: { id: '2' } })
    expect(second.startsWith(first)).toBe(true)
    expect(entriesOf(parseEntryFile(second, 'f')).map((e) => e.text)).toEqual(['a', 'b'])
  })

  it('puts a new entry before loose trailing text so the loose words are not glued onto it', () => {
    const cur = 'a\n<!--cyrene:{"id":"1"}-->\nmy own note\n'
    const next = appendOne(cur, { text: 'b', meta: { id: '2' } })
    const p = parseEntryFile(next, 'f')
    expect(entriesOf(p).map((e) => e.text)).toEqual(['a', 'b'])
    expect(p.segments.at(-1)).toMatchObject({ type: 'loose' })
    expect(next).toContain('my own note')
  })

  it('does not glue text after a broken comment to the new entry', () => {
    const cur = 'x\n<!--cyrene:{bad-->\n'
    const p = parseEntryFile(appendOne(cur, { text: 'b', meta: { id: '2' } }), 'f')
    expect(entriesOf(p).map((e) => e.text)).toEqual(['b'])
  })

  it('gives for any file and any number of entries what appending them one by one through the whole parse gives', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom('\n', '\r\n', ' ', '\t', '\u3000', '\r', 'note', '# 2026-01-01'),
      fc.constant('<!--cyrene:{"id":"a"}-->'),
      fc.constant('  <!--cyrene:{"id":"b"}-->  '),
      fc.constant('text <!--cyrene:{"id":"c"}-->'),
      fc.constant('<!--cyrene:{bad'),
      fc.constant('<!--cyrene:[1]-->'),
    )
    const entry = fc.record({
      text: fc.constantFrom('new', '新的一条', 'two\nlines', 'a <!--cyrene: in text'),
      meta: fc.record({ id: fc.constantFrom('n1', 'n2') }),
    })
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), fc.array(entry, { minLength: 0, maxLength: 4 }), (parts, entries) => {
        const text = parts.join('')
        expect(appendEntriesText(text, entries)).toBe(entries.reduce(appendByWholeParse, text))
      }),
      { numRuns: 3000 },
    )
  })
})

it('the text before the end of the last closed comment line parses the same whatever is appended after it (property)', () => {
  const piece = fc.oneof(
    fc.string(),
    fc.constantFrom('\n', '\r\n', ' ', '\t', '\u3000', '\r', '\u2028', 'note', '# 2026-01-01'),
    fc.constant('<!--cyrene:{"id":"a"}-->'),
    fc.constant('  <!--cyrene:{"id":"b"}-->  '),
    fc.constant('text <!--cyrene:{"id":"c"}-->'),
    fc.constant('<!--cyrene:{bad'),
    fc.constant('<!--cyrene:[1]-->'),
  )
  const text = fc.array(piece, { maxLength: 30 }).map((parts) => parts.join(''))
  fc.assert(
    fc.property(text, text, (before, appended) => {
      const cut = endOfLastClosedComment(before)
      expect(cut === 0 || before[cut - 1] === '\n').toBe(true)
      // Nothing after the cut closes a comment line: the cut is the last one.
      expect(endOfLastClosedComment(before.slice(cut))).toBe(0)
      const whole = parseEntryFile(before + appended, 'f')
      const head = parseEntryFile(before.slice(0, cut), 'f')
      const rest = parseEntryFile(before.slice(cut) + appended, 'f')
      const strip = (segments: Segment[]) => segments.map((seg) => ({ ...seg, line: 0 }))
      expect(strip(whole.segments)).toEqual(strip([...head.segments, ...rest.segments]))
    }),
    { numRuns: 3000 },
  )
})
