import { crc32, deflateSync } from 'node:zlib'
import { describe, expect, it } from 'vitest'
import { cardJsonFromPng, cardTexts, MAX_INFLATED_BYTES, PngCardError } from './png.ts'
import { importCard } from './card-import.ts'

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8)
  head.writeUInt32BE(data.length, 0)
  head.write(type, 4, 'latin1')
  const crc = Buffer.alloc(4)
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
  return Buffer.concat([head, data, crc])
}
const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])

describe('cardTexts', () => {
  it('reads only chara/ccv3 text chunks; other text chunks and image data are skipped', () => {
    const bytes = Buffer.concat([
      sig,
      chunk('IDAT', Buffer.from([0, 1, 2])),
      chunk('tEXt', Buffer.from('Title\0x')),
      chunk('tEXt', Buffer.from('CHARA\0abc')),
      chunk('IEND', Buffer.alloc(0)),
    ])
    expect([...cardTexts(bytes)]).toEqual([['chara', 'abc']])
  })
  it('of two chunks with one card keyword, reads the first, as SillyTavern does', () => {
    const bytes = Buffer.concat([
      sig,
      chunk('tEXt', Buffer.from('chara\0first')),
      chunk('tEXt', Buffer.from('ccv3\0v3first')),
      chunk('tEXt', Buffer.from('chara\0second')),
      chunk('tEXt', Buffer.from('Ccv3\0v3second')),
      chunk('IEND', Buffer.alloc(0)),
    ])
    expect(Object.fromEntries(cardTexts(bytes))).toEqual({ chara: 'first', ccv3: 'v3first' })
  })
  it('a NovelAI lorebook PNG (naidata, no card) is refused as a card, with the way to the worldbook import', () => {
    const nai = Buffer.concat([sig, chunk('tEXt', Buffer.from('naidata\0eyJ9')), chunk('IEND', Buffer.alloc(0))])
    const code = (bytes: Buffer) => {
      try {
        cardJsonFromPng(bytes)
      } catch (e) {
        return e instanceof PngCardError ? e.said.code : 'other'
      }
      return 'read'
    }
    expect(code(nai)).toBe('png.nai-lorebook')
    expect(code(Buffer.concat([sig, chunk('tEXt', Buffer.from('Title\0x')), chunk('IEND', Buffer.alloc(0))]))).toBe('png.no-card')
  })
  it('ignores a bad CRC on image chunks it never reads but refuses one on a text chunk', () => {
    const idat = chunk('IDAT', Buffer.from([1]))
    idat[idat.length - 1]! ^= 0xff
    expect(() => cardTexts(Buffer.concat([sig, idat, chunk('IEND', Buffer.alloc(0))]))).not.toThrow()
    const text = chunk('tEXt', Buffer.from('chara\0abc'))
    text[text.length - 1]! ^= 0xff
    expect(() => cardTexts(Buffer.concat([sig, text, chunk('IEND', Buffer.alloc(0))]))).toThrow(/CRC/)
  })
  it.each([
    ['a bad signature', Buffer.from('GIF89a....'), /signature/],
    ['a malformed chunk type', Buffer.concat([sig, chunk('t3Xt', Buffer.alloc(0))]), /chunk type/],
    ['an empty keyword', Buffer.concat([sig, chunk('zTXt', Buffer.from('\0\0x')), chunk('IEND', Buffer.alloc(0))]), null],
  ])('handles %s', (_, bytes, error) => {
    if (error === null) expect(cardTexts(bytes).size).toBe(0)
    else expect(() => cardTexts(bytes)).toThrow(error)
  })
})

