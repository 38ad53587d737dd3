import Schema from '@deepseek-ai/schemastery'
import { charCount } from '../prompt/index.ts'
import { capabilitySpec } from './capability-rail.ts'
import { formMarkerSpec, formSpec } from './form-rail.ts'
import { memorySpec } from './memory-var.ts'
import { nicknameSpec } from './nickname-rail.ts'
import { planBridgeSpec } from './plan-bridge-rail.ts'
import { recallHitsSpec } from './recall-step.ts'
import { styleSpec } from './style-rail.ts'
import type { BlockSpec, Rails, RailSpec, RailSwitch, PassBlock } from './types.ts'
import { worldbookHitsSpec, worldbookSpec } from './worldbook-rail.ts'

/**
 * The rails, in context order (120–155): the one list every other place
 * reads — the contexts the row mounts, the preset switches (`Config.rails`,
 * a mode's `rails`), the pass's trim order and the doctor. A rail is added
 * here and in its own file, nowhere else.
 */
export const RAILS: readonly RailSpec[] = [nicknameSpec, formSpec, styleSpec, worldbookSpec, capabilitySpec, planBridgeSpec]

/** The pass's other blocks: the memory variable and the pre-step messages (form marker, worldbook hits, memory hits). */
const STEP_BLOCKS: readonly BlockSpec[] = [memorySpec, formMarkerSpec, worldbookHitsSpec, recallHitsSpec]

/**
 * The trim order of the 4,000 pass: lower is cut first. Per-step material
 * goes first, so what is cut changes only the step's own messages and the
 * rails stay stable; then the lightest rails; the capability rail (how memory
 * and the data frames work) last. CONTRACT#budget-pass lists the same order.
 */
export const PRIORITY: Readonly<Record<string, number>> = Object.fromEntries(
  [...RAILS, ...STEP_BLOCKS].sort((a, b) => a.priority - b.priority).map((b) => [b.id, b.priority]),
)

/** The rails a preset switches on, in context order. */
const RAIL_SWITCHES: readonly { key: RailSwitch; label: string }[] = RAILS.flatMap((r) => (r.switch === undefined ? [] : [r.switch]))

/** `Config.rails` of row `cyrene-runtime`: one boolean per switch, off unless the preset turns it on. */
export function railSwitchesSchema(): Schema<Rails> {
  const dict: Record<string, Schema<boolean>> = {}
  for (const s of RAIL_SWITCHES) dict[s.key] = Schema.boolean().default(false).description(s.label)
  return Schema.object(dict) as unknown as Schema<Rails>
}

/** A block some other row drew already (the plan bridge): whole, or left out. */
export function fixedBlock(id: string, channel: PassBlock['channel'], cap: number, text: string): PassBlock {
  return { id, channel, priority: PRIORITY[id]!, cap, render: (max) => (charCount(text) <= Math.min(max, cap) ? text : '') }
}
