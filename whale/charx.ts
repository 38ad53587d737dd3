import { crc32, inflateRawSync } from 'node:zlib'
import { WhaleError } from './said.ts'

/**
 * Read-only extraction of `card.json` from a CharX card (Character Card V3: a zip holding the card
 * and its assets). Only the zip's directory and that one member are read; assets are never
 * inflated. Every offset is checked before use, the member's declared and inflated sizes are bounded
 * (`MAX_CHARX_CARD_BYTES`) and its CRC is verified (docs/decisions/313).
 */

/** The largest CharX file read: its assets (images) come along, so it may be far larger than its card. */
export const MAX_CHARX_BYTES = 64 * 1024 * 1024
/** What `card.json` may hold, inflated: as much as a PNG card's text (whale/png.ts). */
export const MAX_CHARX_CARD_BYTES = 8 * 1024 * 1024

/** The CharX reader's refusal (decision 085: a code and its values beside the English). */
export class CharxError extends WhaleError {}

const LOCAL = 0x04034b50
const CENTRAL = 0x02014b50
const END = 0x06054b50

/** A zip by its first bytes (a local file header, or the end record of an empty zip). */
function looksLikeZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b && ((bytes[2] === 3 && bytes[3] === 4) || (bytes[2] === 5 && bytes[3] === 6))
}

/** A CharX by its name or its bytes (one made by RisuAI may carry an image before the zip). */
export function isCharx(bytes: Uint8Array, fileName: string): boolean {
  return looksLikeZip(bytes) || /\.charx$/i.test(fileName)
}

const again = 'export the character again from its program as a CharX, PNG or JSON card and import that'

/**
 * How a zip reader's refusals are worded: a CharX's here, a Backyard archive's in whale/byaf.ts. The English
 * names what is wrong; the said, worded in the person's language, says as much as its catalogue holds.
 */
export interface ZipWords {
  notZip: () => WhaleError
  split: () => WhaleError
  zip64: () => WhaleError
  broken: (why: string) => WhaleError
  tooBig: (member: string, max: number) => WhaleError
  encrypted: (member: string) => WhaleError
  method: (member: string, method: number) => WhaleError
}

const broken = (why: string) => new CharxError(`the CharX zip is damaged (${why}); ${again}`, 'charx.damaged')

const CHARX_WORDS: ZipWords = {
  notZip: () => new CharxError(`the file is not a zip (no end of its directory), so it is not a CharX card; ${again}`, 'charx.not-zip'),
  split: () => new CharxError(`the CharX is a zip split over several files; ${again}`, 'charx.split'),
  zip64: () => new CharxError(`the CharX is a ZIP64 archive (over 4 GiB or 65,535 files), more than a card needs; ${again}`, 'charx.zip64'),
  broken,
  tooBig: (_, max) =>
    new CharxError(
      `its card.json would inflate past ${max} bytes, more than a card holds (a zip bomb, or not a card), so it is not read; ${again}`,
      'charx.card-too-large',
      { max },
    ),
  encrypted: () => new CharxError(`its card.json is encrypted; ${again} without a password`, 'charx.encrypted'),
  method: (_, method) => new CharxError(`its card.json is compressed with method ${method}, not deflate; ${again}`, 'charx.method', { method }),
}

export interface Member {
  name: string
  flags: number
  method: number
  crc: number
  packed: number
  size: number
  local: number
}

/** The end-of-directory record, searched from the end (a zip comment may follow it, up to 64 KiB). */
function endRecord(bytes: Buffer, words: ZipWords): number {
  const last = bytes.length - 22
  for (let at = last; at >= 0 && at >= last - 0xffff; at--) if (bytes.readUInt32LE(at) === END) return at
  throw words.notZip()
}

