import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import { CyreneMemory, type ServiceConfig } from './service.ts'

/** Host-plane row `cyrene-host`: provides the cyreneMemory service to every preset. */
export const name = 'cyrene-host'

export type Config = ServiceConfig
export const Config: Schema<Config> = Schema.object({
  rootDir: Schema.string().default('').description('记忆根目录；空 = <DSH_HOME>/cyrene-philia093-0/'),
  memoryChars: Schema.natural().default(1200).description('{{cyrene_memory}} 的预算（字）'),
  recentDays: Schema.natural().default(7).description('{{cyrene_memory}} 带上最近几天的记忆'),
})

export function apply(ctx: Context, config: Config): void {
  ctx.plugin(CyreneMemory, config)
}
