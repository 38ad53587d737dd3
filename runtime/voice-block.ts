/**
 * One block Cyrene injects into a step, as the 4,000-character budget pass
 * sees it (CONTRACT#budgets: rails 120–155, `{{cyrene_memory}}` and pre-step
 * blocks, frames and end markers included).
 */
export interface VoiceBlock {
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
