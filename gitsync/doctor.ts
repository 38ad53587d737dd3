import { t, type Lang } from '../i18n/index.ts'
import { currentRemote, gitStatus, listConflicts } from '../memory/git.ts'
import type { MemoryStore } from '../memory/index.ts'
import type { DoctorLine } from '../doctor/index.ts'
import type { GitSyncState } from './runner.ts'
import { gitReportText } from './report-text.ts'

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/**
 * The git replication as the files show it (CONTRACT#git-history): the remote, the
 * history's size in .git/ (not counted by the quotas; warned past the store's
 * own quota), and every conflict waiting for the person.
 */
export async function gitLines(store: MemoryStore, lang: Lang): Promise<DoctorLine[]> {
  // Read again: the CLI may have set the remote since this process opened the store.
  const remote = (await currentRemote(store).catch(() => undefined)) ?? store.settings.values.git.remote
  const { repo, gitBytes, unsent } = await gitStatus(store)
  const check = t('doctor.check.git', lang)
  const lines: DoctorLine[] = []
  if (!repo) lines.push({ area: 'sync', check, status: 'ok', detail: remote === '' ? t('doctor.git.off', lang) : t('doctor.git.noSyncYet', lang, { remote }) })
  else {
    const big = gitBytes > store.limits.totalBytes
    // Commits the remote has not taken: the last sync did not reach it (they go at the next one).
    const behind = remote !== '' && unsent !== undefined && unsent > 0
    const where = remote === '' ? t('doctor.git.noRemote', lang) : t('doctor.git.remote', lang, { remote })
    lines.push({
      area: 'sync',
      check,
      status: big || behind ? 'warn' : 'ok',
      detail:
        t('doctor.git.history', lang, { where, size: mb(gitBytes) }) +
        (big ? t('doctor.git.tooBig', lang) : '') +
        (behind ? t('doctor.git.unsent', lang, { n: unsent }) : ''),
    })
  }
  const { conflicts, problems } = await listConflicts(store)
  const conflictCheck = t('doctor.check.gitConflict', lang)
  for (const c of conflicts)
    lines.push({
      area: 'sync',
      check: conflictCheck,
      status: 'warn',
      detail: t('doctor.git.conflict', lang, {
        file: `${c.file}${c.key === '' ? '' : ` (${c.key})`}`,
        command: `cyrene memory resolve ${c.kind === 'entry' ? c.key : c.id} --keep a|b${c.kind === 'file' ? '' : '|both'}`,
      }),
    })
  for (const p of problems) lines.push({ area: 'sync', check: conflictCheck, status: 'fail', detail: p })
  return lines
}

/** This process's background git sync (row cyrene-panel): its last run; `state` undefined where it does not run. */
export function doctorLines(state: GitSyncState | undefined, lang: Lang): DoctorLine {
  const check = t('doctor.check.gitBackground', lang)
  if (state === undefined || state.remote === undefined) return { area: 'sync', check, status: 'ok', detail: t('doctor.git.notHere', lang) }
  const last = state.lastReport
  if (last === undefined) return { area: 'sync', check, status: 'ok', detail: t('doctor.git.noRunYet', lang, { remote: state.remote }) }
  return { area: 'sync', check, status: last.ok ? 'ok' : 'warn', detail: `${state.lastRunAt ?? ''} ${gitReportText(last, lang)}`.trim() }
}
