import { join } from 'node:path'
import Schema from '@deepseek-ai/schemastery'
import { inspectBelow, readTextOr, readUtf8Or } from './fsio.ts'
import type { Said } from './said.ts'
import type { StoreCore } from './store-core.ts'
import { DEFAULT_LIMITS, RefusedError, type Limits } from './validate.ts'

export const ANCHOR_KEYS = ['self', 'user', 'origin', 'goal'] as const
export type AnchorKey = (typeof ANCHOR_KEYS)[number]

/** Where the person's layer lives, relative to the store root. */
export const SETTINGS_REL = '元/settings.json'

const MB = 1024 * 1024

/**
 * The night's two settings, one rule each wherever they are set: here (元/settings.json, the
 * page) and on the host row's `dream` (night/config.ts `at`, `maxScheduledSessions`). A time of
 * day `H:MM` or `HH:MM` (what the night's clock reads); 1 to 64 sessions with a nightly task.
 * docs/decisions/102.
 */
export const NIGHT_TIME = Schema.string()
  .pattern(/^([01]?\d|2[0-3]):[0-5]\d$/)
  .default('23:30')
export const MAX_SCHEDULED_SESSIONS = Schema.natural().min(1).max(64).default(8)

/**
 * The one schema of every setting Cyrene reads, whatever layer it comes from
 * (defaults ← the loader row's config ← 元/settings.json). Secrets are not
 * here on purpose: the SiYuan token is read from the environment variable
 * `siyuan.tokenEnv` names, so it can never be written into the file or sent to the panel.
 */
export const SettingsSchema = Schema.object({
  // Empty = unset; a set value must also pass voiceSettingProblem (one line, trimmed, ≤ 20 code points).
  nickname: Schema.string()
    .default('')
    .description('how she addresses the person (rail 120, {{user_nickname}}); empty = whale-persona userName, then the row default'),
  style: Schema.string().default('').description('the 道韵 level (rail 130) by name; empty or unknown = the first level of the styles file'),
  form: Schema.union(['chat', 'work']).default('chat').description('the preset a new session opens with'),
  dream: Schema.object({
    time: NIGHT_TIME.description('local time of the nightly dream, HH:MM'),
    maxScheduledSessions: MAX_SCHEDULED_SESSIONS.description('at most this many sessions get a nightly dream'),
  }),
  siyuan: Schema.object({
    enabled: Schema.boolean().default(false).description('send the store to SiYuan'),
    url: Schema.string()
      .pattern(/^https?:\/\/[^\s/]+(:\d+)?\/?$/)
      .default('http://127.0.0.1:6806')
      .description('SiYuan kernel address'),
    notebook: Schema.string().min(1).max(80).default('昔涟').description('name of the SiYuan notebook the store is mirrored into'),
    tokenEnv: Schema.string()
      .pattern(/^[A-Z_][A-Z0-9_]*$/)
      .default('SIYUAN_API_TOKEN')
      .description('environment variable holding the SiYuan API token; only a name tokenEnvAllow allows'),
    // The person's own (元/settings.json by hand, the row config): the panel refuses it (CONTRACT#settings).
    tokenEnvAllow: Schema.array(Schema.string().pattern(/^[A-Z_][A-Z0-9_]*\*?$/))
      .default(['SIYUAN_*'])
      .description('names tokenEnv may take; NAME exactly, or PREFIX* for every name starting with PREFIX'),
  }),
  git: Schema.object({
    // Checked again by the sync (memory/git-repo.ts remoteProblem): never an address with credentials in it.
    remote: Schema.string()
      .pattern(/^(?![a-zA-Z][a-zA-Z0-9+.-]*:\/\/[^/@\s]*:[^/@\s]*@)\S*$/)
      .default('')
      .description('the git remote every machine syncs the store through (cyrene sync git); empty = no git sync'),
  }),
  quota: Schema.object({
    totalMB: Schema.natural()
      .min(1)
      .default(DEFAULT_LIMITS.totalBytes / MB),
    marginMB: Schema.natural()
      .min(1)
      .default(DEFAULT_LIMITS.marginBytes / MB),
    entryChars: Schema.natural().min(1).default(DEFAULT_LIMITS.entryChars),
    injectChars: Schema.natural().min(1).default(DEFAULT_LIMITS.injectChars),
  }),
  lock: Schema.object({
    // Long enough for the host's longest hold under load (a snapshot of the whole store), short enough to refuse a paused holder clearly (decision 086).
    waitSeconds: Schema.natural()
      .min(1)
      .max(600)
      .default(30)
      .description('how long a write waits for 元/write.lock held by another live process, or for a tool call running in DSH, before it refuses'),
  }),
  anchor: Schema.object({
    self: Schema.natural().min(1).default(800),
    user: Schema.natural().min(1).default(600),
    origin: Schema.natural().min(1).default(400),
    goal: Schema.natural().min(1).default(600),
  }),
})

