import { gitStatus, listConflicts, type MemoryStore } from '../memory/index.ts'
import type { DoctorLine } from './doctor.ts'
import type { GitSyncState } from './git-trigger.ts'

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`

/**
 * The git replication as the files show it (CONTRACT §14.6): the remote, the
 * history's size in .git/ (not counted by the quotas; warned past the store's
 * own quota), and every conflict waiting for the person.
 */
export async function gitLines(store: MemoryStore): Promise<DoctorLine[]> {
  const remote = store.settings.values.git.remote
  const { repo, gitBytes } = await gitStatus(store)
  const lines: DoctorLine[] = []
  if (!repo)
    lines.push({
      check: 'git sync',
      status: 'ok',
      detail: remote === '' ? 'off (cyrene sync git --remote URL, or git.remote in 元/settings.json)' : `remote ${remote}; no sync yet`,
    })
  else {
    const big = gitBytes > store.limits.totalBytes
    lines.push({
      check: 'git sync',
      status: big ? 'warn' : 'ok',
      detail:
        `${remote === '' ? 'no remote (commits stay here)' : `remote ${remote}`}; history ${mb(gitBytes)} in .git/ (not in the quota; git gc --auto after each sync)` +
        (big ? `, larger than the store's quota: \`cyrene sync git --gc\` packs it now` : ''),
    })
  }
  const { conflicts, problems } = await listConflicts(store)
  for (const c of conflicts)
    lines.push({
      check: 'sync conflict',
      status: 'warn',
      detail: `${c.file}${c.key === '' ? '' : ` (${c.key})`} changed on two machines: \`cyrene memory resolve ${c.kind === 'entry' ? c.key : c.id} --keep a|b${c.kind === 'file' ? '' : '|both'}\``,
    })
  for (const p of problems) lines.push({ check: 'sync conflict', status: 'fail', detail: p })
  return lines
}

/** This process's background git sync (row cyrene-panel): its last run. */
export function gitRunLine(state: GitSyncState | undefined): DoctorLine {
  if (state === undefined || state.remote === undefined)
    return { check: 'git sync (background)', status: 'ok', detail: 'not running in this process (no git.remote, or the engine is held elsewhere)' }
  const last = state.lastReport
  if (last === undefined) return { check: 'git sync (background)', status: 'ok', detail: `on (${state.remote}); no run yet` }
  return { check: 'git sync (background)', status: last.ok ? 'ok' : 'warn', detail: `${state.lastRunAt ?? ''} ${last.message}`.trim() }
}
