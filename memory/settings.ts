import { join } from 'node:path'
import { readTextOr } from './fsio.ts'
import type { MemoryStore } from './store.ts'
import { DEFAULT_LIMITS, RefusedError, type Limits } from './validate.ts'

export const ANCHOR_KEYS = ['self', 'user', 'origin', 'goal'] as const
export type AnchorKey = (typeof ANCHOR_KEYS)[number]
const DEFAULT_ANCHOR_LIMITS: Record<AnchorKey, number> = { self: 800, user: 600, goal: 600, origin: 400 }

export interface Settings {
  limits: Limits
  anchor: Record<AnchorKey, number>
  /** How she addresses the person (rail 120, `{{user_nickname}}`); unset = whale-persona's userName, then the row default. */
  nickname?: string
  /** The 道韵 level (rail 130) by name; unset or unknown = the first level of the styles file. */
  style?: string
}

export interface SettingsRead {
  settings: Settings
  problems: string[]
}

function positive(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined
}

/**
 * 元/settings.json (written by the panel or by hand). Invalid JSON or wrong
 * types never stop the store: defaults are used and the problem is reported.
 * Only the keys this module reads are interpreted; the file is never rewritten here.
 */
function parseSettings(text: string | undefined): SettingsRead {
  const problems: string[] = []
  const settings: Settings = { limits: { ...DEFAULT_LIMITS }, anchor: { ...DEFAULT_ANCHOR_LIMITS } }
  if (text === undefined || text.trim() === '') return { settings, problems }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    problems.push(`元/settings.json is not valid JSON (${(e as Error).message}); using defaults until it is fixed`)
    return { settings, problems }
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push('元/settings.json must hold a JSON object; using defaults')
    return { settings, problems }
  }
  const r = raw as Record<string, unknown>
  const anchor = r.anchor
  if (anchor !== undefined) {
    if (anchor === null || typeof anchor !== 'object') problems.push('元/settings.json "anchor" must be an object like {"self": 800}')
    else
      for (const k of ANCHOR_KEYS) {
        const v = (anchor as Record<string, unknown>)[k]
        if (v === undefined) continue
        const n = positive(v)
        if (n === undefined) problems.push(`元/settings.json anchor.${k} must be a positive number`)
        else settings.anchor[k] = n
      }
  }
  const quota = r.quota
  if (quota !== undefined && quota !== null && typeof quota === 'object') {
    const q = quota as Record<string, unknown>
    const map: Array<[keyof Limits, string, number]> = [
      ['totalBytes', 'totalMB', 1024 * 1024],
      ['marginBytes', 'marginMB', 1024 * 1024],
      ['entryChars', 'entryChars', 1],
      ['injectChars', 'injectChars', 1],
    ]
    for (const [key, name, scale] of map) {
      if (q[name] === undefined) continue
      const n = positive(q[name])
      if (n === undefined) problems.push(`元/settings.json quota.${name} must be a positive number`)
      else settings.limits[key] = n * scale
    }
  }
  readVoiceKeys(r, settings, problems)
  return { settings, problems }
}

// ── voice keys: nickname and style (rails 120 and 130) ──────────────────────

/** A nickname is at most 20 characters, so rail 120 stays within 64 with its frame. */
export const NICKNAME_MAX = 20
const STYLE_NAME_MAX = 20
/** The settings keys a person sets by name (`cyrene settings set`, `/cyrene nickname|style`). */
export const VOICE_SETTING_KEYS = ['nickname', 'style'] as const
export type VoiceSettingKey = (typeof VOICE_SETTING_KEYS)[number]

// C0/C1 controls, line and paragraph separators: a name is one line.
// eslint-disable-next-line no-control-regex
const NAME_BREAK_RE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

/** Why `value` cannot be stored under `key`, or undefined when it can (counted in code points). */
export function voiceSettingProblem(key: VoiceSettingKey, value: string): string | undefined {
  const max = key === 'nickname' ? NICKNAME_MAX : STYLE_NAME_MAX
  const chars = [...value].length
  if (value.trim() === '') return `${key} must not be empty`
  if (value !== value.trim()) return `${key} must not start or end with spaces`
  if (NAME_BREAK_RE.test(value)) return `${key} must be one line without control characters`
  if (chars > max) return `${key} is ${chars} characters; at most ${max}`
  return undefined
}

function readVoiceKeys(r: Record<string, unknown>, settings: Settings, problems: string[]): void {
  for (const key of VOICE_SETTING_KEYS) {
    const v = r[key]
    if (v === undefined || v === null) continue
    const problem = typeof v === 'string' ? voiceSettingProblem(key, v) : `${key} must be a string`
    if (problem !== undefined) problems.push(`元/settings.json ${problem}; ignored`)
    else settings[key] = v as string
  }
}

/**
 * Save one voice key (or remove it, `value` undefined) in 元/settings.json,
 * atomically and under the store's write lock, keeping every other key as it
 * is. A settings file that is not a JSON object is refused, never replaced: it
 * is the person's file, and they fix it first.
 */
export async function writeVoiceSetting(store: MemoryStore, key: VoiceSettingKey, value: string | undefined): Promise<void> {
  if (value !== undefined) {
    const problem = voiceSettingProblem(key, value)
    if (problem !== undefined) throw new RefusedError('bad-setting', `${problem}; nothing was changed`)
  }
  await store.withWriteLock(async (lock) => {
    const text = await readTextOr(store.root, join(store.root, '元', 'settings.json'), '')
    let raw: unknown = {}
    if (text.trim() !== '') {
      try {
        raw = JSON.parse(text)
      } catch (e) {
        throw new RefusedError('bad-settings-file', `元/settings.json is not valid JSON (${(e as Error).message}); fix or remove it first, nothing was changed`)
      }
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw new RefusedError('bad-settings-file', '元/settings.json does not hold a JSON object; fix or remove it first, nothing was changed')
    const next = { ...(raw as Record<string, unknown>) }
    if (value === undefined) delete next[key]
    else next[key] = value
    await store.writeMetaJson('settings.json', next, lock)
    if (value === undefined) delete store.settings[key]
    else store.settings[key] = value
  })
}

/** Sync parse for readers that run while DSH assembles a step (host/service.ts); the same rules as `readSettings`. */
export function parseSettingsText(text: string): SettingsRead {
  return parseSettings(text)
}

export async function readSettings(root: string): Promise<SettingsRead> {
  return parseSettings(await readTextOr(root, join(root, '元', 'settings.json'), ''))
}
