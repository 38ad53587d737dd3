import type { EffectsState } from './guard-effects.ts'
import { gitRunLine } from './git-doctor.ts'
import type { GitSyncState } from './git-trigger.ts'
import { formatNumber, t, type Lang } from '../i18n/index.ts'
import { recallSilenceText } from '../i18n/recall.ts'
import { siyuanReportText } from './siyuan/report-text.ts'
import type { RecallSilence } from '../memory/recall-keeper.ts'
import type { DoctorLine } from './doctor-line.ts'
import type { SyncState } from './panel/deps.ts'
import type { MirrorNote, VoiceNote } from './service.ts'
import type { WorldbookNote } from './worldbook-doctor.ts'
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
  mirror: MirrorNote | undefined
  /** What the worldbook rail and its hits did in this DSH run (runtime/worldbook-rail.ts). */
  worldbook?: WorldbookNote | undefined
  /** The 4,000 pass on the latest Cyrene assembly (rails, memory, pre-step blocks). */
  voice?: VoiceNote | undefined
  /** The SiYuan sync's state, when it runs in this process (row cyrene-panel). */
  sync?: SyncState | undefined
  /** The background git sync's state, when it runs in this process (row cyrene-panel). */
  git?: GitSyncState | undefined
  /** The settings page's pairing code: where it was shown, and how often guesses replaced it (row cyrene-panel, web only). */
  pairing?: { shown: boolean; rotations: number } | undefined
}

export function hostServiceLines(state: HostServiceState, lang: Lang): DoctorLine[] {
  return [
    ...engineLines(state, lang),
    { area: 'memory', check: t('doctor.check.hostService', lang), status: 'ok', detail: t('doctor.service.up', lang, { at: state.startedAt.toISOString() }) },
    recallLine(state, lang),
    voiceLine(state.voice, lang),
    ...(state.voice?.problems ?? []).map((p): DoctorLine => ({ area: 'voice', check: t('doctor.check.voiceTexts', lang), status: 'warn', detail: p })),
    mirrorLine(state.mirror, lang),
    siyuanLine(state.sync, lang),
    gitRunLine(state.git, lang),
    ...pairingLines(state.pairing, lang),
  ]
}

/** One sentence on the 4,000 total: how much the latest step used, and each block the pass shortened or left out and why. */
function voiceLine(voice: VoiceNote | undefined, lang: Lang): DoctorLine {
  const check = t('doctor.check.voiceBudget', lang)
  if (voice === undefined) return { area: 'voice', check, status: 'missing', detail: t('doctor.voice.none', lang) }
  const cut = voice.blocks.filter((b) => b.why !== undefined)
  const shown = voice.blocks.filter((b) => b.chars > 0).map((b) => `${b.id} ${b.chars}`)
  const used = t('doctor.voice.used', lang, { total: voice.total, budget: voice.budget, blocks: shown.join(', ') || '—' })
  if (cut.length === 0)
    return {
      area: 'voice',
      check,
      status: 'ok',
      detail: `${used}${t('doctor.voice.nothingCut', lang)}`,
      summary: t('doctor.voice.summary', lang, { total: voice.total, budget: voice.budget }),
    }
  return {
    area: 'voice',
    check,
    status: 'warn',
    detail: `${used}${t('doctor.voice.cut', lang, { blocks: cut.map((b) => `${b.id} −${b.cut} (${b.why})`).join('; ') })}`,
  }
}

/** The SiYuan sync of this process (row cyrene-panel): off, waiting on SiYuan, or its last run. */
function siyuanLine(sync: SyncState | undefined, lang: Lang): DoctorLine {
  const check = t('doctor.check.siyuan', lang)
  const line = (status: DoctorLine['status'], detail: string): DoctorLine => ({ area: 'sync', check, status, detail, summary: detail })
  if (sync === undefined) return line('ok', t('doctor.sync.elsewhere', lang))
  if (!sync.enabled) return line('ok', t('doctor.sync.off', lang))
  const last = sync.lastReport
  if (last === undefined) return line('ok', t('doctor.sync.noRun', lang))
  const detail = `${sync.lastRunAt ?? ''} ${siyuanReportText(last, lang)}`.trim()
  return last.ok ? line('ok', detail) : { area: 'sync', check, status: 'warn', detail: t('doctor.sync.failed', lang, { detail }) }
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

/**
 * One sentence a person understands (「工具说明 13 段 / 4,869 字，全部带上」);
 * which sections, their sizes and what was left out go behind --verbose.
 */
function mirrorLine(mirror: MirrorNote | undefined, lang: Lang): DoctorLine {
  const check = t('doctor.check.mirror', lang)
  if (mirror === undefined) return { area: 'voice', check, status: 'missing', detail: t('doctor.mirror.none', lang) }
  const guidance = mirror.mirrored.filter((m) => m.kind === 'guidance')
  const others = mirror.mirrored.filter((m) => m.kind === 'other')
  const lost = mirror.skipped.filter((s) => s.why.includes('used up'))
  const lostGuidance = lost.filter((s) => /^(tool|plan|ui):/.test(s.name))
  const cutOthers = others.filter((m) => m.cut > 0)
  const sum = (ms: typeof guidance) => ms.reduce((n, m) => n + m.text, 0)
  const parts = [
    lostGuidance.length === 0
      ? t('doctor.mirror.guidanceAll', lang, { n: guidance.length, chars: sum(guidance) })
      : t('doctor.mirror.guidanceLost', lang, { n: guidance.length, chars: sum(guidance), lost: lostGuidance.length }),
  ]
  const lostOthers = lost.length - lostGuidance.length
  if (others.length > 0 || lostOthers > 0)
    parts.push(
      cutOthers.length + lostOthers === 0
        ? t('doctor.mirror.othersAll', lang, { n: others.length, chars: sum(others) })
        : t('doctor.mirror.othersCut', lang, { n: others.length, chars: sum(others), cut: cutOthers.length, lost: lostOthers }),
    )
  const more = [
    ...mirror.mirrored.map((m) =>
      t(m.kind === 'guidance' ? 'doctor.mirror.moreGuidance' : 'doctor.mirror.moreOther', lang, {
        name: m.name,
        chars: formatNumber(m.text),
        cut: m.cut > 0 ? t('doctor.mirror.moreCut', lang, { n: m.cut }) : '',
      }),
    ),
    ...mirror.skipped.map((s) => t('doctor.mirror.skipped', lang, { name: s.name, why: s.why })),
  ]
  return { area: 'voice', check, status: lost.length > 0 || cutOthers.length > 0 ? 'warn' : 'ok', detail: parts.join(t('doctor.sep', lang)), more }
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

/** Whether the person can pair the settings page (CONTRACT#pairing): the code is shown only in a terminal. */
function pairingLines(pairing: HostServiceState['pairing'], lang: Lang): DoctorLine[] {
  if (pairing === undefined) return []
  const check = t('doctor.check.pairing', lang)
  const guesses = pairing.rotations > 0 ? t('doctor.pairing.guessed', lang, { n: pairing.rotations }) : ''
  return [
    pairing.shown
      ? { area: 'memory', check, status: pairing.rotations > 0 ? 'warn' : 'ok', detail: t('doctor.pairing.shown', lang) + guesses }
      : { area: 'memory', check, status: 'warn', detail: t('doctor.pairing.hidden', lang) + guesses },
  ]
}
