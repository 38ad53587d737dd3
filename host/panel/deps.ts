import type { CyreneMemory } from '../service.ts'

/** What a sync run sent, for the panel, `/cyrene sync` and `cyrene sync`. */
export interface SyncReport {
  ok: boolean
  message: string
  sent?: number
  removed?: number
  unchanged?: number
  queued?: number
}

/** The sync's state as the panel shows it (never the token). */
export interface SyncState {
  enabled: boolean
  lastRunAt?: string
  lastReport?: SyncReport
  queued: number
}

/** What the routes need; the sync and the dream runner are optional seams filled by their rows. */
export interface PanelDeps {
  memory: CyreneMemory
  trustedHosts: readonly string[]
  maxBodyBytes: number
  env: NodeJS.ProcessEnv
  sync?: { runNow(): Promise<SyncReport>; state(): SyncState }
  dreamNow?: () => Promise<{ ok: boolean; message: string; code?: string; [more: string]: unknown }>
}