type SettingsValues = ReturnType<typeof SettingsSchema>

/** Keys whose new value is only read when DSH restarts (timers are armed once per session). */
const RESTART_KEYS = new Set(['dream.time', 'dream.maxScheduledSessions'])

export interface Settings {
  limits: Limits
  anchor: Record<AnchorKey, number>
  /** How she addresses the person (rail 120, `{{user_nickname}}`); unset = whale-persona's userName, then the row default. */
  nickname?: string
  /** The 道韵 level (rail 130) by name; unset or unknown = the first level of the styles file. */
  style?: string
  /** Every key after layering; the fields above are derived from it. */
  values: SettingsValues
}

export interface SettingsRead {
  settings: Settings
  problems: string[]
  /** `problems` as codes, for the person's language (decision 082); same order. */
  problemsSaid: Said[]
}

/** Problems found while layering: the English sentence and its code side by side. */
class Problems {
  readonly en: string[] = []
  readonly said: Said[] = []
  add(en: string, said: Said): void {
    this.en.push(en)
    this.said.push(said)
  }
}

/** Where a layer came from, as problems name it. */
interface Source {
  en: string
  said: Said
}
const ROW_SOURCE: Source = { en: 'the loader row config', said: { code: 'part.source.row' } }
const FILE_SOURCE: Source = { en: SETTINGS_REL, said: { code: 'part.source.file', params: { file: SETTINGS_REL } } }
const PATCH_SOURCE: Source = { en: 'setting', said: { code: 'part.source.patch' } }

/** What a leaf of the schema takes, for a person who does not read Schemastery's English. */
function expected(schema: Schema): Said {
  const { type, list, meta } = schema as unknown as {
    type?: string
    list?: Array<{ value?: unknown }>
    meta?: { min?: number; max?: number; pattern?: unknown }
  }
  if (type === 'union' && Array.isArray(list)) return { code: 'part.expect.one-of', params: { values: list.map((x) => String(x.value)).join(', ') } }
  if (type === 'string' && meta?.pattern !== undefined) return { code: 'part.expect.pattern' }
  if (type === 'number' && meta?.min !== undefined)
    return meta.max === undefined
      ? { code: 'part.expect.number-min', params: { min: meta.min } }
      : { code: 'part.expect.number-range', params: { min: meta.min, max: meta.max } }
  if (type === 'string' || type === 'number' || type === 'boolean' || type === 'array') return { code: `part.expect.${type}` }
  return { code: 'part.expect.other' }
}

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)

function defaultSettingsValues(): SettingsValues {
  return SettingsSchema({})
}

/**
 * Lays `layer` over `base` leaf by leaf: a wrong value is reported and the
 * lower layer's value kept, so one typo never costs the person their other settings.
 */
function overlay(schema: Schema, base: Json, layer: Json, source: Source, problems: Problems, path = ''): Json {
  const out: Json = { ...base }
  for (const [key, value] of Object.entries(layer)) {
    // Own keys of the schema only: `constructor`, `toString` or `__proto__` are found on every object's prototype.
    const child = schema.dict !== undefined && Object.hasOwn(schema.dict, key) ? schema.dict[key] : undefined
    const here = path === '' ? key : `${path}.${key}`
    if (child === undefined) {
      const keys = Object.keys(schema.dict ?? {}).join(', ')
      problems.add(`${source.en}: "${here}" is not a setting (${path === '' ? 'settings are' : `${path} has`} ${keys}); it is ignored`, {
        code: path === '' ? 'settings.unknown' : 'settings.unknown.under',
        params: { source: source.said, key: here, path, keys },
      })
      continue
    }
    if (child.type === 'object') {
      if (!isObject(value))
        problems.add(`${source.en}: "${here}" must be an object`, { code: 'settings.not-object', params: { source: source.said, key: here } })
      else out[key] = overlay(child, isObject(base[key]) ? base[key] : {}, value, source, problems, here)
      continue
    }
    if (path === '' && (VOICE_SETTING_KEYS as readonly string[]).includes(key)) {
      const problem =
        typeof value === 'string'
          ? value === ''
            ? undefined
            : voiceSettingSaid(key as VoiceSettingKey, value)
          : { en: `${key} must be a string`, said: { code: 'part.voice.type', params: { key } } }
      if (problem !== undefined)
        problems.add(`${source.en} ${problem.en}; ignored`, { code: 'settings.voice', params: { source: source.said, problem: problem.said } })
      else out[key] = value
      continue
    }
    try {
      out[key] = child(value)
    } catch (error) {
      const kept = JSON.stringify(base[key])
      problems.add(`${source.en}: "${here}" ${(error as Error).message}; kept ${kept}`, {
        code: 'settings.bad-value',
        params: { source: source.said, key: here, expect: expected(child), kept: kept ?? 'undefined' },
      })
    }
  }
  return out
}

