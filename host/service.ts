import { Service, type Context } from '@deepseek-ai/cordis'

declare module '@deepseek-ai/cordis' {
  interface Context {
    cyreneMemory: CyreneMemory
  }
}

/** One line of `/cyrene doctor`: what was checked, how it stands, what to do. */
export interface DoctorLine {
  check: string
  status: 'ok' | 'warn' | 'fail' | 'missing'
  detail: string
}

export interface MemoryBlock {
  text: string
  /** Characters dropped to stay within the budget, for the doctor. */
  cut: number
}

/**
 * The host-plane service every Cyrene preset row reads through `ctx.get`.
 * STUB (foundation issue): it answers with an empty memory and reports that
 * the memory engine is not wired yet; the memory-engine issue fills it in.
 */
export class CyreneMemory extends Service {
  readonly startedAt = new Date()

  constructor(ctx: Context) {
    super(ctx, 'cyreneMemory')
  }

  /** The value of `{{cyrene_memory}}` for one assembly; never throws. */
  memoryBlock(): MemoryBlock {
    return { text: '', cut: 0 }
  }

  /** The nickname the person asked to be called, if any. */
  nickname(): string | undefined {
    return undefined
  }

  doctor(): DoctorLine[] {
    return [
      { check: 'host service', status: 'ok', detail: `cyreneMemory up since ${this.startedAt.toISOString()}` },
      { check: 'memory engine', status: 'missing', detail: 'not wired into the host yet in this version: nothing is recalled or written' },
    ]
  }
}
