import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import { CyreneMemory, type ServiceConfig } from './service.ts'
import { CyreneSeats } from './service-seat.ts'
import { mountGuard } from '../guard/row.ts'
import { MEMORY_DEFAULTS } from './memory-block.ts'
import { DreamConfig, mountNight } from '../night/row.ts'

/**
 * Host-plane row `cyrene-host`: provides the cyreneMemory service to every preset (and the
 * cyreneSeats beside it, where row cyrene-panel seats its syncs and pairing code), the store
 * guard (guard/) that keeps every preset's generic tools out of 元/ and base entries (CONTRACT#store-guard), and
 * the night (night/, CONTRACT#night).
 */
export const name = 'cyrene-host'

export type Config = ServiceConfig & { dream: DreamConfig }
export const Config: Schema<Config> = Schema.object({
  rootDir: Schema.string().default('').description('记忆根目录；空 = <DSH_HOME>/cyrene-philia093-0/'),
  memoryChars: Schema.natural().default(MEMORY_DEFAULTS.memoryChars).description('{{cyrene_memory}} 的预算（字）'),
  recentDays: Schema.natural().default(MEMORY_DEFAULTS.recentDays).description('{{cyrene_memory}} 带上最近几天的记忆'),
  settings: Schema.dict(Schema.any())
    .default({})
    .description('设置的行级默认值（与 元/settings.json 同一套键，memory/settings.ts 的 SettingsSchema 校验；文件里的值优先）'),
  dream: DreamConfig,
})

export function apply(ctx: Context, config: Config): void {
  ctx.plugin(CyreneMemory, config)
  ctx.plugin(CyreneSeats)
  mountGuard(ctx, { rootDir: config.rootDir })
  mountNight(ctx, config.dream)
}