function derive(values: SettingsValues): Settings {
  const settings: Settings = {
    values,
    anchor: { ...values.anchor },
    limits: {
      totalBytes: values.quota.totalMB * MB,
      marginBytes: values.quota.marginMB * MB,
      entryChars: values.quota.entryChars,
      injectChars: values.quota.injectChars,
    },
  }
  if (values.nickname !== '') settings.nickname = values.nickname
  if (values.style !== '') settings.style = values.style
  return settings
}

/** The last file layer that parsed, per store root: a broken edit falls back to it, not to the defaults. */
const lastGood = new Map<string, Json>()

/** Parses the text of 元/settings.json into a layer; undefined (with a problem) when it is not a JSON object. */
function parseSettingsLayer(text: string, problems: Problems): Json | undefined {
  if (text.trim() === '') return {}
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    problems.add(`${SETTINGS_REL} is not valid JSON (${(e as Error).message}); using the last good settings until it is fixed`, {
      code: 'settings.json',
      params: { file: SETTINGS_REL, error: (e as Error).message },
    })
    return undefined
  }
  if (!isObject(raw)) {
    problems.add(`${SETTINGS_REL} must hold a JSON object; using the last good settings`, { code: 'settings.not-json-object', params: { file: SETTINGS_REL } })
    return undefined
  }
  return raw
}

/** Whether the allow-list lets `name` be the token variable: an entry names it exactly, or is a prefix ending in `*`. */
function tokenEnvAllowed(name: string, allow: readonly string[]): boolean {
  return allow.some((a) => (a.endsWith('*') ? name.startsWith(a.slice(0, -1)) : a === name))
}

function tokenEnvProblem(values: SettingsValues): { en: string; said: Said } | undefined {
  const { tokenEnv, tokenEnvAllow } = values.siyuan
  if (tokenEnvAllowed(tokenEnv, tokenEnvAllow)) return undefined
  const allowed = tokenEnvAllow.join(', ') || 'none'
  return {
    en: `"siyuan.tokenEnv" ${JSON.stringify(tokenEnv)} is not a variable you allowed (siyuan.tokenEnvAllow: ${allowed}); the sync would send its value to SiYuan. Allow it by editing siyuan.tokenEnvAllow in ${SETTINGS_REL} yourself`,
    said: { code: 'settings.token-env', params: { name: JSON.stringify(tokenEnv), allowed, file: SETTINGS_REL } },
  }
}

/** defaults ← row config ← file layer, validated by the one schema; a token variable the allow-list does not name falls back to the default. */
function layerSettings(rowLayer: Json, fileLayer: Json, problems: Problems): Settings {
  const defaults = defaultSettingsValues() as unknown as Json
  const withRow = overlay(SettingsSchema, defaults, rowLayer, ROW_SOURCE, problems)
  const values = overlay(SettingsSchema, withRow, fileLayer, FILE_SOURCE, problems) as unknown as SettingsValues
  const problem = tokenEnvProblem(values)
  if (problem !== undefined) {
    problems.add(`${problem.en}; using SIYUAN_API_TOKEN`, { code: 'settings.token-env.fallback', params: { problem: problem.said } })
    values.siyuan = { ...values.siyuan, tokenEnv: 'SIYUAN_API_TOKEN' }
  }
  return derive(values)
}

/** Keys only the person's own files set: a patch from the settings page may not change them. */
const PERSON_FILE_KEYS: readonly string[] = ['siyuan.tokenEnvAllow']

