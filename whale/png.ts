import { crc32, inflateSync } from 'node:zlib'
import { WhaleError } from './said.ts'

/**
 * Read-only extraction of the character JSON from a PNG card (spec §12.3,
 * issue part 2). Only tEXt / zTXt / iTXt chunks named `chara` or `ccv3` are
 * read; image data is never decoded. Every length is checked before use,
 * every chunk's CRC is verified, and decompression output is bounded per
 * chunk and for the whole file (`MAX_INFLATED_BYTES`).
 */
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
export const MAX_PNG_BYTES = 32 * 1024 * 1024
const MAX_CHUNKS = 10_000
/** Text chunks larger than this are refused, compressed or not. */
const MAX_CARD_TEXT_BYTES = 8 * 1024 * 1024
/**
 * What every compressed card chunk of one PNG may inflate to, added up. A card
 * needs one chunk; without a total, thousands of small chunks that each inflate
 * to the per-chunk limit cost minutes of CPU before anything is refused.
 */
export const MAX_INFLATED_BYTES = MAX_CARD_TEXT_BYTES

/** The PNG reader's refusal (decision 085: a code and its values beside the English). */
export class PngCardError extends WhaleError {}

export function looksLikePng(bytes: Uint8Array): boolean {
  return bytes.length >= 8 && PNG_SIGNATURE.equals(Buffer.from(bytes.buffer, bytes.byteOffset, 8))
}

interface TextChunk {
  keyword: string
  text: string
}

/** What is left of the file's inflate budget; each inflate takes what it produced. */
interface InflateBudget {
  left: number
}

function inflateBounded(data: Buffer, budget: InflateBudget): Buffer {
  const refusal = `the PNG's compressed card text inflates past ${MAX_INFLATED_BYTES} bytes in all, so it is not read; export the card again (one "chara" or "ccv3" chunk) or import its JSON`
  const tooBig = () => new PngCardError(refusal, 'png.inflate-limit', { max: MAX_INFLATED_BYTES })
  if (budget.left <= 0) throw tooBig()
  let out: Buffer
  try {
    out = inflateSync(data, { maxOutputLength: Math.min(MAX_CARD_TEXT_BYTES, budget.left) })
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw tooBig()
    const why = (error as Error).message
    throw new PngCardError(`a compressed text chunk does not inflate (${why})`, 'png.inflate', { error: why })
  }
  budget.left -= out.length
  return out
}

function keywordEnd(data: Buffer): number {
  const end = data.indexOf(0)
  // PNG keywords are 1–79 Latin-1 characters
  if (end < 1 || end > 79) throw new PngCardError('a text chunk has a malformed keyword', 'png.keyword')
  return end
}

function parseText(type: string, data: Buffer, budget: InflateBudget): TextChunk {
  const end = keywordEnd(data)
  const keyword = data.subarray(0, end).toString('latin1')
  const rest = data.subarray(end + 1)
  if (type === 'tEXt') return { keyword, text: rest.toString('latin1') }
  if (type === 'zTXt') {
    if (rest.length < 1 || rest[0] !== 0) throw new PngCardError('a zTXt chunk uses an unknown compression method', 'png.ztxt-method')
    return { keyword, text: inflateBounded(rest.subarray(1), budget).toString('latin1') }
  }
  // iTXt: flag, method, language tag\0, translated keyword\0, UTF-8 text
  if (rest.length < 2) throw new PngCardError('an iTXt chunk is truncated', 'png.itxt-truncated')
  const compressed = rest[0] === 1
  if (rest[0]! > 1 || (compressed && rest[1] !== 0)) throw new PngCardError('an iTXt chunk has an unknown compression setting', 'png.itxt-compression')
  const langEnd = rest.indexOf(0, 2)
  const transEnd = langEnd < 0 ? -1 : rest.indexOf(0, langEnd + 1)
  if (langEnd < 0 || transEnd < 0) throw new PngCardError('an iTXt chunk is truncated', 'png.itxt-truncated')
  const body = rest.subarray(transEnd + 1)
  return { keyword, text: (compressed ? inflateBounded(body, budget) : body).toString('utf8') }
}

