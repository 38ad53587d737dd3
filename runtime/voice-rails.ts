import { charCount, frameOverhead, promptSafe } from '../memory/index.ts'
import { framedWithin } from './framing.ts'
import { inertBraces } from './prompt-text.ts'
import type { VoiceBlock } from './voice-block.ts'
import type { FormChoice } from './form-chooser.ts'
import type { VoiceStyle } from './voice-texts.ts'

/**
 * Pure: rails 120 (称呼), 125 (形态), 130 (道韵) and the form-change marker
 * as `VoiceBlock`s for the budget pass. Every text a person wrote (nickname,
 * form and style files) is neutralised (`promptSafe`: one line, no frame
 * brackets) and made `{{`-inert (contexts are interpolated), then framed;
 * each cap counts the frame. Same inputs → same text, so the runtime snapshot
 * DSH re-sends on change stays put between steps.
 */

export const NICKNAME_CAP = 64
export const FORM_CAP = 200
export const STYLE_CAP = 400
export const MARKER_CAP = 200

/**
 * A frame within `max` (frame included), or '' when not even one character of
 * the body fits: a frame around nothing tells the model nothing.
 */
export function frameOrNothing(title: string, body: string, max: number): string {
  const key = `${title}\u0000${max}\u0000${body}`
  const known = drawn.get(key)
  if (known !== undefined) return known
  let text = ''
  if (body !== '' && max >= frameOverhead(title) + 1) {
    text = framedWithin(title, body, max).text
    if (charCount(text) > max) text = ''
  }
  // Every step draws the same rails again (and the variable twice): the last few frames are kept, oldest dropped first.
  if (drawn.size >= DRAWN_KEPT) drawn.delete(drawn.keys().next().value!)
  drawn.set(key, text)
  return text
}

const DRAWN_KEPT = 32
const drawn = new Map<string, string>()

/** A person's text as a rail may carry it. */
function safe(text: string): string {
  return inertBraces(promptSafe(text))
}

/** A rail whose body is fixed for the step: framed within `min(max, cap)`. */
function railBlock(id: 'rail:nickname' | 'rail:form' | 'rail:style', title: string, cap: number, body: string): VoiceBlock {
  return { id, channel: 'rail', priority: PRIORITY[id], cap, render: (max) => frameOrNothing(title, body, Math.min(max, cap)) }
}

export function nicknameBlock(name: string): VoiceBlock {
  return railBlock('rail:nickname', '称呼', NICKNAME_CAP, safe(`称呼对方「${name}」。`))
}

export function formBlock(choice: FormChoice): VoiceBlock {
  return railBlock('rail:form', '形态', FORM_CAP, safe(`此刻的形态：${choice.form.name}。${choice.form.text}`))
}

export function styleBlock(style: VoiceStyle): VoiceBlock {
  return railBlock('rail:style', '道韵', STYLE_CAP, safe(`道韵「${style.name}」：${style.text}`))
}

const WHY: Record<FormChoice['reason'], string> = {
  pinned: '本会话固定了这个形态',
  scene: '对方刚才的话里有它的场景词',
  time: '此刻的钟点正适合它',
  default: '没有别的线索时的默认形态',
}

/** The pre-step note when her form changed since the last step (only then). */
export function formMarkerBlock(from: string, to: FormChoice): VoiceBlock {
  const body = safe(
    `形态从「${from}」换成了「${to.form.name}」（${WHY[to.reason]}）。从这一步起按「形态」里「${to.form.name}」的方式说话，不必向对方解释这次切换。`,
  )
  return {
    id: 'step:form',
    channel: 'pre-step',
    priority: PRIORITY['step:form'],
    cap: MARKER_CAP,
    render: (max) => frameOrNothing('形态切换', body, Math.min(max, MARKER_CAP)),
  }
}

/**
 * The trim order of the 4,000 pass: lower is cut first. Per-step material
 * goes first, so what is cut changes only the step's own messages and the
 * rails stay stable; then the lightest rails; the capability rail (how memory
 * and the data frames work) last. CONTRACT#budget-pass lists the same order.
 */
export const PRIORITY = {
  'step:worldbook': 10,
  'step:recall': 20,
  'rail:worldbook': 30,
  'rail:style': 40,
  'var:cyrene_memory': 50,
  'step:form': 60,
  'rail:form': 70,
  'rail:plan-bridge': 80,
  'rail:nickname': 90,
  'rail:capability': 100,
} as const
