import type { EffectsState } from './guard-effects.ts'
import { gitRunLine } from './git-doctor.ts'
import type { GitSyncState } from './git-trigger.ts'
import { t, type Lang } from '../i18n/index.ts'
import { recallSilenceText } from '../i18n/recall.ts'
import { doctorLines as siyuanDoctorLines, type SyncState } from '../siyuan/index.ts'
import { doctorLines as panelDoctorLines } from '../panel/index.ts'
import type { RecallSilence } from '../memory/recall-keeper.ts'
import type { DoctorLine } from './doctor-line.ts'
import type { DreamState } from './night/service.ts'

/** The doctor's lines on what the running DSH's services report (chat only): engine, recall, voice, sync, night, guard. */

/** The host service's state, as plain data: the service lives in DSH, its lines are written here. */
export interface HostServiceState {
  startedAt: Date
  engine:
    | { kind: 'starting' }
    | { kind: 'busy'; root: string; detail: string }
    | { kind: 'failed'; detail: string }
    | { kind: 'ready'; root: string; problems: readonly string[] }
  /** `{{cyrene_memory}}` at the latest assembly: its length, its budget, what was cut, a failed refresh. */
  memoryBlock: { chars: number; budget: number; cut: number; refreshError: string | undefined }
  recall:
    | { kind: 'off' }
    | { kind: 'building' }
    | { kind: 'failed'; detail: string }
    | {
        kind: 'ready'
        /** What the index holds by kind: `entries` is the store's count of entries. */
        counts: { entries: number; anchors: number; dreams: number; rollups: number }
        /** Where the index runs: its own worker thread, or DSH's thread when a worker could not start. */
        where?: 'worker' | 'in-process'
        /** Why the file watcher cannot be trusted (each step then looks at every file), when it cannot. */
        watch?: string
      }
  /** The last recall problem (a failed refresh or search). */
  recallError: string | undefined
  /** Why the latest turn's recall found nothing, when it found nothing. */
  recallSilence?: RecallSilence | undefined
  /** The SiYuan sync's state, when it runs in this process (row cyrene-panel). */
  sync?: SyncState | undefined
  /** The background git sync's state, when it runs in this process (row cyrene-panel). */
  git?: GitSyncState | undefined
  /** The settings page's pairing code: where it was shown, and how often guesses replaced it (row cyrene-panel, web only). */
  pairing?: { shown: boolean; rotations: number } | undefined
}

/** `rails`: the rails' own lines (rails/doctor.ts), placed after recall as a person reads them. */
export function hostServiceLines(state: HostServiceState, lang: Lang, rails: readonly DoctorLine[] = []): DoctorLine[] {
  return [
    ...engineLines(state, lang),
    { area: 'memory', check: t('doctor.check.hostService', lang), status: 'ok', detail: t('doctor.service.up', lang, { at: state.startedAt.toISOString() }) },
    recallLine(state, lang),
    ...rails,
    ...siyuanDoctorLines(state.sync, lang),
    gitRunLine(state.git, lang),
    ...panelDoctorLines(state.pairing, lang),
  ]
}

function engineLines({ engine, memoryBlock: block }: HostServiceState, lang: Lang): DoctorLine[] {
  const check = t('doctor.check.engine', lang)
  switch (engine.kind) {
    case 'starting':
      return [{ area: 'memory', check, status: 'warn', detail: t('doctor.engine.starting', lang) }]
    case 'busy':
      return [{ area: 'memory', check, status: 'fail', detail: t('doctor.engine.busy', lang, { root: engine.root, detail: engine.detail }) }]
    case 'failed':
      return [{ area: 'memory', check, status: 'fail', detail: t('doctor.engine.failed', lang, { detail: engine.detail }) }]
    case 'ready': {
      const blockCheck = '{{cyrene_memory}}'
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
      ]
    }
  }
}

function recallLine({ recall, recallError, recallSilence }: HostServiceState, lang: Lang): DoctorLine {
  const check = t('doctor.check.recall', lang)
  if (recallError !== undefined) return { area: 'recall', check, status: 'warn', detail: t('doctor.recall.searchFailed', lang, { error: recallError }) }
  switch (recall.kind) {
    case 'off':
      return { area: 'recall', check, status: 'missing', detail: t('doctor.recall.off', lang) }
    case 'building':
      return { area: 'recall', check, status: 'warn', detail: t('doctor.recall.building', lang) }
    case 'failed':
      return { area: 'recall', check, status: 'fail', detail: t('doctor.recall.failed', lang, { error: recall.detail }) }
    case 'ready': {
      const silent = recallSilence === undefined ? '' : t('doctor.recall.silent', lang, { why: recallSilenceText(recallSilence, lang) })
      const c = recall.counts
      const counts = { n: c.entries, anchors: c.anchors, dreams: c.dreams, rollups: c.rollups }
      const detail = t(recall.where === 'in-process' ? 'doctor.recall.readyInProcess' : 'doctor.recall.ready', lang, counts) + silent
      const summary = t('doctor.recall.summary', lang, { n: c.entries })
      if (recall.watch !== undefined) return { area: 'recall', check, status: 'warn', detail: t('doctor.recall.watch', lang, { detail, watch: recall.watch }) }
      return recall.where === 'in-process' ? { area: 'recall', check, status: 'warn', detail } : { area: 'recall', check, status: 'ok', detail, summary }
    }
  }
}

