import { cloneJson, isRecord, jsonEqual, type JsonRecord } from './json.ts'

/** Preset cards, `whale-persona-preset/1` (spec §4). Pure: files.ts-style callers do the I/O. */
export const PRESET_SPEC = 'whale-persona-preset/1'
export const AUTOSAVE_ID = 'autosave'
export const PRESET_ID = /^[A-Za-z0-9_-]{1,64}$/

/** The only persona keys a card may carry (spec §4.2), each with the shape it must have. */
export const PERSONA_KEYS = [
  'userName', 'selfNameFlash', 'selfNamePro', 'selfNameByModel',
  'stance', 'character', 'suffix', 'contracts', 'tone', 'appearance',
] as const
export type PersonaKey = (typeof PERSONA_KEYS)[number]

const OBJECT_KEYS: ReadonlySet<string> = new Set(['selfNameByModel', 'tone', 'appearance'])

export function isPresetId(id: string): boolean {
  return PRESET_ID.test(id)
}

/** Whether a value has the shape its whitelisted key needs; anything else is ignored, not written. */
export function validPersonaValue(key: PersonaKey, value: unknown): boolean {
  if (key === 'contracts') return Array.isArray(value)
  if (OBJECT_KEYS.has(key)) return isRecord(value)
  return typeof value === 'string'
}

export interface Preset {
  spec: string
  id: string
  label: string
  description: string
  author: string
  tags: string[]
  thinkingLanguage?: string
  persona: Partial<Record<PersonaKey, unknown>>
}

export interface ReadPreset {
  preset: Preset
  /** Fields of the file that were not taken, as `persona.enabled`, `memory`… */
  ignored: string[]
}

/** A card is either the current format (a `persona` object) or the early one (top-level character/contracts). */
export function isPresetShape(raw: unknown): boolean {
  return isRecord(raw) && (isRecord(raw.persona) || typeof raw.character === 'string' || Array.isArray(raw.contracts))
}

function pickPersona(source: JsonRecord, ignored: string[], prefix: string): Preset['persona'] {
  const persona: Preset['persona'] = {}
  for (const key of PERSONA_KEYS) {
    const value = source[key]
    if (value === undefined || value === null) continue
    if (validPersonaValue(key, value)) persona[key] = cloneJson(value)
    else ignored.push(`${prefix}${key} (wrong type)`)
  }
  for (const key of Object.keys(source)) {
    if (!(PERSONA_KEYS as readonly string[]).includes(key)) ignored.push(prefix + key)
  }
  return persona
}

/** Reads a card the way apply uses it; `null` when it is not a preset at all. `id` is the file name. */
export function readPreset(raw: unknown, id: string): ReadPreset | null {
  if (!isRecord(raw) || !isPresetShape(raw)) return null
  const ignored: string[] = []
  let persona: Preset['persona']
  if (isRecord(raw.persona)) {
    persona = pickPersona(raw.persona, ignored, 'persona.')
  } else {
    // early format (spec §4.4): only contracts (an array) and a non-empty character
    persona = {}
    if (Array.isArray(raw.contracts)) persona.contracts = cloneJson(raw.contracts)
    if (typeof raw.character === 'string' && raw.character !== '') persona.character = raw.character
  }
  if ('memory' in raw) ignored.push('memory (a preset never carries memory)')
  const preset: Preset = {
    spec: typeof raw.spec === 'string' ? raw.spec : '',
    id,
    label: typeof raw.label === 'string' && raw.label ? raw.label : id,
    description: typeof raw.description === 'string' ? raw.description : '',
    author: typeof raw.author === 'string' ? raw.author : '',
    tags: Array.isArray(raw.tags) ? raw.tags.filter((t): t is string => typeof t === 'string') : [],
    persona,
  }
  if (typeof raw.thinkingLanguage === 'string') preset.thinkingLanguage = raw.thinkingLanguage
  return { preset, ignored }
}

/** The whitelisted part of a live persona, as an autosave or a saved preset holds it. */
export function personaSnapshot(config: JsonRecord): Preset['persona'] {
  return isRecord(config.persona) ? pickPersona(config.persona, [], '') : {}
}

export interface ApplyResult {
  config: JsonRecord
  changed: boolean
  /** The previous persona, to be written as `autosave` before the config when something changed. */
  autosave: JsonRecord | null
}

export class ApplyRefused extends Error {}

/**
 * Applying (spec §4.3, §4.5): each whitelisted key the card has replaces the
 * live value whole; every other key, known or not, stays as it was.
 * `thinkingLanguage` changes only when the card has it as a string.
 */
export function applyPreset(liveConfig: unknown, preset: Preset): ApplyResult {
  if (!isRecord(liveConfig)) throw new ApplyRefused('config.json does not hold a JSON object; fix it first (it was not changed)')
  if (liveConfig.persona !== undefined && !isRecord(liveConfig.persona)) {
    throw new ApplyRefused('"persona" in config.json is not an object; fix it first (it was not changed)')
  }
  const next = cloneJson(liveConfig)
  const persona: JsonRecord = isRecord(next.persona) ? next.persona : {}
  for (const key of PERSONA_KEYS) {
    if (preset.persona[key] !== undefined) persona[key] = cloneJson(preset.persona[key])
  }
  next.persona = persona
  if (typeof preset.thinkingLanguage === 'string') next.thinkingLanguage = preset.thinkingLanguage
  if (liveConfig.persona === undefined && Object.keys(persona).length === 0) delete next.persona
  const changed = !jsonEqual(next, liveConfig)
  return { config: next, changed, autosave: changed ? autosaveOf(liveConfig) : null }
}

function autosaveOf(liveConfig: JsonRecord): JsonRecord {
  return {
    spec: PRESET_SPEC,
    id: AUTOSAVE_ID,
    // §4.5 calls it "上次的人设"
    label: '上次的人设',
    description: '应用其他预设之前自动保存的人设',
    persona: personaSnapshot(liveConfig),
  }
}

/** What a preset file holds when this module writes one: empty optional fields are left out. */
export function presetFile(preset: Omit<Preset, 'spec'> & { extensions?: JsonRecord }): JsonRecord {
  const out: JsonRecord = { spec: PRESET_SPEC, id: preset.id, label: preset.label }
  if (preset.description) out.description = preset.description
  if (preset.author) out.author = preset.author
  if (preset.tags.length) out.tags = [...preset.tags]
  if (typeof preset.thinkingLanguage === 'string') out.thinkingLanguage = preset.thinkingLanguage
  out.persona = cloneJson(preset.persona)
  if (preset.extensions && Object.keys(preset.extensions).length) out.extensions = cloneJson(preset.extensions)
  return out
}

/** `presets save`: the live persona (whitelisted keys) and thinking language as a new card. */
export function snapshotPreset(liveConfig: unknown, id: string, label: string): Preset {
  const config = isRecord(liveConfig) ? liveConfig : {}
  const preset: Preset = { spec: PRESET_SPEC, id, label: label || id, description: '', author: '', tags: [], persona: personaSnapshot(config) }
  if (typeof config.thinkingLanguage === 'string') preset.thinkingLanguage = config.thinkingLanguage
  return preset
}
