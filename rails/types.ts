import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import type { VoiceSettings } from '../host/voice-settings.ts'
import type { FormChoice } from './form-chooser.ts'
import type { VoiceTexts } from './voice-texts.ts'

/**
 * One block Cyrene injects into a step, as the 4,000-character budget pass
 * sees it (CONTRACT#budgets: rails 120–155, `{{cyrene_memory}}` and pre-step
 * blocks, frames and end markers included).
 */
export interface PassBlock {
  /** e.g. `rail:nickname`, `rail:worldbook`, `step:worldbook`, `step:recall`, `var:cyrene_memory`. */
  id: string
  channel: 'rail' | 'variable' | 'pre-step'
  /** Lower is trimmed first when the total is over budget. */
  priority: number
  /** Its own cap, frame included. */
  cap: number
  /** The framed text within `max` code points (frame included); '' = nothing to inject. */
  render(max: number): string
}

/** The preset switches of `cyrene-runtime` (`Config.rails`, a mode's `rails`): one per rail that a preset turns on. */
export type RailSwitch = 'nickname' | 'scene' | 'style' | 'worldbook'
export type Rails = Record<RailSwitch, boolean>

/**
 * Where the worldbook (rail 140 and its keyword hits) plugs in: rails/worldbook-rail.ts
 * gives its blocks as `PassBlock`s and they go through the same pass; the
 * hits are appended after the form marker, before the memory hits.
 */
export interface WorldbookBlocks {
  rail(agent: Agent | undefined): PassBlock | undefined
  step(agent: Agent | undefined, recentUserText: string): PassBlock | undefined
}

/** Rail 150's switch and text (row `cyrene-runtime` Config `capability`). */
export interface CapabilityConfig {
  enabled: boolean
  text: string
}

/** The memory hits before a step (row `cyrene-runtime` Config `recall`). */
export interface RecallConfig {
  enabled: boolean
  /** Characters the memory-hit message may take (CONTRACT#budgets: ≤ 1000). */
  maxChars: number
  perEntryMax: number
  limit: number
}

export interface RailsRowConfig {
  rails: Rails
  defaultNickname: string
  capability: CapabilityConfig
  recall: RecallConfig
  worldbook?: WorldbookBlocks
}

/** What the rails of one assembly are drawn from: read once, shared by every rail. */
export interface RailStep {
  ctx: Context
  config: RailsRowConfig
  agent: Agent | undefined
  /** DSH's context of the assembly this step's rails are drawn for (what is read once per assembly is kept by it). */
  assembly: object | undefined
  /** Forms and styles, read when the form or the style rail is on. */
  texts: VoiceTexts | undefined
  /** The voice keys of 元/settings.json now. */
  settings: VoiceSettings
  /** The form of this step, when the form rail is on. */
  form: FormChoice | undefined
  /** Problems the rails met (the doctor's voice-text lines); a rail adds its own. */
  problems: string[]
}

/** A block of the 4,000 pass that is not a rail (the memory variable, a pre-step message): its trim priority and its cap. */
export interface BlockSpec {
  id: string
  channel: PassBlock['channel']
  priority: number
  cap: number
}

/**
 * One rail: the runtime context DSH mounts it as (`context`, `order`), its
 * place in the pass's trim order and its cap, the preset switch that turns it
 * on (where a preset chooses), when this row mounts it, and its block for one
 * assembly. A rail with no `block` is drawn by another row (the plan bridge):
 * the pass only sizes what that row drew.
 */
export interface RailSpec extends BlockSpec {
  channel: 'rail'
  context: string
  order: number
  switch?: { key: RailSwitch; label: string }
  enabled(config: RailsRowConfig): boolean
  block?(step: RailStep): PassBlock | undefined
}
