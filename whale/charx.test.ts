import { describe, expect, it } from 'vitest'
import { cardJsonFromCharx, CharxError, MAX_CHARX_CARD_BYTES } from './charx.ts'
import { importCard } from './card-import.ts'
import { zip } from './testing/zip.ts'

/** A V3 card as a CharX exporter writes it (our own text): the card, and an icon the card names. */
const card = {
  spec: 'chara_card_v3',
  spec_version: '3.0',
  data: {
    name: '温伯 Old Wen',
    description: '雾港码头上补网的老人。He remembers every storm since 1952.',
    personality: 'patient, dry humour',
    first_mes: '又起雾了。',
    assets: [{ type: 'icon', uri: 'embeded://assets/icon/images/main.png', name: 'main', ext: 'png' }],
    character_book: { entries: [{ keys: ['雾港'], content: '雾港冬天整月不见太阳。', enabled: true, insertion_order: 100 }] },
  },
}
const icon = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')

const said = (action: () => unknown): string | undefined => {
  try {
    action()
  } catch (e) {
    if (e instanceof CharxError) return e.said.code
    throw e
  }
  return undefined
}

describe('CharX cards (decision 313)', () => {
  it('reads card.json from the top of the zip, deflated or stored, and never the assets', () => {
    const deflated = zip([
      { name: 'assets/icon/images/main.png', data: icon, store: true },
      { name: 'card.json', data: JSON.stringify(card) },
    ])
    expect(JSON.parse(cardJsonFromCharx(deflated).toString('utf8'))).toEqual(card)
    const stored = zip([{ name: 'card.json', data: JSON.stringify(card), store: true }])
    expect(JSON.parse(cardJsonFromCharx(stored).toString('utf8'))).toEqual(card)
  })

  it('imports as the same card in JSON would: the persona taken, nothing said about the zip', () => {
    const bytes = zip([
      { name: 'card.json', data: JSON.stringify(card) },
      { name: 'assets/icon/images/main.png', data: icon, store: true },
    ])
    const fromCharx = importCard(bytes, 'old-wen.charx')
    const fromJson = importCard(Buffer.from(JSON.stringify(card)), 'old-wen.json')
    expect(fromCharx.ok).toBe(true)
    expect(fromCharx).toEqual(fromJson)
  })

  it('reads one with bytes before the zip (an image first, as RisuAI may write it) and one whose card sits in a folder', () => {
    const prefixed = Buffer.concat([Buffer.from('ffd8ffe000104a464946', 'hex'), Buffer.alloc(300, 7), zip([{ name: 'card.json', data: JSON.stringify(card) }])])
    expect(importCard(prefixed, 'old-wen.charx').ok).toBe(true)
    const inFolder = zip([
      { name: '__MACOSX/old-wen/card.json', data: 'not a card' },
      { name: 'old-wen/card.json', data: JSON.stringify(card) },
    ])
    expect(JSON.parse(cardJsonFromCharx(inFolder).toString('utf8')).data.name).toBe('温伯 Old Wen')
  })

  it('refuses a zip with no card.json, one that is no zip, and a damaged one, each saying what to do', () => {
    const noCard = importCard(zip([{ name: 'assets/icon/images/main.png', data: icon }]), 'x.charx')
    expect(noCard).toMatchObject({ ok: false, said: { code: 'card.charx', params: { why: { code: 'charx.no-card' } } } })
    expect(noCard.ok === false && noCard.error).toMatch(/no card\.json.*export the character again/)
    expect(said(() => cardJsonFromCharx(Buffer.from('{"spec":"chara_card_v3"}')))).toBe('charx.not-zip')
    const good = zip([{ name: 'card.json', data: JSON.stringify(card) }])
    expect(said(() => cardJsonFromCharx(good.subarray(0, good.length - 30)))).toBe('charx.not-zip')
    expect(said(() => cardJsonFromCharx(zip([{ name: 'card.json', data: JSON.stringify(card), declaredCrc: 1 }])))).toBe('charx.damaged')
    // A directory that points past the file.
    const lying = Buffer.from(good)
    lying.writeUInt32LE(lying.readUInt32LE(lying.length - 6) + 10_000, lying.length - 6)
    expect(said(() => cardJsonFromCharx(lying))).toBe('charx.damaged')
  })

  it('refuses a zip bomb, by its declared size and by what it inflates to, before holding more than the cap', () => {
    const huge = Buffer.alloc(MAX_CHARX_CARD_BYTES + 1, 0x20)
    expect(said(() => cardJsonFromCharx(zip([{ name: 'card.json', data: huge }])))).toBe('charx.card-too-large')
    // The headers say 100 bytes; the deflated stream says 8 MiB and more.
    expect(said(() => cardJsonFromCharx(zip([{ name: 'card.json', data: huge, declaredSize: 100 }])))).toBe('charx.card-too-large')
    const refused = importCard(zip([{ name: 'card.json', data: huge }]), 'bomb.charx')
    expect(refused.ok === false && refused.error).toMatch(/zip bomb/)
  })
})
