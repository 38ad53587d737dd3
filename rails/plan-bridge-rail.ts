import type { RailSpec } from './types.ts'

/**
 * Rail 155: the plan bridge is row `cyrene-plan-bridge`'s own context
 * (runtime/plan-bridge.ts, ≤ 300); this row never mounts it, the pass only
 * sizes what that row drew, whole or left out.
 */
const PLAN_BRIDGE_CAP = 300

export const planBridgeSpec: RailSpec = {
  id: 'rail:plan-bridge',
  channel: 'rail',
  context: 'cyrene:plan-bridge',
  order: 155,
  priority: 80,
  cap: PLAN_BRIDGE_CAP,
  enabled: () => false,
}
