import { t, type Lang } from '../i18n/index.ts'
import type { GitSyncReport } from '../memory/git.ts'
import type { GitRunReport } from './runner.ts'

/**
 * A git sync's report in the person's language, from what memory/git-sync.ts
 * did (it words nothing itself); what git said about an unreachable remote
 * stays as git said it. A refusal without a report (git missing, a broken
 * repository) is its own message, inside the catalogue's sentence.
 */
export function gitReportText(report: GitRunReport, lang: Lang): string {
  if (!('written' in report)) {
    if ('noRemote' in report) return t('git.noRemoteSet', lang)
    if (report.callRunning !== undefined) return t('git.callRunning', lang, { s: Math.round(report.callRunning / 1000) })
    return t('git.error', lang, { error: report.message })
  }
  const commit = commitText(report, lang)
  if (report.remote === undefined) return t('git.noRemote', lang, { commit })
  if (report.failure !== undefined)
    return t(report.failure.what === 'fetch' ? 'git.unreachableFetch' : 'git.unreachablePush', lang, { commit, remote: report.remote, why: report.failure.why })
  return t('git.sent', lang, { commit, merge: mergeText(report, lang), remote: report.remote })
}

function commitText(r: GitSyncReport, lang: Lang): string {
  if (!r.committed) return t('git.nothingToCommit', lang)
  if (r.written.length === 0) return t('git.committedFiles', lang)
  return r.written.length === 1 ? t('git.committedOne', lang) : t('git.committedEntries', lang, { n: r.written.length })
}

function mergeText(r: GitSyncReport, lang: Lang): string {
  if (r.merge === 'none') return t('git.nothingNew', lang)
  const conflicts = r.newConflicts === 0 ? '' : t('git.conflicts', lang, { n: r.newConflicts })
  const files =
    r.edited
      .map((e) => JSON.stringify(e.path))
      .slice(0, 3)
      .join(', ') + (r.edited.length > 3 ? ', …' : '')
  const edited = r.edited.length === 0 ? '' : t('git.editedMeanwhile', lang, { n: r.edited.length, files })
  return t(r.merge === 'fast-forward' ? 'git.took' : 'git.merged', lang, { n: r.changed.length }) + conflicts + edited + quotaText(r, lang)
}

const mb = (bytes: number): string => (bytes / 1024 / 1024).toFixed(1)

function quotaText(r: GitSyncReport, lang: Lang): string {
  const q = r.overQuota
  if (q === undefined) return ''
  const largest = q.largest === undefined ? '' : t('git.overQuotaLargest', lang, { file: JSON.stringify(q.largest.path), size: mb(q.largest.bytes) })
  return t(q.which === 'total' ? 'git.overQuota' : 'git.overQuotaMargin', lang, { used: mb(q.used), limit: mb(q.limit) }) + largest
}
