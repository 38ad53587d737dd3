import { Service, type Context } from '@deepseek-ai/cordis'
import type { SyncReport, SyncState } from '../siyuan/index.ts'
import type { GitSyncRunner, GitSyncState } from '../gitsync/index.ts'
import type { PanelPairing } from '../panel/index.ts'

declare module '@deepseek-ai/cordis' {
  interface Context {
    cyreneSeats: CyreneSeats
  }
}

/**
 * One seat: a running part one row puts down and other rows find (the SiYuan
 * sync, the git sync, the pairing code), empty again when the row that put
 * it there unloads. Before, these were fields of the memory service that
 * other rooms wrote into (docs/decisions/094).
 */
class Seat<T> {
  private held: T | undefined

  /** What sits here now, if anything. */
  get(): T | undefined {
    return this.held
  }

  /** Seats `value` for as long as `ctx` lives (a later `take` replaces it; unloading clears only its own). */
  take(ctx: Context, value: T, label: string): T {
    this.held = value
    ctx.effect(
      () => () => {
        if (this.held === value) this.held = undefined
      },
      `cyrene: ${label} seat`,
    )
    return value
  }
}

/** The SiYuan sync as the seat holds it: a run now and its state. */
export interface SiyuanRunner {
  runNow(): Promise<SyncReport>
  state(): SyncState
}

/** What the seats hold, as plain data for the doctor (host/doctor-service.ts writes the lines). */
export interface SeatsState {
  /** The SiYuan sync's state, when it runs in this process (row cyrene-panel). */
  sync?: SyncState | undefined
  /** The background git sync's state, when it runs in this process (row cyrene-panel). */
  git?: GitSyncState | undefined
  /** The settings page's pairing code: where it was shown, and how often guesses replaced it (row cyrene-panel, web only). */
  pairing?: { shown: boolean; wrongGuesses: number } | undefined
}

/**
 * Service `cyreneSeats` (row cyrene-host, beside `cyreneMemory`): the seats
 * row cyrene-panel fills where the memory engine is held, read by
 * `/cyrene sync`, the settings page and `/cyrene doctor`.
 */
export class CyreneSeats extends Service {
  /** The SiYuan sync (siyuan/row.ts), for /cyrene sync and the doctor. */
  readonly siyuanSeat = new Seat<SiyuanRunner>()
  /** The background git sync (gitsync/row.ts), for /cyrene sync, the page and the doctor. */
  readonly gitSyncSeat = new Seat<GitSyncRunner>()
  /** The settings page's pairing code (CONTRACT#pairing), web profile only. */
  readonly pairingSeat = new Seat<PanelPairing>()

  constructor(ctx: Context) {
    super(ctx, 'cyreneSeats')
  }

  doctorState(): SeatsState {
    const pairing = this.pairingSeat.get()
    return {
      sync: this.siyuanSeat.get()?.state(),
      git: this.gitSyncSeat.get()?.state(),
      pairing: pairing === undefined ? undefined : { shown: pairing.shown, wrongGuesses: pairing.wrongGuesses },
    }
  }
}
