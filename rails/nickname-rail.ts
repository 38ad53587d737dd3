import type { Context } from '@deepseek-ai/cordis'
import type {} from '../host/service.ts'
import type {} from '../host/whale-row.ts'
import { PerAssembly } from '../host/per-assembly.ts'
import { frameOrNothing, safe } from './frame.ts'
import type { RailSpec, PassBlock } from './types.ts'

/**
 * Rail 120 (称呼): how she addresses the person. Stable between steps (same
 * nickname → same text), so the runtime snapshot DSH re-sends on change stays put.
 */
export const NICKNAME_CAP = 64

export const nicknameSpec: RailSpec = {
  id: 'rail:nickname',
  channel: 'rail',
  context: 'cyrene:nickname',
  order: 120,
  priority: 90,
  cap: NICKNAME_CAP,
  switch: { key: 'nickname', label: '称呼轨道 (order 120)' },
  enabled: (config) => config.rails.nickname,
  block: (step) => nicknameBlock(nicknameOf(step.ctx, step.config.defaultNickname, step.assembly)),
}

export function nicknameBlock(name: string): PassBlock {
  const { id, channel, priority, cap } = nicknameSpec
  const body = safe(`称呼对方「${name}」。`)
  return { id, channel, priority, cap, render: (max) => frameOrNothing('称呼', body, Math.min(max, cap)) }
}

/** The name each assembly found (before the row default): `{{user_nickname}}` and rail 120 ask in the same assembly. */
const namesOf = new PerAssembly<{ name: string | undefined }>()

/**
 * `{{user_nickname}}` and rail 120: the person's setting, then whale-persona's userName, then the row default.
 * With `assembly` (DSH's assembly context), the files are looked at once for it.
 */
export function nicknameOf(ctx: Context, fallback: string, assembly?: object): string {
  try {
    const found = namesOf.get(assembly, () => ({ name: ctx.get('cyreneMemory')?.voice.nickname(assembly) ?? ctx.get('whalePersona')?.userName(assembly) }))
    return found.name ?? fallback
  } catch {
    return fallback
  }
}
