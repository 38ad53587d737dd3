import { charCount, fitWithinBudget, frameOverhead, promptSafe, type RecalledEntry } from '../memory/index.ts'
import { framed } from './framing.ts'

export interface RecallBlock {
  text: string
  shown: number
  /** Hits shortened or left out to stay within the budget. */
  cut: number
}

const RECALL_TITLE = '记忆命中'
const LINE_PREFIX_CHARS = charCount('- YYYY-MM-DD ')

/**
 * Pure: the pre-step message text for a message's memory hits, within
 * `maxChars` (frame header and closing marker included). Each hit is
 * neutralised (`promptSafe`: one line, no frame brackets, no hidden comments)
 * before it is measured, so what is counted is what the model reads.
 */
export function recallBlock(hits: readonly RecalledEntry[], maxChars: number, perEntryMax: number): RecallBlock {
  if (hits.length === 0) return { text: '', shown: 0, cut: 0 }
  const unique = firstOfEachId(hits)
  const shown = unique.map((hit) => ({ date: hit.date, text: promptSafe(hit.text) })).filter((hit) => hit.text !== '')
  // Lines are joined by newlines inside the frame: +1 per line covers them (the frame counts its own two).
  const room = maxChars - frameOverhead(RECALL_TITLE) + 1
  const fit = fitWithinBudget(shown, (hit) => hit.text, room, { perItemMax: perEntryMax, overheadPerItem: LINE_PREFIX_CHARS + 1, trimEnd: true })
  const cut = fit.cut.length + (unique.length - shown.length)
  if (fit.picked.length === 0) return { text: '', shown: 0, cut }
  const lines = fit.picked.map((p) => `- ${p.item.date} ${p.text}`)
  return { text: framed(RECALL_TITLE, lines.join('\n')), shown: lines.length, cut }
}

/** The recall index returns each entry once; should an id still repeat, it is shown once. */
function firstOfEachId(hits: readonly RecalledEntry[]): RecalledEntry[] {
  const seen = new Set<string>()
  return hits.filter((hit) => {
    if (seen.has(hit.id)) return false
    seen.add(hit.id)
    return true
  })
}