/** Walks the chunk list and returns the card texts by keyword (lower-cased), and NovelAI's lorebook (`naidata`) when there is one. */
export function cardTexts(bytes: Buffer): Map<string, string> {
  if (bytes.length > MAX_PNG_BYTES) throw new PngCardError(`the PNG is larger than ${MAX_PNG_BYTES} bytes`, 'png.too-large', { max: MAX_PNG_BYTES })
  if (!looksLikePng(bytes)) throw new PngCardError('not a PNG file (bad signature)', 'png.signature')
  const found = new Map<string, string>()
  let offset = 8
  let sawEnd = false
  const budget: InflateBudget = { left: MAX_INFLATED_BYTES }
  for (let count = 0; offset < bytes.length; count++) {
    if (count >= MAX_CHUNKS) throw new PngCardError('the PNG has too many chunks', 'png.chunks')
    if (offset + 12 > bytes.length) throw new PngCardError('the PNG is truncated inside a chunk header', 'png.header-truncated')
    const length = bytes.readUInt32BE(offset)
    const type = bytes.subarray(offset + 4, offset + 8).toString('latin1')
    if (!/^[A-Za-z]{4}$/.test(type)) throw new PngCardError('the PNG has a malformed chunk type', 'png.chunk-type')
    if (length > 0x7fffffff || offset + 12 + length > bytes.length)
      throw new PngCardError(`the ${type} chunk runs past the end of the file`, 'png.chunk-end', { type })
    const data = bytes.subarray(offset + 8, offset + 8 + length)
    const storedCrc = bytes.readUInt32BE(offset + 8 + length)
    const isText = type === 'tEXt' || type === 'zTXt' || type === 'iTXt'
    if (isText) {
      if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== storedCrc)
        throw new PngCardError(`the ${type} chunk fails its CRC check`, 'png.crc', { type })
      if (length > MAX_CARD_TEXT_BYTES)
        throw new PngCardError(`a text chunk is larger than ${MAX_CARD_TEXT_BYTES} bytes`, 'png.text-too-large', { max: MAX_CARD_TEXT_BYTES })
      const end = data.indexOf(0)
      const keyword = end > 0 ? data.subarray(0, end).toString('latin1').toLowerCase() : ''
      // Only the two card keywords are parsed at all (each chunk, so the inflate budget holds); of two with one name the
      // first is kept, as SillyTavern reads it (an editor that appended its card after the old one left two).
      // NovelAI's lorebook PNG (what SillyTavern's World Info import reads from a PNG) is read the same way.
      if (keyword === 'chara' || keyword === 'ccv3' || keyword === 'naidata') {
        const text = parseText(type, data, budget).text
        if (!found.has(keyword)) found.set(keyword, text)
      }
    }
    offset += 12 + length
    if (type === 'IEND') {
      sawEnd = true
      break
    }
  }
  if (!sawEnd) throw new PngCardError('the PNG has no IEND chunk', 'png.no-iend')
  return found
}

/** The card JSON text carried by a PNG: `ccv3` preferred over `chara` (as SillyTavern reads them); both are base64 of UTF-8 JSON. */
export function cardJsonFromPng(bytes: Buffer): string {
  return pngCard(bytes).text
}

/** The card a PNG carries (`text`), and the `chara` chunk's card too when a `ccv3` one was read instead (`chara`). */
export function pngCard(bytes: Buffer): { text: string; chara?: string } {
  const texts = cardTexts(bytes)
  const v3 = texts.get('ccv3')
  const v2 = texts.get('chara')
  const encoded = v3 ?? v2
  if (encoded === undefined && texts.has('naidata'))
    throw new PngCardError(
      'the PNG carries a NovelAI lorebook ("naidata"), not a character card; import it into the worldbook with `cyrene worldbook import`',
      'png.nai-lorebook',
    )
  if (encoded === undefined)
    throw new PngCardError(
      'the PNG carries no "chara" or "ccv3" text chunk, so it is not a character card; export the character from SillyTavern as a JSON card (or a PNG character card) and import that',
      'png.no-card',
    )
  const text = decodeChunk(encoded)
  if (v3 === undefined || v2 === undefined) return { text }
  try {
    return { text, chara: decodeChunk(v2) }
  } catch {
    // The chunk not read is only compared: a broken one does not refuse the card that was read.
    return { text }
  }
}

/**
 * What `cyrene worldbook import` reads from a PNG: the character card's JSON (its `character_book`), or, in a
 * PNG with no card, NovelAI's lorebook from its `naidata` chunk, as SillyTavern's World Info import reads one.
 */
export function worldJsonFromPng(bytes: Buffer): string {
  const texts = cardTexts(bytes)
  const nai = texts.get('naidata')
  if (nai === undefined || texts.has('ccv3') || texts.has('chara')) return pngCard(bytes).text
  return decodeChunk(nai)
}

function decodeChunk(encoded: string): string {
  // The URL-safe alphabet (`-`, `_`) some tools write is the same bytes: SillyTavern's reader (Node's base64) takes both.
  const compact = encoded.replace(/\s+/g, '').replace(/-/g, '+').replace(/_/g, '/')
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(compact) || compact.length % 4 === 1) throw new PngCardError('the card chunk is not valid base64', 'png.base64')
  // A byte-order mark before the JSON, as a JSON file may carry one: not part of the card.
  return Buffer.from(compact, 'base64')
    .toString('utf8')
    .replace(/^\uFEFF/, '')
}
