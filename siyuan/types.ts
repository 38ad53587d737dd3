import type { SiyuanErrorSaid } from './client.ts'

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
  /** A ledger that could not be read, renamed aside by this run (store-relative path). */
  keptAside?: string
  /** What happened, as a code the person's catalogue words (siyuan/report-text.ts); `message` is its English. */
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
  /** Ledgers kept aside because they could not be read: the newest and how many. */
  keptAside?: { file: string; n: number }
}