/** What the running night service reports (timers, last outcome, snapshot errors). */
export function dreamServiceLines(state: DreamState | undefined, lang: Lang): DoctorLine[] {
  const check = t('doctor.check.night', lang)
  if (state === undefined) return [{ area: 'dream', check, status: 'warn', detail: t('doctor.night.notMounted', lang) }]
  const lines: DoctorLine[] = [
    state.enabled
      ? {
          area: 'dream',
          check,
          status: 'ok',
          detail: t('doctor.night.on', lang, { at: state.at, next: state.nextWakeAt ?? '—', tasks: state.tasks.length === 0 ? '—' : state.tasks.join(', ') }),
        }
      : { area: 'dream', check, status: 'ok', detail: t('doctor.night.off', lang) },
  ]
  if (state.lastOutcome !== undefined) lines.push({ area: 'dream', check, status: 'ok', detail: t('doctor.night.last', lang, { outcome: state.lastOutcome }) })
  if (state.lastError !== undefined) lines.push({ area: 'dream', check, status: 'warn', detail: t('doctor.night.lastError', lang, { error: state.lastError }) })
  if (state.registryProblem !== undefined) lines.push({ area: 'dream', check: t('doctor.check.registry', lang), status: 'warn', detail: state.registryProblem })
  if (state.snapshotError !== undefined)
    lines.push({
      area: 'backup',
      check: t('doctor.check.snapshots', lang),
      status: 'warn',
      detail: t('doctor.snapshots.dailyFailed', lang, { error: state.snapshotError }),
    })
  return lines
}

/** The store guard as plain data (host/store-guard.ts). */
export type StoreGuardState =
  | { kind: 'off'; detail: string }
  | {
      kind: 'on'
      root: string
      refusals: number
      last: { at: string; tool: string; target: string } | undefined
      checkErrors: number
      /** The effects check (host/guard-effects.ts): what tool calls changed and the host put back. */
      effects?: EffectsState | undefined
    }

/** One line: whether the model's generic tools leave the store as it was, what was put back, and how often calls were refused. */
export function guardLine(state: StoreGuardState | undefined, lang: Lang): DoctorLine {
  const check = t('doctor.check.guard', lang)
  if (state === undefined) return { area: 'guard', check, status: 'warn', detail: t('doctor.guard.notMounted', lang) }
  if (state.kind === 'off') return { area: 'guard', check, status: 'warn', detail: t('doctor.guard.off', lang, { detail: state.detail }) }
  const last = state.last === undefined ? '' : t('doctor.guard.last', lang, { tool: state.last.tool, target: state.last.target, at: state.last.at })
  const errors = state.checkErrors > 0 ? t('doctor.guard.checkErrors', lang, { n: state.checkErrors }) : ''
  const fx = state.effects
  if (fx === undefined || fx.kind !== 'on')
    return {
      area: 'guard',
      check,
      status: 'warn',
      detail: t('doctor.guard.effectsOff', lang, { detail: fx?.detail ?? t('doctor.guard.notStarted', lang), n: state.refusals }) + last,
    }
  const undone =
    fx.undone === 0
      ? t('doctor.guard.nothingUndone', lang)
      : t('doctor.guard.undone', lang, { n: fx.undone, tool: fx.last?.tool ?? '?', what: fx.last?.what ?? '?', at: fx.last?.at ?? '?' })
  const failed = fx.failed > 0 ? t('doctor.guard.failed', lang, { n: fx.failed }) : ''
  const looked = fx.errors > 0 ? t('doctor.guard.lookErrors', lang, { n: fx.errors }) : ''
  const kept = fx.kept === undefined ? '' : t('doctor.guard.kept', lang, { paths: fx.kept.paths, kib: Math.round(fx.kept.bytes / 1024), ms: fx.buildMs ?? 0 })
  const bg = fx.background > 0 ? t('doctor.guard.background', lang, { n: fx.background }) : ''
  const procs = fx.detail === undefined ? '' : `${t('doctor.sep', lang)}${fx.detail}`
  return {
    area: 'guard',
    check,
    status: state.checkErrors > 0 || fx.failed > 0 || fx.errors > 0 ? 'warn' : 'ok',
    detail:
      t('doctor.guard.on', lang, { root: state.root, undone, adopted: fx.adopted, n: state.refusals }) +
      `${last}${errors}${failed}${looked}${kept}${bg}${procs}`,
    summary: t('doctor.guard.summary', lang, { n: state.refusals, undone: fx.undone }),
  }
}
