import { takeSnapshot, type MemoryStore } from '../../memory/index.ts'
import { badSettingKeys, syncAnswer } from './answers.ts'
import type { PanelDeps } from './deps.ts'
import { setDreamSession } from './dream-sessions.ts'
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
      change = await store.saveSettings(settings)
    } catch (error) {
      const keys = badSettingKeys(settings)
      throw new PanelError(400, (error as Error).message, keys.length > 0 ? 'bad-setting' : 'settings-file-broken', { keys })
    }
    const now = change.changed.filter((k) => !change.needRestart.includes(k))
    // A SiYuan setting just changed (turned on, another address): the next run need not wait for a write.
    if (deps.sync !== undefined && change.changed.some((k) => k.startsWith('siyuan.'))) void deps.sync.runNow().catch(() => undefined)
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
      if (deps.sync === undefined) return { ok: false, code: 'sync-unavailable', message: 'SiYuan sync is not running in this DSH process' }
      return { ...syncAnswer(await deps.sync.runNow(), deps.memory.store(), deps.env) }
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
