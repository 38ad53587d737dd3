import type { Context } from '@deepseek-ai/cordis'
import { StoreGuard } from './service.ts'

export { protectedFolders } from './service.ts'

/**
 * The guard's registration through ctx: the host row `cyrene-host` mounts it on the store's root.
 * Host level on purpose: a guard registered there covers DSH's own presets too, not only Cyrene's.
 * Everything it registers (the tool guard, the `tools/execute` and `tools/post-execute`
 * listeners, the watches) is an effect of this context: unloading the row clears it.
 */
export function mountGuard(ctx: Context, config: { rootDir: string }): void {
  ctx.plugin(StoreGuard, config)
}
