import { charCount } from '../memory/entry.ts'
import { promptSafe } from '../memory/prompt-safe.ts'
/**
 * What `{{cyrene_memory}}` holds: the four anchors (who I am, who you are,
 * where we come from, where we are going) and the newest remembered days,
 * within one character budget. Pure: the host service reads the files.
 *
 * Every piece of memory text goes through `promptSafe` (one line, frame
 * brackets turned into parentheses, hidden comments dropped), so the only
 * `【…】`, `〔…〕` and line starts in the block are the ones drawn here.
 */
/** The frame title the runtime draws around this block. */
export const MEMORY_TITLE = '记忆'

/** One anchor: its core (no date), then its dated sections newest first. */
export interface AnchorView { key: string; title: string; parts: { date?: string; text: string }[] }
export interface RecentEntry { date: string; text: string }

export interface MemoryBlockResult {
  text: string
  /** Anchors or entries left out or shortened to stay within the budget. */
  cut: number
}

const ELLIPSIS = '…'

function clip(text: string, max: number): string {
  const chars = [...text]
  return chars.length <= max ? text : chars.slice(0, Math.max(0, max - 1)).join('') + ELLIPSIS
}

/** An anchor's parts on one line; a dated section is marked `〔YYYY-MM-DD〕`, which memory text cannot write. */
function anchorLine(anchor: AnchorView): string {
  return anchor.parts
    .map((p) => ({ date: p.date, text: promptSafe(p.text) }))
    .filter((p) => p.text !== '')
    .map((p) => (p.date === undefined ? p.text : `〔${p.date}〕${p.text}`))
    .join(' ')
}

/**
 * Anchors first (each gets an equal share of what it needs, never more than
 * half the budget together), then the newest entries until the budget is spent.
 */
export function composeMemoryBlock(anchors: AnchorView[], recent: RecentEntry[], budget: number): MemoryBlockResult {
  const lines: string[] = []
  let cut = 0
  let used = 0
  const present = anchors.map((a) => ({ title: a.title, body: anchorLine(a) })).filter((a) => a.body !== '')
  const anchorShare = present.length === 0 ? 0 : Math.floor(Math.floor(budget / 2) / present.length)
  for (const { title, body } of present) {
    const head = `【${title}】`
    const room = Math.max(0, anchorShare - charCount(head))
    const shown = clip(body, room)
    if (shown !== body) cut++
    if (room === 0) continue
    lines.push(head + shown)
    used += charCount(head + shown) + 1
  }
  const header = '【近来】'
  const entries = recent.map((e) => ({ date: e.date, text: promptSafe(e.text) })).filter((e) => e.text !== '')
  if (entries.length > 0 && used + charCount(header) + 1 < budget) {
    const entryLines: string[] = []
    let left = budget - used - charCount(header) - 1
    for (const entry of entries) {
      const line = `- ${entry.date} ${entry.text}`
      if (charCount(line) + 1 <= left) {
        entryLines.push(line)
        left -= charCount(line) + 1
      } else if (left > 40) {
        entryLines.push(clip(line, left - 1))
        left = 0
        cut++
      } else {
        cut++
      }
    }
    if (entryLines.length > 0) lines.push(header, ...entryLines)
  }
  return { text: lines.join('\n'), cut }
}
