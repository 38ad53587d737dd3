import type { RecalledEntry } from '../memory/index.ts'
import { recallBlock } from './recall-block.ts'
import type { VoiceBlock } from './voice-block.ts'
import { PRIORITY } from './voice-rails.ts'

/**
 * The memory hits before a step (CONTRACT#recall-hits), as a block of the 4,000
 * pass. voice-step.ts fetches the hits when the person's message is claimed
 * into the step, lets the pass size this block with the others, and appends
 * what the pass kept in `agent/pre-step`. Any failure leaves the step as it was.
 */
export interface RecallConfig {
  enabled: boolean
  /** Characters the memory-hit message may take (CONTRACT#budgets: ≤ 1000). */
  maxChars: number
  perEntryMax: number
  limit: number
}

/** The text the person typed in this step's new messages (plugin notices left out). */
export function latestUserText(messages: readonly { source?: { kind?: string }; content?: unknown }[]): string {
  const texts: string[] = []
  for (const m of messages) {
    if (m.source?.kind !== 'user' || !Array.isArray(m.content)) continue
    for (const block of m.content as { type?: string; text?: unknown }[]) if (block.type === 'text' && typeof block.text === 'string') texts.push(block.text)
  }
  return texts.join('\n').trim()
}

/**
 * The hits as the pass sees them: within the row's budget, and within whatever less the pass leaves.
 * `exclude`: the ids `{{cyrene_memory}}` shows in the same step, never shown again as hits (CONTRACT#near-duplicates).
 */
export function recallVoiceBlock(hits: readonly RecalledEntry[], config: RecallConfig, exclude: readonly string[] = []): VoiceBlock {
  return {
    id: 'step:recall',
    channel: 'pre-step',
    priority: PRIORITY['step:recall'],
    cap: config.maxChars,
    render: (max) => recallBlock(hits, Math.min(max, config.maxChars), config.perEntryMax, { exclude }).text,
  }
}
