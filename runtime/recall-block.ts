import type { RecalledEntry } from '../memory/recall-keeper.ts'
import { charCount } from '../memory/entry.ts'
import { selectWithinBudget } from '../memory/recall/index.ts'
import { DATA_FRAME } from './framing.ts'

export interface RecallBlock {
  text: string
  shown: number
  /** Hits shortened or left out to stay within the budget. */
  cut: number
}

const HEADER = `【记忆命中】${DATA_FRAME}\n`
const LINE_PREFIX_CHARS = '- YYYY-MM-DD '.length

/** Pure: the pre-step message text for a message's memory hits, within `maxChars`. */
export function recallBlock(hits: readonly RecalledEntry[], maxChars: number, perEntryMax: number): RecallBlock {
  if (hits.length === 0) return { text: '', shown: 0, cut: 0 }
  const byId = new Map(hits.map((h) => [h.id, h]))
  // +1 for the newline that ends each line but the last.
  const selection = selectWithinBudget(hits, (id) => byId.get(id)?.text.replace(/\s*\n\s*/g, ' '), maxChars - charCount(HEADER), perEntryMax, { overheadPerEntry: LINE_PREFIX_CHARS + 1 })
  if (selection.picked.length === 0) return { text: '', shown: 0, cut: selection.cut.length }
  const lines = selection.picked.map((p) => `- ${byId.get(p.id)?.date ?? ''} ${p.text}`)
  return { text: HEADER + lines.join('\n'), shown: lines.length, cut: selection.cut.length }
}