function parseSettings(root: string, text: string, rowLayer: Json, notAFile = false): SettingsRead {
  const problems = new Problems()
  if (notAFile)
    problems.add(`${SETTINGS_REL} is not a plain file (a link, a folder or a FIFO); its settings are not read. Move it away, then set them again`, {
      code: 'settings.not-a-file',
      params: { file: SETTINGS_REL },
    })
  let layer = notAFile ? undefined : parseSettingsLayer(text, problems)
  if (layer === undefined) layer = lastGood.get(root) ?? {}
  else lastGood.set(root, layer)
  const settings = layerSettings(rowLayer, layer, problems)
  return { settings, problems: problems.en, problemsSaid: problems.said }
}

/**
 * 元/settings.json (written by the panel, `cyrene settings set` or by hand)
 * over the row's layer. Invalid JSON or wrong types never stop the store:
 * the last good values are used and the problem is reported to the doctor.
 */
export async function readSettings(root: string, rowLayer: Json = {}): Promise<SettingsRead> {
  const file = join(root, SETTINGS_REL)
  const at = await inspectBelow(root, file)
  // Something else under its name is said, not taken for "no settings": the person's nickname would vanish without a word.
  if (at.kind === 'link' || at.kind === 'not-file') return parseSettings(root, '', rowLayer, true)
  return parseSettings(root, await readTextOr(root, file, ''), rowLayer)
}

export interface SettingsChange {
  /** The file layer to write (the old one with the patch laid over it). */
  layer: Json
  /** Dotted keys whose value changed. */
  changed: string[]
  /** Of those, the ones read only at the next DSH start. */
  needRestart: string[]
}

function leaves(value: unknown, path = ''): Array<[string, unknown]> {
  if (!isObject(value)) return [[path, value]]
  return Object.entries(value).flatMap(([k, v]) => leaves(v, path === '' ? k : `${path}.${k}`))
}

/**
 * Lays a patch (from the panel or the CLI) over the current file layer.
 * Unlike reading, a wrong value here is refused as a whole: the person is
 * there to fix it, and nothing is written. Throws a message that says which key and why.
 */
