import type { RecalledEntry } from '../memory/recall-keeper.ts'
import { frameOverhead, promptSafe } from '../memory/index.ts'
import { selectWithinBudget } from '../memory/recall/index.ts'
import { framed } from './framing.ts'

export interface RecallBlock {
  text: string
  shown: number
  /** Hits shortened or left out to stay within the budget. */
  cut: number
}

export const RECALL_TITLE = '记忆命中'
const LINE_PREFIX_CHARS = '- YYYY-MM-DD '.length

/**
 * Pure: the pre-step message text for a message's memory hits, within
 * `maxChars` (frame header and closing marker included). Each hit is
 * neutralised (`promptSafe`: one line, no frame brackets, no hidden comments)
 * before it is measured, so what is counted is what the model reads.
 */
export function recallBlock(hits: readonly RecalledEntry[], maxChars: number, perEntryMax: number): RecallBlock {
  if (hits.length === 0) return { text: '', shown: 0, cut: 0 }
  const byId = new Map(hits.map((h) => [h.id, h]))
  const safe = (id: string): string | undefined => {
    const text = byId.get(id)?.text
    return text === undefined ? undefined : promptSafe(text)
  }
  // Lines are joined by newlines inside the frame: +1 per line covers them (the frame counts its own two).
  const room = maxChars - frameOverhead(RECALL_TITLE) + 1
  const shown = hits.filter((h) => safe(h.id) !== '')
  const selection = selectWithinBudget(shown, safe, room, perEntryMax, { overheadPerEntry: LINE_PREFIX_CHARS + 1 })
  const cut = selection.cut.length + (hits.length - shown.length)
  if (selection.picked.length === 0) return { text: '', shown: 0, cut }
  const lines = selection.picked.map((p) => `- ${byId.get(p.id)?.date ?? ''} ${p.text}`)
  return { text: framed(RECALL_TITLE, lines.join('\n')), shown: lines.length, cut }
}
