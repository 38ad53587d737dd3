import { errorText } from '../i18n/store-said.ts'
import { RefusedError } from '../memory/format.ts'
import { takeSnapshot } from '../memory/upkeep.ts'
import type { MemoryStore } from '../memory/index.ts'
import { badSettingKeys, syncAnswer } from './answers.ts'
import type { PanelDeps } from './deps.ts'
import { setDreamSession } from '../night/index.ts'
import { PanelError } from './http.ts'

const ACTIONS = ['sync', 'backup', 'dream', 'save-config'] as const
type PanelAction = (typeof ACTIONS)[number]

export interface ActionAnswer {
  ok: boolean
  message: string
  [more: string]: unknown
}

function storeOf(deps: PanelDeps): MemoryStore {
  const store = deps.memory.store()
  if (store === undefined) throw new PanelError(409, 'the memory engine is not running in this DSH process; see /cyrene doctor', 'engine-off')
  return store
}

/**
 * `save-config`: `settings` (a patch of 元/settings.json keys) and/or
 * `dreamSession` ({sessionId, enabled}). All is checked before anything is
 * written; the answer says what applies now and what waits for a restart.
 */
async function saveConfig(deps: PanelDeps, body: Record<string, unknown>): Promise<ActionAnswer> {
  const store = storeOf(deps)
  const { settings, dreamSession } = body
  if (settings === undefined && dreamSession === undefined) throw new PanelError(400, 'save-config needs "settings" or "dreamSession"')
  let switched: { sessionId: string; enabled: boolean } | undefined
  if (dreamSession !== undefined) {
    const d = dreamSession as Record<string, unknown> | null
    if (d === null || typeof d !== 'object' || typeof d.sessionId !== 'string' || typeof d.enabled !== 'boolean')
      throw new PanelError(400, 'dreamSession must be {"sessionId": "…", "enabled": true|false}')
    switched = { sessionId: d.sessionId, enabled: d.enabled }
  }
  const answer: ActionAnswer = { ok: true, message: '' }
  const said: string[] = []
  if (settings !== undefined) {
    let change
    try {
      await confirmSiyuan(store, settings, body.confirm)
      change = await store.saveSettings(settings, { from: 'panel' })
    } catch (error) {
      if (error instanceof PanelError) throw error
      const keys = badSettingKeys(settings)
      // The page shows why in its own language: the store's refusal worded in each (decision 083).
      const words = { zh: errorText(error, 'zh'), en: errorText(error, 'en') }
      const broken = error instanceof RefusedError && error.params.variant === 'file'
      throw new PanelError(400, (error as Error).message, keys.length > 0 ? 'bad-setting' : broken ? 'settings-file-broken' : undefined, { keys, words })
    }
    const now = change.changed.filter((k) => !change.needRestart.includes(k))
    // A SiYuan setting just changed (turned on, another address): the next run need not wait for a write.
    if (deps.sync !== undefined && change.changed.some((k) => k.startsWith('siyuan.'))) void deps.sync.runNow().catch(() => undefined)
    if (deps.gitSync !== undefined && change.changed.includes('git.remote')) void deps.gitSync.runNow().catch(() => undefined)
    answer.changed = change.changed
    answer.appliedNow = now
    answer.needRestart = change.needRestart
    answer.code = change.changed.length === 0 ? 'unchanged' : 'saved'
    said.push(
      change.changed.length === 0
        ? 'nothing changed'
        : [
            now.length > 0 ? `saved; in effect now: ${now.join(', ')}` : 'saved',
            change.needRestart.length > 0 ? `after a DSH restart: ${change.needRestart.join(', ')}` : '',
          ]
            .filter(Boolean)
            .join('; '),
    )
  }
  if (switched !== undefined) {
    try {
      await setDreamSession(store, switched.sessionId, switched.enabled)
    } catch (error) {
      throw new PanelError(400, (error as Error).message)
    }
    said.push(`nightly dream ${switched.enabled ? 'on' : 'off'} for that session`)
    if (settings === undefined) Object.assign(answer, { code: 'dream-session-switched', sessionId: switched.sessionId, enabled: switched.enabled })
  }
  answer.message = said.join('; ')
  return answer
}

/** A save that would send the memory somewhere new: SiYuan turned on, another address, another token variable. */
const SIYUAN_SENDING = ['siyuan.url', 'siyuan.tokenEnv', 'siyuan.notebook']

/**
 * Sending the memory to SiYuan changes where the person's words go, so the
 * page asks the person a second time (`confirm: "siyuan"` with the same
 * settings); without it the answer is 409 with the question to ask.
 */
async function confirmSiyuan(store: MemoryStore, settings: unknown, confirm: unknown): Promise<void> {
  const preview = await store.previewSettings(settings, { from: 'panel' })
  const turnsOn = preview.changed.includes('siyuan.enabled') && preview.values.siyuan.enabled
  const moves = preview.values.siyuan.enabled && preview.changed.some((k) => SIYUAN_SENDING.includes(k))
  if ((!turnsOn && !moves) || confirm === 'siyuan') return
  const { url, notebook, tokenEnv } = preview.values.siyuan
  throw new PanelError(
    409,
    `这会把你的记忆发送到思源 ${url}（笔记本「${notebook}」，令牌取自环境变量 ${tokenEnv}）。确定吗？ / This sends your memory to SiYuan at ${url} (notebook "${notebook}", token from the variable ${tokenEnv}). Go ahead?`,
    'confirm-siyuan',
    { confirm: 'siyuan' },
  )
}

export async function runAction(deps: PanelDeps, body: Record<string, unknown>): Promise<ActionAnswer> {
  const action = body.action
  if (typeof action !== 'string' || !(ACTIONS as readonly string[]).includes(action))
    throw new PanelError(400, `unknown action; use one of ${ACTIONS.join(', ')}`)
  switch (action as PanelAction) {
    case 'backup': {
      const info = await takeSnapshot(storeOf(deps), 'manual')
      // files -1: today's snapshot of this kind already exists and was kept.
      return {
        ok: true,
        code: info.files < 0 ? 'backup-same-day' : 'backup-done',
        message: `snapshot ${info.name} (${info.files} files)`,
        snapshot: info.name,
        files: info.files,
      }
    }
    case 'sync': {
      // With git.remote set, Sync now is the git sync too (CONTRACT#git-sync); SiYuan's answer keeps its fields and code.
      const git = deps.gitSync !== undefined && (await deps.gitSync.remote()) !== undefined ? await deps.gitSync.runNow() : undefined
      const siyuanOff = deps.memory.store()?.settings.values.siyuan.enabled === false
      const gitPart = git === undefined ? {} : { git: { ok: git.ok, message: git.message } }
      if (deps.sync === undefined || (git !== undefined && siyuanOff)) {
        if (git === undefined) return { ok: false, code: 'sync-unavailable', message: 'SiYuan sync is not running in this DSH process' }
        return { ok: git.ok, code: git.ok ? 'git-done' : 'git-failed', message: `git: ${git.message}`, ...gitPart }
      }
      const siyuan = syncAnswer(await deps.sync.runNow(), deps.memory.store(), deps.env)
      if (git === undefined) return { ...siyuan }
      return { ...siyuan, ok: siyuan.ok && git.ok, message: `git: ${git.message}; SiYuan: ${siyuan.message}`, ...gitPart }
    }
    case 'dream': {
      if (deps.dreamNow === undefined)
        return { ok: false, code: 'dream-no-service', message: 'dreaming now is not available in this build; the nightly dream runs in its sessions' }
      return await deps.dreamNow()
    }
    case 'save-config':
      return await saveConfig(deps, body)
  }
}