describe('cardJsonFromPng', () => {
  it('decodes base64 UTF-8 JSON', () => {
    const b64 = Buffer.from('{"name":"名"}').toString('base64')
    expect(cardJsonFromPng(Buffer.concat([sig, chunk('tEXt', Buffer.from('chara\0' + b64)), chunk('IEND', Buffer.alloc(0))]))).toBe('{"name":"名"}')
  })
  it('decodes the URL-safe alphabet as SillyTavern’s reader does, and still refuses what is no base64', () => {
    const json = '{"name":"~~~???>>>"}'
    const url = Buffer.from(json).toString('base64url')
    expect(url).toMatch(/[-_]/)
    const png = (text: string) => Buffer.concat([sig, chunk('tEXt', Buffer.from('chara\0' + text)), chunk('IEND', Buffer.alloc(0))])
    expect(cardJsonFromPng(png(url))).toBe(json)
    expect(() => cardJsonFromPng(png('{"name":"raw json"}'))).toThrow(/not valid base64/)
  })
  it('drops a byte-order mark before the JSON', () => {
    const b64 = Buffer.from('\uFEFF{"name":"名"}').toString('base64')
    expect(cardJsonFromPng(Buffer.concat([sig, chunk('tEXt', Buffer.from('chara\0' + b64)), chunk('IEND', Buffer.alloc(0))]))).toBe('{"name":"名"}')
  })
  it('is a PngCardError when no card chunk is present', () => {
    expect(() => cardJsonFromPng(Buffer.concat([sig, chunk('IEND', Buffer.alloc(0))]))).toThrow(PngCardError)
  })
})

describe('the inflate cap of a whole PNG (issue 19)', () => {
  const iend = chunk('IEND', Buffer.alloc(0))
  const zchara = (inflated: number): Buffer => chunk('zTXt', Buffer.concat([Buffer.from('chara\0\0', 'latin1'), deflateSync(Buffer.alloc(inflated, 0x41))]))

  it('refuses card chunks whose inflated text adds up past the cap, though each is small', () => {
    const one = zchara(1024 * 1024)
    const count = Math.floor(MAX_INFLATED_BYTES / (1024 * 1024)) + 2
    const bytes = Buffer.concat([sig, ...Array.from({ length: count }, () => one), iend])
    expect(() => cardTexts(bytes)).toThrow(/inflates past \d+ bytes in all/)
  })

  it('refuses the 3,000-chunk PNG of the issue at the first chunk past the cap', () => {
    const big = zchara(MAX_INFLATED_BYTES)
    const bytes = Buffer.concat([sig, ...Array.from({ length: 3000 }, () => big), iend])
    expect(() => cardTexts(bytes)).toThrow(PngCardError)
    expect(() => cardTexts(bytes)).toThrow(/in all/)
  })

  it('still reads one card chunk that inflates to the whole cap', () => {
    expect(cardTexts(Buffer.concat([sig, zchara(MAX_INFLATED_BYTES), iend])).get('chara')).toHaveLength(MAX_INFLATED_BYTES)
  })
})

describe('a PNG with two cards (decision 136)', () => {
  const card = (name: string, description: string) => Buffer.from(JSON.stringify({ spec: 'chara_card_v2', data: { name, description } })).toString('base64')
  const png = (v3: string, v2: string) =>
    Buffer.concat([sig, chunk('tEXt', Buffer.from('chara\0' + v2)), chunk('tEXt', Buffer.from('ccv3\0' + v3)), chunk('IEND', Buffer.alloc(0))])
  it('reads ccv3, as SillyTavern does, and says so when chara is another character', () => {
    const r = importCard(png(card('Mira', '新的'), card('Old Mira', '旧的')), 'c.png')
    expect(r.ok && r.preset.label).toBe('Mira')
    expect(r.ok && r.notesSaid).toContainEqual({ code: 'note.png-chunks-differ', params: { taken: 'Mira', other: 'Old Mira' } })
    // The import's last note stays the one that says it switches nothing on.
    expect(r.ok && r.notesSaid.at(-1)?.code).toBe('note.never-switches')
  })
  it('says nothing when both chunks are the same character', () => {
    const r = importCard(png(card('Mira', '新的'), card('Mira', '旧的')), 'c.png')
    expect(r.ok && r.notesSaid.map((n) => n.code)).not.toContain('note.png-chunks-differ')
  })
})
