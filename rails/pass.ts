import { charCount } from '../prompt/index.ts'
import type { PassBlock } from './types.ts'

/** CONTRACT#budget-pass: every Cyrene injection of a step together, frames and end markers included. */
export const PASS_TOTAL = 4000

interface VoiceOutcome {
  id: string
  channel: PassBlock['channel']
  priority: number
  /** What goes to the model ('' = nothing). */
  text: string
  chars: number
  /** Characters it had at its own cap, before the total was checked. */
  full: number
  /** Why it is shorter than `full`, when it is. */
  why?: string
}

export interface PassResult {
  /** One per block, in the order given. */
  blocks: VoiceOutcome[]
  total: number
  budget: number
}

function renderWithin(block: PassBlock, max: number): string {
  if (max <= 0) return ''
  let text: string
  try {
    text = block.render(max)
  } catch {
    return ''
  }
  // A block that overshoots what it was given is left out rather than cut: a cut framed text would lose its closing marker.
  return charCount(text) <= max ? text : ''
}

/**
 * Pure, one pass per step: each block rendered at its own cap, then, while
 * the sum is over `budget`, the lowest priority block is rendered again
 * within what is left for it (ties: the later block first), down to nothing.
 * Every outcome is within its block's cap and the total within the budget.
 */
export function runPass(blocks: readonly PassBlock[], budget: number = PASS_TOTAL): PassResult {
  const out: VoiceOutcome[] = blocks.map((b) => {
    const text = renderWithin(b, b.cap)
    const chars = charCount(text)
    return { id: b.id, channel: b.channel, priority: b.priority, text, chars, full: chars }
  })
  let total = out.reduce((sum, o) => sum + o.chars, 0)
  const order = out.map((_, i) => i).sort((a, b) => out[a]!.priority - out[b]!.priority || b - a)
  for (const i of order) {
    if (total <= budget) break
    const o = out[i]!
    if (o.chars === 0) continue
    const allowed = o.chars - (total - budget)
    const text = renderWithin(blocks[i]!, allowed)
    const chars = charCount(text)
    total -= o.chars - chars
    o.text = text
    o.chars = chars
    o.why = chars === 0 ? `left out: the ${budget} total was used up by higher priorities` : `shortened to ${chars} to keep the ${budget} total`
  }
  return { blocks: out, total, budget }
}
