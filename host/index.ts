import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import { CyreneMemory } from './service.ts'

/** Host-plane row `cyrene-host`: provides the cyreneMemory service to every preset. */
export const name = 'cyrene-host'

export interface Config {}
export const Config: Schema<Config> = Schema.object({})

export function apply(ctx: Context): void {
  ctx.plugin(CyreneMemory)
}
