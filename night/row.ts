import type { Context } from '@deepseek-ai/cordis'
import type { DreamConfig } from './config.ts'
import { CyreneDream } from './service.ts'

export { DreamConfig } from './config.ts'
export type { CyreneDream } from './service.ts'
export { DREAM_SUBCOMMAND as dreamRow, describeOutcome, registerDreamCommand } from './commands.ts'

/**
 * The night's registration through ctx: the host row `cyrene-host` mounts the `cyreneDream`
 * service with its config key `dream`. Every timer and listener the service sets is an effect of
 * this context (the host timer, one per enabled live session inside that agent's own context):
 * unloading the row clears them. The commands (`/dream`, `/cyrene dream on|off|status`) are
 * registered by the preset row `cyrene-commands` (runtime/commands.ts), where the model's
 * sessions see them.
 */
export function mountNight(ctx: Context, config: DreamConfig): void {
  ctx.plugin(CyreneDream, config)
}
