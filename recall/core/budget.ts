import { fitWithinBudget, type FitCutReason } from '../../prompt/index.ts'

// Fills a character budget (the pre-step hit block ≤ 1000) with the best hits,
// each cut to a per-entry maximum, and says what it cut — limits must be
// visible (/cyrene doctor), never silent. The counting and cutting are
// prompt/budget.ts's (code points, never half an emoji); this adds what recall
// needs on top: hits by id, a repeated id taken once, a missing document reported.

export interface BudgetPick {
  id: string
  score: number
  /** The text to show, at most perEntryMax characters, ending in the ellipsis if cut. */
  text: string
  truncated: boolean
}

/** Why a hit was shortened or left out (see `FitCutReason`; `missing`: its document was not found). */
export type CutReason = FitCutReason

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
 * Walk `hits` best first through the one budget fitter (`prompt/budget.ts`):
 * each taken whole if it fits, shortened if at least `minChars` still fit,
 * otherwise skipped (a later, shorter hit may still fit). A repeated id is
 * taken once; whitespace at a cut is dropped before the ellipsis.
 */
export function selectWithinBudget(
  hits: readonly { id: string; score: number }[],
  docsById: TextLookup,
  budgetChars: number,
  perEntryMax: number,
  options: BudgetOptions = {},
): BudgetSelection {
  const fit = fitWithinBudget(firstOfEachId(hits), (hit) => lookup(docsById, hit.id), budgetChars, {
    perItemMax: perEntryMax,
    overheadPerItem: options.overheadPerEntry,
    minChars: options.minChars,
    ellipsis: options.ellipsis,
    trimEnd: true,
  })
  return {
    picked: fit.picked.map((p) => ({ id: p.item.id, score: p.item.score, text: p.text, truncated: p.truncated })),
    cut: fit.cut.map((c) => ({ id: c.item.id, reason: c.reason, originalChars: c.originalChars, keptChars: c.keptChars })),
    usedChars: fit.usedChars,
  }
}

function firstOfEachId<H extends { id: string }>(hits: readonly H[]): H[] {
  const seen = new Set<string>()
  const out: H[] = []
  for (const hit of hits) {
    if (seen.has(hit.id)) continue
    seen.add(hit.id)
    out.push(hit)
  }
  return out
}

function lookup(docs: TextLookup, id: string): string | undefined {
  const text = typeof docs === 'function' ? docs(id) : docs.get(id)?.text
  return typeof text === 'string' ? text : undefined
}
