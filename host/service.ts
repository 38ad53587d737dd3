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

/** What the section mirror did on the latest Cyrene assembly. */
export interface MirrorNote {
  at: string
  mirrored: { name: string; chars: number; cut: number }[]
  skipped: { name: string; why: string }[]
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
  lastMirror: MirrorNote | undefined

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

  noteMirror(report: Omit<MirrorNote, 'at'>): void {
    this.lastMirror = { at: new Date().toISOString(), ...report }
  }

  doctor(): DoctorLine[] {
    const mirror = this.lastMirror
    return [
      { check: 'host service', status: 'ok', detail: `cyreneMemory up since ${this.startedAt.toISOString()}` },
      { check: 'memory engine', status: 'missing', detail: 'not wired into the host yet in this version: nothing is recalled or written' },
      mirror === undefined
        ? { check: 'section mirror', status: 'warn', detail: 'no Cyrene assembly seen yet' }
        : {
            check: 'section mirror',
            status: mirror.mirrored.some((m) => m.cut > 0) || mirror.skipped.some((s) => s.why.includes('budget')) ? 'warn' : 'ok',
            detail: `mirrored ${mirror.mirrored.map((m) => `${m.name} (${m.chars}${m.cut > 0 ? `, cut ${m.cut}` : ''})`).join(', ') || 'nothing'}; skipped ${mirror.skipped.map((s) => `${s.name} (${s.why})`).join(', ') || 'nothing'}`,
          },
    ]
  }
}
