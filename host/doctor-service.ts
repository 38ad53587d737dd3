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

/** The doctor's lines on what the running DSH's services report (chat only): engine, recall, voice, sync. */

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

/** Whether the person can pair the settings page (CONTRACT §2.5): the code is shown only in a terminal. */
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
