import type { Context } from '@deepseek-ai/cordis'
import type {} from '../host/service.ts'
import { MEMORY_TITLE } from '../host/memory-block.ts'
import { EMPTY_MEMORY } from '../prompt/index.ts'
import { frameOrNothing } from './frame.ts'
import type { BlockSpec, PassBlock } from './types.ts'

/** `{{cyrene_memory}}` as a block of the pass: the anchors and recent days the host service composed. */
export const MEMORY_CAP = 1200

export const memorySpec: BlockSpec = { id: 'var:cyrene_memory', channel: 'variable', priority: 50, cap: MEMORY_CAP }

export function memoryBlock(text: string): PassBlock {
  const body = text === '' ? EMPTY_MEMORY : text
  const { id, channel, priority, cap } = memorySpec
  return {
    id,
    channel,
    priority,
    cap,
    // The body is the reader's (already neutralised, composed within the same cap); only cut here when the pass asks for less.
    render: (max) => frameOrNothing(MEMORY_TITLE, body, Math.min(max, MEMORY_CAP)),
  }
}

/** The composed memory text (unframed) and the ids it shows; empty when there is none or it cannot be read. `assembly`: read once per assembly. */
export function memoryNow(ctx: Context, assembly?: object): { text: string; ids: readonly string[] } {
  try {
    return ctx.get('cyreneMemory')?.composedMemory(assembly) ?? { text: '', ids: [] }
  } catch {
    return { text: '', ids: [] }
  }
}

/** The composed memory text (unframed), '' when there is none or it cannot be read. */
export function memoryText(ctx: Context, assembly?: object): string {
  return memoryNow(ctx, assembly).text
}
