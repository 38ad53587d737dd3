import { charCount } from '../memory/entry.ts'
/**
 * What `{{cyrene_memory}}` holds: the four anchors (who I am, who you are,
 * where we come from, where we are going) and the newest remembered days,
 * within one character budget. Pure: the host service reads the files.
 */
export interface AnchorCore { key: string; title: string; text: string }
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


/**
 * Anchors first (each gets an equal share of what it needs, never more than
 * half the budget together), then the newest entries until the budget is spent.
 */
export function composeMemoryBlock(anchors: AnchorCore[], recent: RecentEntry[], budget: number): MemoryBlockResult {
  const lines: string[] = []
  let cut = 0
  let used = 0
  const present = anchors.filter((a) => a.text.trim() !== '')
  const anchorShare = present.length === 0 ? 0 : Math.floor(Math.floor(budget / 2) / present.length)
  for (const anchor of present) {
    const body = anchor.text.trim().replace(/\s*\n\s*/g, ' ')
    const head = `【${anchor.title}】`
    const room = Math.max(0, anchorShare - charCount(head))
    const shown = clip(body, room)
    if (shown !== body) cut++
    if (room === 0) continue
    lines.push(head + shown)
    used += charCount(head + shown) + 1
  }
  const header = '【近来】'
  if (recent.length > 0 && used + charCount(header) + 1 < budget) {
    const entryLines: string[] = []
    let left = budget - used - charCount(header) - 1
    for (const entry of recent) {
      const line = `- ${entry.date} ${entry.text.trim().replace(/\s*\n\s*/g, ' ')}`
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
