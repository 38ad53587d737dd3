import type { SyncReport, SyncState } from '../siyuan/index.ts'
import type { CyreneMemory } from '../host/service.ts'
import type { GitSyncRunner } from '../gitsync/index.ts'
import type { PanelPairing } from './pairing.ts'
import type { PageLocale } from './locale.ts'

/** What the routes need; the sync and the dream runner are optional seams filled by their rows. */
export interface PanelDeps {
  memory: CyreneMemory
  trustedHosts: readonly string[]
  maxBodyBytes: number
  env: NodeJS.ProcessEnv
  /** The page's secret: every POST carries its code (CONTRACT#pairing). */
  pairing: PanelPairing
  /** The language the page reported (`POST /locale`), which `uiLang` reads when DSH stores no choice. */
  pageLocale: PageLocale
  sync?: { runNow(): Promise<SyncReport>; state(): SyncState }
  gitSync?: GitSyncRunner
  dreamNow?: () => Promise<{ ok: boolean; message: string; code?: string; [more: string]: unknown }>
  /** The store guard's counts, when it is mounted. */
  guard?: () => { refused: number; undone: number } | undefined
}
