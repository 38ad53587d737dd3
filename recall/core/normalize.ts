// Text clean-up shared by documents and queries. Both sides must go through the
// same steps, otherwise a memory written one way could never be found the other.

import { foldCantonese } from './cantonese.ts'
import { foldTraditional } from './fold.ts'

// Zero-width and invisible format characters: they split words for the segmenter
// without being visible to the person who typed them.
const INVISIBLE = /[\u00AD\u180E\u200B-\u200F\u202A-\u202E\u2060-\u206F\uFEFF]/g
// Control characters become spaces so that "tea\u0000time" stays two words.
const CONTROL = /\p{Cc}/gu
// Half of a surrogate pair on its own (a string cut in the wrong place upstream).
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g

/**
 * Normalise text for indexing: well-formed UTF-16, NFKC (full-width ＡＢＣ and
 * compatibility forms fold to their plain forms), invisible characters removed,
 * control characters turned into spaces, lower case, traditional characters folded
 * to simplified (fold.ts: 貓 and 猫 are one term), written Cantonese read as Mandarin (cantonese.ts:
 * 佢睇咗 is 他看了).
 */
export function normalizeText(text: string): string {
  return foldCantonese(foldTraditional(text.replace(LONE_SURROGATE, '\uFFFD').normalize('NFKC').replace(INVISIBLE, '').replace(CONTROL, ' ').toLowerCase()))
}

/** Cut at `max` UTF-16 units without leaving half of a surrogate pair behind. */
export function clipText(text: string, max: number): string {
  if (text.length <= max) return text
  const end = max > 0 && isHighSurrogate(text.charCodeAt(max - 1)) ? max - 1 : max
  return text.slice(0, Math.max(0, end))
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff
}
