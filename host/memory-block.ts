import type { AnchorView, RecentEntry } from '../memory/index.ts'
import { charCount, clip, fitWithinBudget, promptSafe } from '../prompt/index.ts'
/**
 * What `{{cyrene_memory}}` holds: the four anchors (who I am, who you are,
 * where we come from, where we are going) and the newest remembered days,
 * within one character budget. Pure: the host service reads the files
 * (`memory/recent.ts`); lengths and cuts are `prompt/budget.ts`'s.
 *
 * Every piece of memory text goes through `promptSafe` (one line, frame
 * brackets turned into parentheses, hidden comments dropped), so the only
 * `【…】`, `〔…〕` and line starts in the block are the ones drawn here.
 */
/** The host row's defaults for `{{cyrene_memory}}` (CONTRACT#budgets: ≤ 1,200 with its frame); `cyrene memory recall` uses them too. */
export const MEMORY_DEFAULTS = { memoryChars: 1200, recentDays: 7 } as const

/** The frame title the runtime draws around this block. */
export const MEMORY_TITLE = '记忆'

export interface MemoryBlockResult {
  text: string
  /** Anchors or entries left out or shortened to stay within the budget. */
  cut: number
  /**
   * The recall ids of what the block shows (`anchor:<key>` and entry ids), so
   * the memory hits of the same step leave them out (CONTRACT#never-twice).
   */
  ids: string[]
}

/** A recent entry shortened to the end of the budget must still show this much; otherwise it is left out. */
const MIN_SHORTENED_ENTRY = 40

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
  const ids: string[] = []
  let cut = 0
  let used = 0
  const present = anchors.map((a) => ({ key: a.key, title: a.title, body: anchorLine(a) })).filter((a) => a.body !== '')
  const anchorShare = present.length === 0 ? 0 : Math.floor(Math.floor(budget / 2) / present.length)
  for (const { key, title, body } of present) {
    const head = `【${title}】`
    const room = Math.max(0, anchorShare - charCount(head))
    const shown = clip(body, room)
    if (shown !== body) cut++
    if (room === 0) continue
    lines.push(head + shown)
    ids.push(`anchor:${key}`)
    used += charCount(head + shown) + 1
  }
  const header = '【近来】'
  const entries = recent
    .map((e, order) => ({ id: e.id, date: e.date, text: promptSafe(e.text), persons: e.persons === true, order }))
    .filter((e) => e.text !== '')
  if (entries.length > 0 && used + charCount(header) + 1 < budget) {
    // Each line costs a newline more. An entry that does not fit is shortened while 40 characters
    // still fit, else left out (a shorter one after it may still fit).
    // The person's own entries are taken first and Cyrene's after them, so a burst of her writes never
    // pushes out what the person wrote; shown newest first all the same (decision 286).
    const first = [...entries.filter((e) => e.persons), ...entries.filter((e) => !e.persons)]
    const fit = fitWithinBudget(first, (e) => `- ${e.date} ${e.text}`, budget - used - charCount(header) - 1, {
      overheadPerItem: 1,
      minChars: MIN_SHORTENED_ENTRY,
    })
    cut += fit.cut.length
    const picked = [...fit.picked].sort((a, b) => a.item.order - b.item.order)
    if (picked.length > 0) lines.push(header, ...picked.map((p) => p.text))
    for (const p of picked) if (p.item.id !== undefined) ids.push(p.item.id)
  }
  return { text: lines.join('\n'), cut, ids }
}
