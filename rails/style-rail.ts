import { frameOrNothing, safe } from './frame.ts'
import type { RailSpec, RailStep, PassBlock } from './types.ts'
import type { VoiceStyle } from './voice-texts.ts'

/** Rail 130 (道韵): the style level the person chose (元/settings.json `style`), else the styles file's default. */
export const STYLE_CAP = 400

export const styleSpec: RailSpec = {
  id: 'rail:style',
  channel: 'rail',
  context: 'cyrene:style',
  order: 130,
  priority: 40,
  cap: STYLE_CAP,
  switch: { key: 'style', label: '道韵轨道 (order 130)' },
  enabled: (config) => config.rails.style,
  block: styleOfStep,
}

function styleOfStep({ texts, settings, problems }: RailStep): PassBlock | undefined {
  if (texts === undefined) return undefined
  const wanted = settings.style
  const style = texts.styles.find((s) => s.name === wanted) ?? texts.styles.find((s) => s.name === texts.defaultStyle)
  if (wanted !== undefined && style?.name !== wanted)
    problems.push(`元/settings.json style 「${wanted}」 is not a level of the styles file; using 「${style?.name}」`)
  return style === undefined ? undefined : styleBlock(style)
}

export function styleBlock(style: VoiceStyle): PassBlock {
  const { id, channel, priority, cap } = styleSpec
  const body = safe(`道韵「${style.name}」：${style.text}`)
  return { id, channel, priority, cap, render: (max) => frameOrNothing('道韵', body, Math.min(max, cap)) }
}
