import { applySettingsPatch } from '../memory/person.ts'
import type { MemoryStore } from '../memory/index.ts'
import type { SyncReport } from '../siyuan/index.ts'

/**
 * The page words every answer in its own language (client/i18n.js), so the
 * routes answer with a `code` and the data the words need; `message` stays for
 * scripts and logs. The codes are the page's catalogue keys after `answer.`.
 */
export type AnswerCode =
  | 'backup-done'
  | 'backup-same-day'
  | 'sync-done'
  | 'sync-off'
  | 'sync-no-token'
  | 'sync-failed'
  | 'sync-unavailable'
  | 'git-done'
  | 'git-failed'
  | 'confirm-siyuan'
  | 'saved'
  | 'unchanged'
  | 'bad-setting'
  | 'settings-file-broken'
  | 'dream-session-switched'
  | 'engine-off'
  | 'dream-dreamt'
  | 'dream-busy'
  | 'dream-no-model'
  | 'dream-not-due'
  | 'dream-no-engine'
  | 'dream-no-service'

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}

function leaves(value: unknown, path: string[] = []): Array<[string[], unknown]> {
  if (!isObject(value) || Object.keys(value).length === 0) return [[path, value]]
  return Object.entries(value).flatMap(([k, v]) => leaves(v, [...path, k]))
}

function nest(path: string[], value: unknown): Record<string, unknown> {
  return path.reduceRight<Record<string, unknown>>((inner, key, i) => (i === path.length - 1 ? { [key]: value } : { [key]: inner }), {})
}

/**
 * Which keys of a refused patch are wrong, each checked alone against the same
 * schema (nothing is read or written): the page marks those fields. Empty when
 * no single key is wrong on its own (the file itself is broken).
 */
export function badSettingKeys(patch: unknown): string[] {
  if (!isObject(patch)) return []
  const bad: string[] = []
  for (const [path, value] of leaves(patch)) {
    if (path.length === 0) continue
    try {
      applySettingsPatch('', nest(path, value))
    } catch {
      bad.push(path.join('.'))
    }
  }
  return bad
}

/** A sync report with the code the page words it by; the reason of a refusal comes from the settings, not the English text. */
export function syncAnswer(report: SyncReport, store: MemoryStore | undefined, env: NodeJS.ProcessEnv): SyncReport & { code: AnswerCode } {
  if (report.ok) return { ...report, code: 'sync-done' }
  const siyuan = store?.settings.values.siyuan
  if (siyuan !== undefined && !siyuan.enabled) return { ...report, code: 'sync-off' }
  if (siyuan !== undefined && (env[siyuan.tokenEnv] ?? '') === '')
    return { ...report, code: 'sync-no-token', tokenEnv: siyuan.tokenEnv } as SyncReport & { code: AnswerCode }
  return { ...report, code: 'sync-failed', detail: report.message } as SyncReport & { code: AnswerCode }
}
