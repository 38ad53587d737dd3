import type { RecalledEntry } from '../recall/index.ts'
import { fitHits, prepareHits, RECALL_DEFAULTS, type PreparedHits } from './recall-block.ts'
import type { BlockSpec, RecallConfig, PassBlock } from './types.ts'

/**
 * The memory hits before a step (CONTRACT#recall-hits), as a block of the 4,000
 * pass. rails/row.ts fetches the hits when the person's message is claimed
 * into the step, lets the pass size this block with the others, and appends
 * what the pass kept in `agent/pre-step`. Any failure leaves the step as it was.
 *
 * The hits as the pass sees them: within the row's budget, and within whatever less the pass leaves.
 * `exclude`: the ids `{{cyrene_memory}}` shows in the same step, never shown again as hits (CONTRACT#near-duplicates).
 */
export function recallPassBlock(hits: readonly RecalledEntry[], config: RecallConfig, exclude: readonly string[] = []): PassBlock {
  // The pass may render this block more than once in a step: what does not depend on its room is done once.
  let prepared: PreparedHits | undefined
  return {
    id: recallHitsSpec.id,
    channel: 'pre-step',
    priority: recallHitsSpec.priority,
    cap: config.maxChars,
    render: (max) => fitHits((prepared ??= prepareHits(hits, config.perEntryMax, { exclude })), Math.min(max, config.maxChars)).text,
  }
}

/** The memory hits in the pass's trim order: the first to go after the worldbook's hits. Its cap is the row's `recall.maxChars` (default: `RECALL_DEFAULTS`). */
export const recallHitsSpec: BlockSpec = { id: 'step:recall', channel: 'pre-step', priority: 20, cap: RECALL_DEFAULTS.maxChars }