/** The members a zip's directory lists, every offset checked against the file. */
export function zipDirectory(bytes: Buffer, words: ZipWords = CHARX_WORDS): Member[] {
  const end = endRecord(bytes, words)
  const count = bytes.readUInt16LE(end + 10)
  const size = bytes.readUInt32LE(end + 12)
  const offset = bytes.readUInt32LE(end + 16)
  if (bytes.readUInt16LE(end + 4) !== 0 || bytes.readUInt16LE(end + 6) !== 0) throw words.split()
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff) throw words.zip64()
  // Bytes before the zip (an image RisuAI puts first) move every offset by as much.
  const shift = end - size - offset
  if (shift < 0) throw words.broken('its directory points past its end')
  const members: Member[] = []
  let at = offset + shift
  for (let i = 0; i < count; i++) {
    if (at + 46 > end || bytes.readUInt32LE(at) !== CENTRAL) throw words.broken('a directory record is cut short')
    const nameLength = bytes.readUInt16LE(at + 28)
    const next = at + 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32)
    if (next > end) throw words.broken('a directory record runs past the directory')
    const flags = bytes.readUInt16LE(at + 8)
    // Bit 11: the name is UTF-8; otherwise code page 437, which agrees with it on the ASCII of `card.json`.
    const name = bytes.subarray(at + 46, at + 46 + nameLength).toString(flags & 0x800 ? 'utf8' : 'latin1')
    members.push({
      name,
      flags,
      method: bytes.readUInt16LE(at + 10),
      crc: bytes.readUInt32LE(at + 16),
      packed: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      local: bytes.readUInt32LE(at + 42) + shift,
    })
    at = next
  }
  return members
}

/**
 * The card: `card.json` at the top of the zip, as the V3 spec places it; failing that, one a folder holds
 * (`<folder>/card.json`, the first in the directory, as SillyTavern takes the first name ending so), never
 * macOS's `__MACOSX/` copies.
 */
function cardMember(members: Member[]): Member | undefined {
  return (
    members.find((m) => m.name === 'card.json') ??
    members.find((m) => !m.name.startsWith('__MACOSX/') && m.name.endsWith('/card.json') && !m.name.endsWith('/'))
  )
}

/** The bytes of a CharX card's `card.json` (UTF-8 JSON, read like a JSON card file). */
export function cardJsonFromCharx(bytes: Buffer): Buffer {
  if (bytes.length > MAX_CHARX_BYTES)
    throw new CharxError(`the CharX is larger than ${MAX_CHARX_BYTES} bytes; export the card without its assets, or as a PNG or JSON card`, 'charx.too-large', {
      max: MAX_CHARX_BYTES,
    })
  const member = cardMember(zipDirectory(bytes))
  if (member === undefined) throw new CharxError(`the zip holds no card.json, so it is not a CharX character card; ${again}`, 'charx.no-card')
  return zipMemberBytes(bytes, member, MAX_CHARX_CARD_BYTES)
}

/** One member's bytes, inflated up to `max` and checked against its size and CRC. */
export function zipMemberBytes(bytes: Buffer, member: Member, max: number, words: ZipWords = CHARX_WORDS): Buffer {
  const tooBig = () => words.tooBig(member.name, max)
  if (member.size > max) throw tooBig()
  if (member.flags & 1) throw words.encrypted(member.name)
  if (member.method !== 0 && member.method !== 8) throw words.method(member.name, member.method)
  const at = member.local
  if (at < 0 || at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL) throw words.broken(`the ${member.name} entry is not where its directory says`)
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28)
  if (start + member.packed > bytes.length) throw words.broken(`${member.name} runs past the end of the file`)
  const packed = bytes.subarray(start, start + member.packed)
  let data: Buffer
  if (member.method === 0) data = packed
  else
    try {
      data = inflateRawSync(packed, { maxOutputLength: max })
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooBig()
      throw words.broken(`${member.name} does not inflate: ${(error as Error).message}`)
    }
  if (data.length !== member.size || crc32(data) !== member.crc) throw words.broken(`${member.name} fails its size or CRC check`)
  return data
}
