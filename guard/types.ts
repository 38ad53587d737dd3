import type { EffectsState } from './effects.ts'

/** The store guard as plain data, as the doctor reads it (service.ts `doctorState`). */
export type StoreGuardState =
  | { kind: 'off'; detail: string }
  | {
      kind: 'on'
      root: string
      refusals: number
      last: { at: string; tool: string; target: string } | undefined
      checkErrors: number
      /** SIGUSR1s that would have opened Node's inspector in the host (kept shut while the guard is on). */
      inspectorRefusals?: number
      /** The effects check (effects.ts): what tool calls changed and the host put back. */
      effects?: EffectsState | undefined
    }
