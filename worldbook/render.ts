import { charCount, dataFrame, frameOverhead, promptSafe } from '../prompt/index.ts'
import { inertBraces } from '../prompt/index.ts'
import type { WorldEntry } from './entry.ts'
import { constantEntries } from './match.ts'

/**
 * Entries as the model reads them: one data frame (CONTRACT#data-frames), one line per
 * entry `- 标题：正文`, whole entries only — an entry that does not fit what is
 * left is left out (a later, shorter one may still fit), never cut, so no half
 * sentence and no half character reaches the model. Entry text is the person's
 * (or an imported card's): it is neutralised like memory text (one line, no
 * frame bracket, no hidden comment, nothing that reads as the closing marker)
 * and its `{{` / `}}` made inert, since the rail is a DSH context and DSH
 * interpolates contexts strictly.
 */

/** CONTRACT#budgets: "about 560" for the constant entries (rail 140), frame included. */
export const RAIL_CAP = 560
/** Keyword hits (the pre-step block): at most 800 characters, frame included. */
export const HITS_CAP = 800

const RAIL_TITLE = '世界书·常驻'
export const HITS_TITLE = '世界书·命中'

interface LeftOut {
  name: string
  /** `no-room`: did not fit what was left; `too-many`: past the entry limit; `empty`: nothing left once neutralised. */
  why: 'no-room' | 'too-many' | 'empty'
  chars: number
}

export interface Rendered {
  /** The framed block, within the budget; '' when no entry fits (or there is none). */
  text: string
  shown: string[]
  leftOut: LeftOut[]
}

/** The line an entry takes in a block, as the model reads it. */
export function entryLine(entry: WorldEntry): string {
  const body = promptSafe(entry.body)
  if (body === '') return ''
  const title = promptSafe(entry.title)
  return inertBraces(title === '' ? `- ${body}` : `- ${title}：${body}`)
}

/** The longest entry line (`entryLine`) one entry may have to be shown alone in its block. */
export function roomForOne(constant: boolean): number {
  return constant ? RAIL_CAP - frameOverhead(RAIL_TITLE) : HITS_CAP - frameOverhead(HITS_TITLE)
}

/**
 * `entries` (already in priority order) in one frame of at most `max`
 * characters, frame and marker included, and at most `maxEntries` entries.
 */
export function renderEntries(title: string, entries: readonly WorldEntry[], max: number, maxEntries = Infinity): Rendered {
  const overhead = frameOverhead(title)
  let room = Math.floor(max) - overhead
  const lines: string[] = []
  const shown: string[] = []
  const leftOut: LeftOut[] = []
  for (const entry of entries) {
    const line = entryLine(entry)
    const chars = charCount(line)
    if (line === '') {
      leftOut.push({ name: entry.name, why: 'empty', chars: 0 })
      continue
    }
    if (shown.length >= maxEntries) {
      leftOut.push({ name: entry.name, why: 'too-many', chars })
      continue
    }
    // Every line after the first costs its newline too.
    const cost = chars + (lines.length > 0 ? 1 : 0)
    if (cost > room) {
      leftOut.push({ name: entry.name, why: 'no-room', chars })
      continue
    }
    lines.push(line)
    shown.push(entry.name)
    room -= cost
  }
  return { text: lines.length === 0 ? '' : dataFrame(title, lines.join('\n')), shown, leftOut }
}

/** The worldbook's two blocks: the 140 rail of constant entries, and one step's keyword hits. */
const BLOCK_TITLES = { rail: RAIL_TITLE, hits: HITS_TITLE } as const

/**
 * `renderEntries` under the title of `block`, so code outside worldbook/ picks a block by name and
 * never holds the frame titles (docs/decisions/096).
 */
export function renderBlock(block: keyof typeof BLOCK_TITLES, entries: readonly WorldEntry[], max: number, maxEntries = Infinity): Rendered {
  return renderEntries(BLOCK_TITLES[block], entries, max, maxEntries)
}

/** The 140 rail from a whole book: its constant entries (enabled) by priority, whole, within `max`. What the rail shows, the doctor checks and an import warns of. */
export function renderRail(entries: readonly WorldEntry[], max: number = RAIL_CAP): Rendered {
  return renderEntries(RAIL_TITLE, constantEntries(entries), max)
}
