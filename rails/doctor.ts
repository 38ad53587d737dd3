import { formatNumber, t, type Lang } from '../i18n/index.ts'
import type { DoctorLine } from '../doctor/index.ts'
import type { MirrorNote, RailsReport, VoiceNote } from './report.ts'

/**
 * The rails' lines of `/cyrene doctor` (area 声音): the 4,000 pass of the
 * latest step, the voice texts' problems, and the section mirror. Read from
 * the report the rails kept (rails/report.ts); the worldbook's note goes to
 * the worldbook's own lines (worldbook/doctor.ts).
 */
export function doctorLines(report: RailsReport, lang: Lang): DoctorLine[] {
  return [
    voiceLine(report.voice, lang),
    ...(report.voice?.problems ?? []).map((p): DoctorLine => ({ area: 'voice', check: t('doctor.check.voiceTexts', lang), status: 'warn', detail: p })),
    mirrorLine(report.mirror, lang),
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