export function applySettingsPatch(currentText: string, patch: unknown, rowLayer: Json = {}, opts: { from?: 'panel' | 'person' } = {}): SettingsChange {
  const refused = (message: string, params: Record<string, string | Said | Said[]>) => new RefusedError('bad-settings-patch', message, params)
  if (!isObject(patch)) throw refused('settings must be a JSON object like {"nickname": "…"}', { variant: 'not-object' })
  if (opts.from === 'panel') {
    const personal = leaves(patch).find(([k]) => PERSON_FILE_KEYS.some((p) => k === p || k.startsWith(`${p}.`)))
    if (personal !== undefined)
      throw refused(`"${personal[0]}" is set only by you in ${SETTINGS_REL}, not from the settings page. Nothing was written.`, {
        variant: 'personal',
        key: personal[0],
        file: SETTINGS_REL,
      })
  }
  const readProblems = new Problems()
  const current = parseSettingsLayer(currentText, readProblems)
  // parseSettingsLayer names why whenever it gives no layer.
  if (current === undefined)
    throw refused(`${readProblems.en[0]}; fix or remove the file first, nothing was written`, { variant: 'file', problem: readProblems.said[0]! })
  const problems = new Problems()
  const before = layerSettings(rowLayer, current, new Problems()).values
  const merged = overlay(SettingsSchema, current, patch, PATCH_SOURCE, problems)
  if (problems.en.length > 0) throw refused(`${problems.en.join('; ')}. Nothing was written.`, { variant: 'values', problems: problems.said })
  const afterProblems = new Problems()
  const after = layerSettings(rowLayer, merged, afterProblems).values
  // layerSettings put the default back in place of a token variable nobody allowed; a save refuses it instead.
  const token = afterProblems.said.findIndex((p) => p.code === 'settings.token-env.fallback')
  if (token >= 0)
    throw refused(`${afterProblems.en[token]!.replace(/; using SIYUAN_API_TOKEN$/, '')}. Nothing was written.`, {
      variant: 'token',
      problem: afterProblems.said[token]!.params!.problem as Said,
    })
  const old = new Map(leaves(before))
  const changed = leaves(after)
    .filter(([k, v]) => JSON.stringify(old.get(k)) !== JSON.stringify(v))
    .map(([k]) => k)
  return { layer: merged, changed, needRestart: changed.filter((k) => RESTART_KEYS.has(k)) }
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

const INVISIBLE_RE = /[\u200b-\u200f\u2060\ufeff\u202a-\u202e\u2066-\u2069]/g

/** Why `value` cannot be stored under `key`, or undefined when it can (counted in code points). */
export function voiceSettingProblem(key: VoiceSettingKey, value: string): string | undefined {
  return voiceSettingSaid(key, value)?.en
}

/** `voiceSettingProblem` with its code (`part.voice.*`), for the person's language. */
function voiceSettingSaid(key: VoiceSettingKey, value: string): { en: string; said: Said } | undefined {
  const max = key === 'nickname' ? NICKNAME_MAX : STYLE_NAME_MAX
  const chars = [...value].length
  const said = (code: string): Said => ({ code: `part.voice.${code}`, params: { key, chars, max } })
  // Zero-width spaces and direction marks alone would make a name nobody sees.
  if (value.replace(INVISIBLE_RE, '').trim() === '') return { en: `${key} must not be empty`, said: said('empty') }
  if (value !== value.trim()) return { en: `${key} must not start or end with spaces`, said: said('spaces') }
  if (NAME_BREAK_RE.test(value)) return { en: `${key} must be one line without control characters`, said: said('line') }
  if (chars > max) return { en: `${key} is ${chars} characters; at most ${max}`, said: said('long') }
  return undefined
}

/**
 * 元/settings.json as a write lays its change over it. Bytes that are not UTF-8 refuse the write:
 * read, they become replacement characters, and writing them back would change keys the person
 * did not touch (a token, a remote) while saying every other key was kept.
 */
export async function settingsTextForRewrite(root: string): Promise<string> {
  const { text, valid } = await readUtf8Or(root, join(root, SETTINGS_REL), '')
  if (!valid)
    throw new RefusedError(
      'bad-settings-file',
      `${SETTINGS_REL} is not valid UTF-8 (edited with another encoding?); re-save it as UTF-8 or remove it first, nothing was changed`,
      { variant: 'not-utf8' },
    )
  return text
}

/**
 * Save one voice key (or remove it, `value` undefined) in 元/settings.json,
 * atomically and under the store's write lock, keeping every other key as it
 * is. A settings file that is not a JSON object is refused, never replaced: it
 * is the person's file, and they fix it first.
 */
export async function writeVoiceSetting(store: StoreCore, key: VoiceSettingKey, value: string | undefined): Promise<void> {
  if (value !== undefined) {
    const problem = voiceSettingSaid(key, value)
    if (problem !== undefined) throw new RefusedError('bad-setting', `${problem.en}; nothing was changed`, { problem: problem.said })
  }
  await store.withWriteLock(async (lock) => {
    const text = await settingsTextForRewrite(store.root)
    let raw: unknown = {}
    if (text.trim() !== '') {
      try {
        raw = JSON.parse(text)
      } catch (e) {
        throw new RefusedError(
          'bad-settings-file',
          `元/settings.json is not valid JSON (${(e as Error).message}); fix or remove it first, nothing was changed`,
          {
            variant: 'json',
            error: (e as Error).message,
          },
        )
      }
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      throw new RefusedError('bad-settings-file', '元/settings.json does not hold a JSON object; fix or remove it first, nothing was changed', {
        variant: 'not-object',
      })
    const next = { ...(raw as Record<string, unknown>) }
    // Unsetting what is not set changes nothing, and makes no file.
    if (value === undefined && !Object.hasOwn(next, key)) return
    if (value === undefined) delete next[key]
    else next[key] = value
    await store.writeMetaJson('settings.json', next, lock)
  })
  // Re-layered like every other change, so the running store sees it at once.
  await store.reloadSettings()
}

/**
 * Sync parse for readers that run while DSH assembles a step (host/service.ts):
 * the same layers and rules as `readSettings`, except that broken JSON falls
 * back to the defaults (there is no store here to remember a last good file by).
 */
export function parseSettingsText(text: string, rowLayer: Json = {}): SettingsRead {
  const problems = new Problems()
  const layer = parseSettingsLayer(text, problems) ?? {}
  const settings = layerSettings(rowLayer, layer, problems)
  return { settings, problems: problems.en, problemsSaid: problems.said }
}
