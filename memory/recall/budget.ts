// Fills a character budget (the pre-step hit block ≤ 1000, {{cyrene_memory}} ≤ 1200)
// with the best hits, each cut to a per-entry maximum, and says what it cut —
// limits must be visible (/cyrene doctor), never silent.
//
// Characters are counted as Unicode code points, which is what "字" means in the
// contract: one Chinese character, one emoji or one letter each count 1.

export interface BudgetPick {
  id: string
  score: number
  /** The text to show, at most perEntryMax characters, ending in the ellipsis if cut. */
  text: string
  truncated: boolean
}

export type CutReason =
  /** Longer than perEntryMax: shortened, still picked. */
  | 'entry-limit'
  /** Shortened to fit what was left of the budget, still picked. */
  | 'budget'
  /** Not picked: too little budget left for even `minChars`. */
  | 'no-room'
  /** Not picked: the hit's document was not found. */
  | 'missing'

export interface BudgetCut {
  id: string
  reason: CutReason
  originalChars: number
  keptChars: number
}

export interface BudgetOptions {
  /** Characters each picked entry costs beyond its text (bullet, date, newline). Default 0. */
  overheadPerEntry?: number
  /** Shortest useful shortened entry; below this the entry is dropped instead. Default 24. */
  minChars?: number
  /** Appended to shortened text, counted within the limits. Default "…". */
  ellipsis?: string
}

export interface BudgetSelection {
  picked: BudgetPick[]
  cut: BudgetCut[]
  /** Characters used, overhead included; never more than the budget. */
  usedChars: number
}

type TextLookup = ReadonlyMap<string, { text: string }> | ((id: string) => string | undefined)

/**
 * Walk `hits` best first; take each whole if it fits, shortened if at least
 * `minChars` still fit, otherwise skip it (a later, shorter hit may still fit).
 * A repeated id is taken once.
 */
export function selectWithinBudget(
  hits: readonly { id: string; score: number }[],
  docsById: TextLookup,
  budgetChars: number,
  perEntryMax: number,
  options: BudgetOptions = {},
): BudgetSelection {
  const overhead = Math.max(0, Math.floor(options.overheadPerEntry ?? 0))
  const ellipsis = options.ellipsis ?? '…'
  const minChars = Math.max(codePointLength(ellipsis) + 1, Math.floor(options.minChars ?? 24))
  const entryMax = Math.max(0, Math.floor(perEntryMax))
  let remaining = Math.max(0, Math.floor(budgetChars))
  const picked: BudgetPick[] = []
  const cut: BudgetCut[] = []
  const seen = new Set<string>()

  for (const hit of hits) {
    if (seen.has(hit.id)) continue
    seen.add(hit.id)
    const text = lookup(docsById, hit.id)
    if (text === undefined) {
      cut.push({ id: hit.id, reason: 'missing', originalChars: 0, keptChars: 0 })
      continue
    }
    const original = Array.from(text)
    const room = remaining - overhead
    const limit = Math.min(entryMax, room)
    if (original.length <= limit) {
      picked.push({ id: hit.id, score: hit.score, text, truncated: false })
      remaining -= original.length + overhead
      continue
    }
    if (limit < minChars) {
      cut.push({ id: hit.id, reason: 'no-room', originalChars: original.length, keptChars: 0 })
      continue
    }
    const shortened = shorten(original, limit, ellipsis)
    const kept = codePointLength(shortened)
    picked.push({ id: hit.id, score: hit.score, text: shortened, truncated: true })
    cut.push({ id: hit.id, reason: limit < entryMax ? 'budget' : 'entry-limit', originalChars: original.length, keptChars: kept })
    remaining -= kept + overhead
  }
  return { picked, cut, usedChars: Math.max(0, Math.floor(budgetChars)) - remaining }
}

function lookup(docs: TextLookup, id: string): string | undefined {
  const text = typeof docs === 'function' ? docs(id) : docs.get(id)?.text
  return typeof text === 'string' ? text : undefined
}

function shorten(chars: readonly string[], limit: number, ellipsis: string): string {
  const keep = Math.max(0, limit - codePointLength(ellipsis))
  return chars.slice(0, keep).join('').trimEnd() + ellipsis
}

function codePointLength(text: string): number {
  let n = 0
  for (const _ of text) n++
  return n
}
