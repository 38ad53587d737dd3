import { t, type Lang } from '../i18n/index.ts'
import type { DoctorLine } from '../doctor/index.ts'
import { siyuanReportText } from './report-text.ts'
import type { SyncState } from './types.ts'

/** The SiYuan sync of this process (row cyrene-panel): off, waiting on SiYuan, or its last run. */
export function doctorLines(sync: SyncState | undefined, lang: Lang): DoctorLine[] {
  const aside = sync?.keptAside
  const asideLine: DoctorLine[] =
    aside === undefined ? [] : [{ area: 'sync', check: t('doctor.check.siyuan', lang), status: 'warn', detail: t('doctor.sync.aside', lang, aside) }]
  return [siyuanLine(sync, lang), ...asideLine]
}

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
