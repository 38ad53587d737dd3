import type { Context } from '@deepseek-ai/cordis'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import type {} from '@deepseek-ai/dsh-agent'
import type {} from '../host/service.ts'
import { recallBlock } from './recall-block.ts'

export interface RecallConfig {
  enabled: boolean
  /** Characters the memory-hit message may take (contract §4: ≤ 1000). */
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
 * Memory hits for what the person just said, as one data message appended to
 * the step (contract §4.2). DSH delivers `agent/pre-step` to a preset row only
 * for that preset's agents; any failure leaves the step as it was.
 */
export function registerRecallStep(ctx: Context, config: RecallConfig): void {
  ctx.on('agent/pre-step', async (payload, next) => {
    const decision = await next()
    if (decision.kind !== 'enter' || !config.enabled) return decision
    const query = latestUserText(payload.messages)
    const service = ctx.get('cyreneMemory')
    if (query === '' || service === undefined) return decision
    try {
      const block = recallBlock(await service.recall(query, config.limit), config.maxChars, config.perEntryMax)
      if (block.text === '') return decision
      const note = createUserMessage({
        content: [{ type: 'text', text: block.text }],
        source: { kind: 'plugin', plugin: 'dsh-cyrene-philia093-0', form: 'notice', summary: `记忆命中 ${block.shown} 条` },
      })
      return { ...decision, messages: [...decision.messages, note] }
    } catch {
      return decision
    }
  })
}
