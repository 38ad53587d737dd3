import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-system-prompt'
import type {} from '../host/service.ts'
import { noteMirror } from './report.ts'
import { MIRROR_PREFIX, mirrorInputKey, mirrorSections, type MirrorConfig } from './section-mirror.ts'

/**
 * Carries the sections the sealed persona swallows over as contexts (CONTRACT#section-mirror). The waterfall runs before DSH replaces the sections with the complete
 * one, so it still sees them all.
 */
export function registerSectionMirror(ctx: Context, config: MirrorConfig): void {
  // The last mirror and what it was drawn from: the same sections give the same contexts.
  let last: { key: string; mirror: ReturnType<typeof mirrorSections> } | undefined
  ctx.on('system-prompt/assemble', async (_assembly, _context, next) => {
    const result = await next()
    // Only assemblies of a Cyrene preset carry our variable; once mirrored, leave it.
    if (result.variables.cyrene_memory === undefined || result.contexts.some((c) => c.name.startsWith(MIRROR_PREFIX))) return result
    try {
      const key = mirrorInputKey(result.sections, result.variables)
      if (last?.key !== key) last = { key, mirror: mirrorSections(result.sections, result.variables, config) }
      const { contexts, report } = last.mirror
      noteMirror(ctx.get('cyreneMemory'), report)
      return { ...result, contexts: [...result.contexts, ...contexts.map((c) => ({ ...c }))] }
    } catch {
      return result
    }
  })
}
