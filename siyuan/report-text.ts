import { t, tKey, type Lang, type MessageKey } from '../i18n/index.ts'
import type { SyncReport } from './types.ts'

/**
 * A SiYuan sync report in the person's language. What SiYuan itself said (a
 * refused file, the kernel's error) stays as SiYuan said it; a report without
 * a code (a ledger written by an older version) is shown as it was written.
 */
export function siyuanReportText(report: SyncReport, lang: Lang): string {
  const aside = report.keptAside === undefined ? '' : t('siyuan.ledgerAside', lang, { file: report.keptAside })
  return saidText(report, lang) + aside
}

function saidText(report: SyncReport, lang: Lang): string {
  const said = report.said
  if (said === undefined) return report.message
  switch (said.code) {
    case 'stopped':
      return t('siyuan.stopped', lang)
    case 'off':
      return t('siyuan.off', lang)
    case 'no-token':
      return t('siyuan.noToken', lang, { tokenEnv: said.tokenEnv })
    case 'waiting':
      return t(said.retryable ? 'siyuan.waitRetry' : 'siyuan.waitNextRun', lang, {
        error: said.errorSaid === undefined ? said.error : tKey(`siyuan.error.${said.errorSaid.code}` as MessageKey, lang, said.errorSaid.params),
        n: report.queued ?? 0,
      })
    case 'done': {
      const counts = { sent: report.sent ?? 0, removed: report.removed ?? 0, unchanged: report.unchanged ?? 0, notebook: said.notebook }
      const recreated = (report.recreated ?? 0) > 0 ? t('siyuan.recreated', lang, { n: report.recreated ?? 0 }) : ''
      const refused =
        (report.failed ?? 0) > 0
          ? t('siyuan.refused', lang, { n: report.failed ?? 0, problems: (report.problems ?? []).join(lang === 'zh' ? '；' : '; ') })
          : ''
      return t('siyuan.done', lang, counts) + recreated + refused
    }
  }
}
