import { cloneJson, copyJson, isRecord, jsonEqual, type JsonRecord } from './json.ts'
import { WhaleError } from './said.ts'

/** Preset cards, `whale-persona-preset/1` (spec §4). Pure: files.ts-style callers do the I/O. */
export const PRESET_SPEC = 'whale-persona-preset/1'
export const AUTOSAVE_ID = 'autosave'
const PRESET_ID = /^[A-Za-z0-9_-]{1,64}$/

/** The only persona keys a card may carry (spec §4.2), each with the shape it must have. */
export const PERSONA_KEYS = [
  'userName',
  'selfNameFlash',
  'selfNamePro',
  'selfNameByModel',
  'stance',
  'character',
  'suffix',
  'contracts',
  'tone',
  'appearance',
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
  /** Where an imported card came from, as it said (spec §4.6: the original version is kept here); never applied. */
  source?: CardSource
}

interface CardSource {
  kind: string
  name: string
  creator: string
  characterVersion: string
}

function cardSource(value: unknown): CardSource | undefined {
  if (!isRecord(value)) return undefined
  const s = (v: unknown) => (typeof v === 'string' ? v : '')
  return { kind: s(value.kind), name: s(value.name), creator: s(value.creator), characterVersion: s(value.characterVersion) }
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

/** Every whitelisted key the source has, values copied as they are (null and odd shapes included). */
function whitelisted(source: JsonRecord): Preset['persona'] {
  const persona: Preset['persona'] = {}
  for (const key of PERSONA_KEYS) if (Object.hasOwn(source, key) && source[key] !== undefined) persona[key] = copyJson(source[key])
  return persona
}

/** What apply will not take from a card, named for `presets show` and import reports. */
function notTaken(persona: Preset['persona'], source: JsonRecord | null, raw: JsonRecord): string[] {
  const out: string[] = []
  for (const key of PERSONA_KEYS) {
    const value = persona[key]
    if (value !== undefined && value !== null && !validPersonaValue(key, value)) out.push(`persona.${key} (wrong type, not applied)`)
  }
  if (source !== null) for (const key of Object.keys(source)) if (!(PERSONA_KEYS as readonly string[]).includes(key)) out.push('persona.' + key)
  if ('memory' in raw) out.push('memory (a preset never carries memory)')
  return out
}

const textList = (value: unknown): string[] =>
  Array.isArray(value)
    ? value
        .map((t) => (typeof t === 'string' || typeof t === 'number' ? String(t) : ''))
        .filter(Boolean)
        .slice(0, 32)
    : []
const trimmedText = (...values: unknown[]): string => {
  for (const v of values) if ((typeof v === 'string' && v) || typeof v === 'number') return String(v).trim()
  return ''
}

/**
 * Reads a card the way apply uses it (as the reference does); `null` when it
 * is not a preset at all. `fileId` is the file name, used when the card has
 * no valid id of its own.
 */
export function readPreset(raw: unknown, fileId: string): ReadPreset | null {
  if (!isRecord(raw) || !isPresetShape(raw)) return null
  const inner = isRecord(raw.persona) ? raw.persona : null
  const persona = inner ? whitelisted(inner) : {}
  // early format (spec §4.4): top-level contracts (an array) and a non-empty character
  if (Array.isArray(raw.contracts)) persona.contracts = cloneJson(raw.contracts)
  if (typeof raw.character === 'string' && raw.character !== '') persona.character = raw.character
  const id = typeof raw.id === 'string' && isPresetId(raw.id.trim()) ? raw.id.trim() : fileId
  const preset: Preset = {
    spec: typeof raw.spec === 'string' ? raw.spec : '',
    id,
    label: trimmedText(raw.label, raw.name, raw.id, fileId),
    description: trimmedText(raw.description),
    author: trimmedText(raw.author, raw.creator),
    tags: textList(raw.tags),
    persona,
  }
  if (typeof raw.thinkingLanguage === 'string') preset.thinkingLanguage = raw.thinkingLanguage
  const source = cardSource(raw.source)
  if (source !== undefined) preset.source = source
  return { preset, ignored: notTaken(persona, inner, raw) }
}

/**
 * The persona an export carries (`presets export`): what apply reads, plus,
 * for an early-format file (spec §4.4, no `persona` object), the other
 * persona keys it has at its top level. Apply reads only character and
 * contracts there, as the reference does; an export gives the file whole, so
 * a stance or suffix written in an early file is not lost on the way to a card.
 */
export function exportPersona(raw: unknown, read: Preset): Preset['persona'] {
  if (!isRecord(raw) || isRecord(raw.persona)) return read.persona
  const top = whitelisted(raw)
  delete top.character
  delete top.contracts
  for (const key of Object.keys(top) as PersonaKey[]) if (top[key] === null || !validPersonaValue(key, top[key])) delete top[key]
  return { ...top, ...read.persona }
}

/** The whitelisted part of a live persona, as an autosave or a saved preset holds it. */
function personaSnapshot(config: JsonRecord): Preset['persona'] {
  return isRecord(config.persona) ? whitelisted(config.persona) : {}
}

export interface ApplyResult {
  config: JsonRecord
  changed: boolean
  /** The previous persona, to be written as `autosave` before the config when the persona changed. */
  autosave: JsonRecord | null
}

export class ApplyRefused extends WhaleError {}

/**
 * Applying (spec §4.3, §4.5): each whitelisted key the card has replaces the
 * live value whole; every other key, known or not, stays as it was.
 * `thinkingLanguage` changes only when the card has it as a string.
 */
export function applyPreset(liveConfig: unknown, preset: Preset): ApplyResult {
  if (!isRecord(liveConfig)) throw new ApplyRefused('config.json does not hold a JSON object; fix it first (it was not changed)', 'apply.not-object')
  // `"persona": null` holds nothing to lose: it is read as no persona yet, as the reference reads it
  const unset = liveConfig.persona === undefined || liveConfig.persona === null
  if (!unset && !isRecord(liveConfig.persona)) {
    throw new ApplyRefused('"persona" in config.json is not an object; fix it first (it was not changed)', 'apply.persona-not-object')
  }
  // shallow: only persona keys and thinkingLanguage change; every other value is written back as it was read
  const next: JsonRecord = { ...liveConfig }
  const persona: JsonRecord = isRecord(next.persona) ? { ...next.persona } : {}
  for (const key of PERSONA_KEYS) {
    const value = preset.persona[key]
    // null is skipped (interop); a value of the wrong shape would destroy the live one, so it is skipped too
    if (value !== undefined && value !== null && validPersonaValue(key, value)) persona[key] = cloneJson(value)
  }
  next.persona = persona
  if (typeof preset.thinkingLanguage === 'string') next.thinkingLanguage = preset.thinkingLanguage
  if (unset && Object.keys(persona).length === 0) next.persona = liveConfig.persona
  if (next.persona === undefined) delete next.persona
  const changed = !jsonEqual(next, liveConfig)
  // the autosave is a persona snapshot: only a persona change makes one
  const personaChanged = !jsonEqual(personaSnapshot(next), personaSnapshot(liveConfig))
  return { config: next, changed, autosave: personaChanged ? autosaveOf(liveConfig) : null }
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
  out.persona = copyJson(preset.persona)
  if (preset.source !== undefined) out.source = { ...preset.source }
  if (preset.extensions && Object.keys(preset.extensions).length) out.extensions = cloneJson(preset.extensions)
  return out
}

/**
 * Whether importing `incoming` over `existing` would change what the preset
 * means (spec §4.6: export → import is a lossless round trip). Compared is
 * what a card carries exactly: label, tags, thinking language, the
 * whitelisted persona and the other `extensions` keys. The id is the file
 * name (equal by construction); `description` and `author` are bookkeeping a
 * card does not carry back exactly (export writes no description and
 * `whale-persona` for a missing author), so they never make content differ.
 */
export function sameCardContent(existing: PresetContent, incoming: PresetContent): boolean {
  const content = (p: PresetContent) => ({
    label: p.label,
    tags: p.tags,
    thinkingLanguage: p.thinkingLanguage,
    persona: p.persona,
    extensions: otherExtensions(p.extensions),
  })
  return jsonEqual(content(existing), content(incoming))
}

type PresetContent = Pick<Preset, 'label' | 'tags' | 'thinkingLanguage' | 'persona'> & { extensions?: unknown }

/** Extension keys other than this engine's own; an empty object counts as none. */
function otherExtensions(value: unknown): JsonRecord | undefined {
  if (!isRecord(value)) return undefined
  const others = Object.fromEntries(Object.entries(value).filter(([k]) => k !== 'whale_persona'))
  return Object.keys(others).length ? others : undefined
}

/** `presets save`: the live persona (whitelisted keys) and thinking language as a new card. */
export function snapshotPreset(liveConfig: unknown, id: string, label: string): Preset {
  const config = isRecord(liveConfig) ? liveConfig : {}
  const preset: Preset = { spec: PRESET_SPEC, id, label: label || id, description: '', author: '', tags: [], persona: personaSnapshot(config) }
  if (typeof config.thinkingLanguage === 'string') preset.thinkingLanguage = config.thinkingLanguage
  return preset
}
