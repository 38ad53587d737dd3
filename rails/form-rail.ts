import { frameOrNothing, safe } from './frame.ts'
import type { FormChoice } from './form-chooser.ts'
import type { BlockSpec, RailSpec, PassBlock } from './types.ts'

/**
 * Rail 125 (形态): the form she speaks in this step (rails/form-chooser.ts
 * picks it), and the pre-step note when it changed since the last step.
 */
export const FORM_CAP = 200
export const MARKER_CAP = 200

export const formSpec: RailSpec = {
  id: 'rail:form',
  channel: 'rail',
  context: 'cyrene:form',
  order: 125,
  priority: 70,
  cap: FORM_CAP,
  switch: { key: 'scene', label: '形态/场景轨道 (order 125)' },
  enabled: (config) => config.rails.scene,
  block: (step) => (step.form === undefined ? undefined : formBlock(step.form)),
}

/** The pre-step note of a form change: only in the step where the form changed. */
export const formMarkerSpec: BlockSpec = { id: 'step:form', channel: 'pre-step', priority: 60, cap: MARKER_CAP }

export function formBlock(choice: FormChoice): PassBlock {
  const { id, channel, priority, cap } = formSpec
  const body = safe(`此刻的形态：${choice.form.name}。${choice.form.text}`)
  return { id, channel, priority, cap, render: (max) => frameOrNothing('形态', body, Math.min(max, cap)) }
}

const WHY: Record<FormChoice['reason'], string> = {
  pinned: '本会话固定了这个形态',
  scene: '对方刚才的话里有它的场景词',
  time: '此刻的钟点正适合它',
  default: '没有别的线索时的默认形态',
}

/** The pre-step note when her form changed since the last step (only then). */
export function formMarkerBlock(from: string, to: FormChoice): PassBlock {
  const body = safe(
    `形态从「${from}」换成了「${to.form.name}」（${WHY[to.reason]}）。从这一步起按「形态」里「${to.form.name}」的方式说话，不必向对方解释这次切换。`,
  )
  const { id, channel, priority, cap } = formMarkerSpec
  return { id, channel, priority, cap, render: (max) => frameOrNothing('形态切换', body, Math.min(max, cap)) }
}
