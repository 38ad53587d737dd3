import { charCount, frameOverhead, promptSafe } from '../prompt/index.ts'
import { framedWithin, inertBraces } from '../prompt/index.ts'

/**
 * A frame within `max` (frame included), or '' when not even one character of
 * the body fits: a frame around nothing tells the model nothing.
 */
export function frameOrNothing(title: string, body: string, max: number): string {
  const key = `${title}\u0000${max}\u0000${body}`
  const known = drawn.get(key)
  if (known !== undefined) return known
  let text = ''
  if (body !== '' && max >= frameOverhead(title) + 1) {
    text = framedWithin(title, body, max).text
    if (charCount(text) > max) text = ''
  }
  // Every step draws the same rails again (and the variable twice): the last few frames are kept, oldest dropped first.
  if (drawn.size >= DRAWN_KEPT) drawn.delete(drawn.keys().next().value!)
  drawn.set(key, text)
  return text
}

const DRAWN_KEPT = 32
const drawn = new Map<string, string>()

/**
 * A person's text as a rail may carry it: neutralised (`promptSafe`: one
 * line, no frame brackets) and made `{{`-inert (contexts are interpolated).
 */
export function safe(text: string): string {
  return inertBraces(promptSafe(text))
}
