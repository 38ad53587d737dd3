import { t, type Lang } from '../i18n/index.ts'
import type { DoctorLine } from '../doctor/index.ts'
import type { StoreGuardState } from './types.ts'
import { LARGE, putBackDirOf, putBackUsage } from './aside.ts'
import { frozenUnder } from './frozen.ts'

/** The guard's doctor lines (area `guard`): one line, or a warning when the guard is not mounted (`state` undefined). */
export function doctorLines(state: StoreGuardState | undefined, lang: Lang): DoctorLine[] {
  return [guardLine(state, lang)]
}

/** One line: whether the model's generic tools leave the store as it was, what was put back, and how often calls were refused. */
function guardLine(state: StoreGuardState | undefined, lang: Lang): DoctorLine {
  const check = t('doctor.check.guard', lang)
  if (state === undefined) return { area: 'guard', check, status: 'warn', detail: t('doctor.guard.notMounted', lang) }
  if (state.kind === 'off') return { area: 'guard', check, status: 'warn', detail: t('doctor.guard.off', lang, { detail: state.detail }) }
  const last = state.last === undefined ? '' : t('doctor.guard.last', lang, { tool: state.last.tool, target: state.last.target, at: state.last.at })
  const errors = state.checkErrors > 0 ? t('doctor.guard.checkErrors', lang, { n: state.checkErrors }) : ''
  const inspector = (state.inspectorRefusals ?? 0) > 0 ? t('doctor.guard.inspector', lang, { n: state.inspectorRefusals ?? 0 }) : ''
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
  const owed = (fx.owed ?? 0) > 0 ? t('doctor.guard.owed', lang, { n: fx.owed ?? 0 }) : ''
  const aside = (fx.asideSkipped ?? 0) > 0 ? t('doctor.guard.aside', lang, { n: fx.asideSkipped ?? 0 }) : ''
  const looked = fx.errors > 0 ? t('doctor.guard.lookErrors', lang, { n: fx.errors }) : ''
  const kept = fx.kept === undefined ? '' : t('doctor.guard.kept', lang, { paths: fx.kept.paths, kib: Math.round(fx.kept.bytes / 1024), ms: fx.buildMs ?? 0 })
  const bg = fx.background > 0 ? t('doctor.guard.background', lang, { n: fx.background }) : ''
  const procs = fx.detail === undefined ? '' : `${t('doctor.sep', lang)}${fx.detail}`
  return {
    area: 'guard',
    check,
    status: state.checkErrors > 0 || (state.inspectorRefusals ?? 0) > 0 || fx.failed > 0 || fx.errors > 0 ? 'warn' : 'ok',
    detail:
      t('doctor.guard.on', lang, { root: state.root, undone, adopted: fx.adopted, n: state.refusals }) +
      `${last}${errors}${inspector}${failed}${owed}${aside}${looked}${kept}${bg}${procs}`,
    summary: t('doctor.guard.summary', lang, { n: state.refusals, undone: fx.undone }),
  }
}

/** What the guard kept aside before putting it back (decision 296), read from the disk: a line while anything is kept. */
export function putBackLine(root: string, lang: Lang): DoctorLine | undefined {
  const dir = putBackDirOf(root)
  const { looks, bytes } = putBackUsage(dir)
  if (looks === 0) return undefined
  const full = bytes >= LARGE ? t('doctor.putBack.large', lang, { limit: LARGE / 1024 / 1024 }) : ''
  return {
    area: 'guard',
    check: t('doctor.check.putBack', lang),
    status: 'warn',
    detail: t('doctor.putBack.kept', lang, { looks, dir, kib: Math.ceil(bytes / 1024) }) + full,
  }
}

/** Files of the store a call running as root made immutable or append-only: writes to them are refused until the flag is cleared. */
export function frozenLine(root: string, lang: Lang): DoctorLine | undefined {
  const frozen = frozenUnder(root)
  if (frozen.length === 0) return undefined
  const shown = frozen
    .slice(0, 3)
    .map((p) => `'${p}'`)
    .join(' ')
  return {
    area: 'memory',
    check: t('doctor.check.frozen', lang),
    status: 'warn',
    detail: t('doctor.frozen.found', lang, { n: frozen.length, paths: shown, more: frozen.length > 3 ? '…' : '' }),
  }
}
