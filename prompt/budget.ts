/**
 * The one owner of prompt text budgets: how long a text is, how to cut it, and
 * which items fit. Every block the plugin puts in front of the model — the
 * `{{cyrene_memory}}` variable, the memory hits, the capability rail, the plan
 * bridge, every mirrored section, and the data frame around each — measures
 * and cuts here, so they all agree on what a character is. Pure, no I/O.
 *
 * A character is a Unicode code point, which is what "字" means in the
 * contract: one Chinese character, one emoji or one letter each count 1. Text
 * is only ever cut between code points, so a cut never leaves half of a
 * surrogate pair (a broken emoji) for the model to read. (`whale/` keeps its
 * own count: its spec and conformance cases fix it.)
 */

/** The mark a shortened text ends with, counted within its limit. */
const ELLIPSIS = '…'

/** Characters of `text`: Unicode code points (a lone surrogate counts as one). */
export function charCount(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}

export interface ClipOptions {
  /** Ends a shortened text, counted within the limit. Default `…`. */
  ellipsis?: string
  /** Drop whitespace left at the cut, before the ellipsis (recall hits do). Default false. */
  trimEnd?: boolean
}

/**
 * `text` within `max` characters: unchanged when it fits, otherwise its first
 * characters followed by the ellipsis, together exactly `max` (fewer when
 * `trimEnd` drops whitespace at the cut). A limit too small to hold the
 * ellipsis gives the empty text.
 */
export function clip(text: string, max: number, options: ClipOptions = {}): string {
  const limit = wholeLimit(max)
  if (fitsIn(text, limit)) return text
  const ellipsis = options.ellipsis ?? ELLIPSIS
  const keep = limit - charCount(ellipsis)
  if (keep < 0) return ''
  const kept = firstChars(text, keep)
  return (options.trimEnd === true ? kept.trimEnd() : kept) + ellipsis
}

/** The first `n` characters of `text`, cut between code points. */
function firstChars(text: string, n: number): string {
  let end = 0
  let taken = 0
  for (const ch of text) {
    if (taken === n) break
    end += ch.length
    taken++
  }
  return text.slice(0, end)
}

/** Whether `text` has at most `limit` characters, without counting past the limit. */
function fitsIn(text: string, limit: number): boolean {
  if (text.length <= limit) return true
  let n = 0
  for (const _ of text) if (++n > limit) return false
  return true
}

/** A limit as a whole number of characters: negative or NaN is 0, Infinity stays (no limit). */
function wholeLimit(max: number): number {
  return max > 0 ? Math.floor(max) : 0
}

export type FitCutReason =
  /** Longer than `perItemMax`: shortened, still picked. */
  | 'entry-limit'
  /** Shortened to fit what was left of the budget, still picked. */
  | 'budget'
  /** Not picked: too little budget left for even `minChars`. */
  | 'no-room'
  /** Not picked: the item had no text (its document was not found). */
  | 'missing'

export interface FitOptions extends ClipOptions {
  /** Characters one item may show; longer text is shortened. Default no limit. */
  perItemMax?: number
  /** Characters each picked item costs beyond its text (a bullet, a date, a newline). Default 0. */
  overheadPerItem?: number
  /** Shortest useful shortened text; an item that would show less is left out instead. Default 24. */
  minChars?: number
}

interface FittedItem<T> {
  item: T
  /** The text to show, within the limits, ending in the ellipsis if shortened. */
  text: string
  truncated: boolean
}

interface FitCut<T> {
  item: T
  reason: FitCutReason
  originalChars: number
  keptChars: number
}

export interface Fit<T> {
  /** The items shown, in the order given. */
  picked: FittedItem<T>[]
  /** Items shortened or left out, in the order given — limits must be visible (/cyrene doctor). */
  cut: FitCut<T>[]
  /** Characters used, overhead included; never more than the budget. */
  usedChars: number
}

/**
 * Fill `budget` characters with `items` in the order given: each whole if it
 * fits, shortened if at least `minChars` still fit, otherwise left out (a
 * later, shorter item may still fit). `textOf` gives an item's text, or
 * undefined when it has none (reported as `missing`).
 */
export function fitWithinBudget<T>(items: readonly T[], textOf: (item: T) => string | undefined, budget: number, options: FitOptions = {}): Fit<T> {
  const overhead = wholeLimit(options.overheadPerItem ?? 0)
  const ellipsis = options.ellipsis ?? ELLIPSIS
  const clipOptions: ClipOptions = { ellipsis, trimEnd: options.trimEnd ?? false }
  const minChars = Math.max(charCount(ellipsis) + 1, Math.floor(options.minChars ?? 24))
  const itemMax = wholeLimit(options.perItemMax ?? Infinity)
  const total = wholeLimit(budget)
  let remaining = total
  const picked: FittedItem<T>[] = []
  const cut: FitCut<T>[] = []

  for (const item of items) {
    const text = textOf(item)
    if (text === undefined) {
      cut.push({ item, reason: 'missing', originalChars: 0, keptChars: 0 })
      continue
    }
    const original = charCount(text)
    const limit = Math.min(itemMax, remaining - overhead)
    if (original <= limit) {
      picked.push({ item, text, truncated: false })
      remaining -= original + overhead
      continue
    }
    if (limit < minChars) {
      cut.push({ item, reason: 'no-room', originalChars: original, keptChars: 0 })
      continue
    }
    const shortened = clip(text, limit, clipOptions)
    const kept = charCount(shortened)
    picked.push({ item, text: shortened, truncated: true })
    cut.push({ item, reason: limit < itemMax ? 'budget' : 'entry-limit', originalChars: original, keptChars: kept })
    remaining -= kept + overhead
  }
  return { picked, cut, usedChars: total - remaining }
}
