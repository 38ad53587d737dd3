import type { SiyuanErrorSaid } from '../siyuan/client.ts'
import type { CyreneMemory } from '../service.ts'
import type { GitSyncRunner } from '../git-trigger.ts'
import type { PanelPairing } from './pairing.ts'

/** What a sync run sent, for the panel, `/cyrene sync` and `cyrene sync`. */
export interface SyncReport {
  ok: boolean
  message: string
  sent?: number
  removed?: number
  unchanged?: number
  queued?: number
  /** Files SiYuan refused this time (set aside until they change; named in `problems`). */
  failed?: number
  /** Documents removed in SiYuan and made again from the store file. */
  recreated?: number
  /** One line per file SiYuan refused, as it said (at most ten). */
  problems?: string[]
  /** What happened, as a code the person's catalogue words (host/siyuan/report-text.ts); `message` is its English. */
  said?: SiyuanSaid
}

type SiyuanSaid =
  | { code: 'stopped' | 'off' }
  | { code: 'done'; notebook: string }
  | { code: 'no-token'; tokenEnv: string }
  | { code: 'waiting'; error: string; retryable: boolean; errorSaid?: SiyuanErrorSaid }

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
  /** The page's secret: every POST carries its code (CONTRACT#pairing). */
  pairing: PanelPairing
  sync?: { runNow(): Promise<SyncReport>; state(): SyncState }
  gitSync?: GitSyncRunner
  dreamNow?: () => Promise<{ ok: boolean; message: string; code?: string; [more: string]: unknown }>
  /** The store guard's counts, when it is mounted. */
  guard?: () => { refused: number; undone: number } | undefined
}
