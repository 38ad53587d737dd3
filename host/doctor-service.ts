import { doctorLines as gitRunLine } from '../gitsync/index.ts'
import { t, type Lang } from '../i18n/index.ts'
import { NEWEST_OF_A_DAY } from '../memory/index.ts'
import { doctorLines as siyuanDoctorLines } from '../siyuan/index.ts'
import { doctorLines as panelDoctorLines } from '../panel/index.ts'
import { doctorLines as recallLines, type RecallDoctorState } from '../recall/index.ts'
import type { DoctorLine } from '../doctor/index.ts'
import type { SeatsState } from './service-seat.ts'

/** The doctor's lines on what the running DSH's services report (chat only): engine, recall, voice, sync. */

/** The host service's state, as plain data: the service lives in DSH, its lines are written here. */
export interface HostServiceState {
  startedAt: Date
  engine:
    | { kind: 'starting' }
    | { kind: 'busy'; root: string; detail: string; holder?: { lock: string; pid: string } }
    | { kind: 'failed'; detail: string }
    | { kind: 'ready'; root: string; problems: readonly string[] }
  /** `{{cyrene_memory}}` at the latest assembly: its length, its budget, what was cut, a failed refresh. */
  memoryBlock: { chars: number; budget: number; cut: number; refreshError: string | undefined; newestOnly: string[] }
  /** Recall's index and its latest search (recall/running.ts). */
  recall: RecallDoctorState
}

/** `rails`: the rails' own lines (rails/doctor.ts), placed after recall as a person reads them; `seats`: what row cyrene-panel seated (host/service-seat.ts). */
export function hostServiceLines(state: HostServiceState, lang: Lang, rails: readonly DoctorLine[] = [], seats: SeatsState = {}): DoctorLine[] {
  return [
    ...engineLines(state, lang),
    { area: 'memory', check: t('doctor.check.hostService', lang), status: 'ok', detail: t('doctor.service.up', lang, { at: state.startedAt.toISOString() }) },
    ...recallLines(state.recall, lang),
    ...rails,
    ...siyuanDoctorLines(seats.sync, lang),
    gitRunLine(seats.git, lang),
    ...panelDoctorLines(seats.pairing, lang),
  ]
}

function engineLines({ engine, memoryBlock: block }: HostServiceState, lang: Lang): DoctorLine[] {
  const check = t('doctor.check.engine', lang)
  switch (engine.kind) {
    case 'starting':
      return [{ area: 'memory', check, status: 'warn', detail: t('doctor.engine.starting', lang) }]
    case 'busy':
      return [
        {
          area: 'memory',
          check,
          status: 'fail',
          detail: t('doctor.engine.busy', lang, {
            root: engine.root,
            detail: engine.holder === undefined ? engine.detail : t('doctor.engine.busy-holder', lang, engine.holder),
          }),
        },
      ]
    case 'failed':
      return [{ area: 'memory', check, status: 'fail', detail: t('doctor.engine.failed', lang, { detail: engine.detail }) }]
    case 'ready': {
      const blockCheck = '{{cyrene_memory}}'
      const newestOnly: DoctorLine[] =
        block.newestOnly.length === 0
          ? []
          : [
              {
                area: 'memory',
                check: blockCheck,
                status: 'ok',
                detail: t('doctor.block.newestOnly', lang, { days: block.newestOnly.join(', '), n: NEWEST_OF_A_DAY }),
              },
            ]
      return [
        { area: 'memory', check, status: 'ok', detail: t('doctor.engine.mine', lang, { root: engine.root }) },
        ...engine.problems.map((p): DoctorLine => ({ area: 'memory', check: t('doctor.check.store', lang), status: 'warn', detail: p })),
        block.refreshError !== undefined
          ? { area: 'memory', check: blockCheck, status: 'warn', detail: t('doctor.block.stale', lang, { error: block.refreshError }) }
          : block.cut > 0
            ? {
                area: 'memory',
                check: blockCheck,
                status: 'warn',
                detail: t('doctor.block.cut', lang, { chars: block.chars, budget: block.budget, cut: block.cut }),
              }
            : { area: 'memory', check: blockCheck, status: 'ok', detail: t('doctor.block.ok', lang, { chars: block.chars, budget: block.budget }) },
        ...newestOnly,
      ]
    }
  }
}
