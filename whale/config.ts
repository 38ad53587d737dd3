import { isRecord, parseJson, type JsonRecord } from './json.ts'
import { textOf } from './text.ts'

/**
 * The config as rendering sees it (spec §2, interop "Reading the config").
 * Normalising is total: any input, including garbage, yields a usable value.
 * The raw object is never modified here; write-back works on the raw JSON
 * (see presets.ts) so unknown keys survive.
 */
export interface StyleField {
  enabled: boolean
  text: string
  byModel: JsonRecord
}

interface PersonaConfig {
  enabled: boolean
  selfNameFlash: string
  selfNamePro: string
  selfNameByModel: JsonRecord
  userName: string
  stance: string
  character: string
  suffix: string
  appearance: StyleField
  tone: StyleField
  contracts: unknown[]
}

export interface MemoryConfig {
  enabled: boolean
  entries: unknown[]
  inbox: boolean
  capture: string
  maxEntries: number
  inboxPath: string
  sinks: JsonRecord
  sinkLog: string
  requireConfirm: boolean
}

export interface BudgetConfig {
  enabled: boolean
  max: number
  warnInPrompt: boolean
}

export interface WhaleConfig {
  enabled: boolean
  thinkingLanguage: string
  persona: PersonaConfig
  memory: MemoryConfig
  budget: BudgetConfig
}

const DEFAULT_SELF_NAME = '我'
const DEFAULT_USER_NAME = '用户'
const DEFAULT_MAX_ENTRIES = 30

const truthyOr = (value: unknown, fallback: boolean): boolean => (value === undefined ? fallback : Boolean(value))
const stringOnly = (value: unknown): string => (typeof value === 'string' ? value : '')

function normaliseStyle(value: unknown): StyleField {
  if (!isRecord(value)) return { enabled: false, text: '', byModel: {} }
  return {
    // opt-in: only a literal `true` switches the block on (spec §2.3.1)
    enabled: value.enabled === true,
    text: textOf(value.text),
    byModel: isRecord(value.byModel) ? value.byModel : {},
  }
}

function normaliseThinkingLanguage(value: unknown): string {
  // spec wins over the reference: null is "off", not the string "null"
  if (value === undefined || value === null) return 'off'
  try {
    return String(value)
  } catch {
    // JSON can spell a value String() cannot convert ([{"toString": 0}]); it names no language.
    return 'off'
  }
}

function normalisePersona(value: unknown): PersonaConfig {
  const p = isRecord(value) ? value : {}
  const flash = textOf(p.selfNameFlash)
  const pro = textOf(p.selfNamePro)
  return {
    enabled: truthyOr(p.enabled, true),
    selfNameFlash: flash || DEFAULT_SELF_NAME,
    // spec §2.3: an empty pro name falls back to the flash name first
    selfNamePro: pro || flash || DEFAULT_SELF_NAME,
    selfNameByModel: isRecord(p.selfNameByModel) ? p.selfNameByModel : {},
    userName: textOf(p.userName) || DEFAULT_USER_NAME,
    stance: textOf(p.stance),
    character: textOf(p.character),
    // the reference drops a non-string suffix (it cannot run replace() on it)
    suffix: stringOnly(p.suffix),
    appearance: normaliseStyle(p.appearance),
    tone: normaliseStyle(p.tone),
    contracts: Array.isArray(p.contracts) ? p.contracts : [],
  }
}

function positiveNumber(value: unknown): number {
  const n = typeof value === 'number' || typeof value === 'string' ? Number(value) : NaN
  return Number.isFinite(n) && n > 0 ? n : 0
}

function normaliseMemory(value: unknown): MemoryConfig {
  const m = isRecord(value) ? value : {}
  // kept as given (not rounded): a fractional cap behaves as in the reference (slice truncates)
  const cap = positiveNumber(m.maxEntries)
  return {
    enabled: truthyOr(m.enabled, false),
    entries: Array.isArray(m.entries) ? m.entries : [],
    inbox: truthyOr(m.inbox, true),
    capture: typeof m.capture === 'string' ? m.capture : 'on-demand',
    maxEntries: cap > 0 ? cap : DEFAULT_MAX_ENTRIES,
    inboxPath: stringOnly(m.inboxPath).trim(),
    sinks: isRecord(m.sinks) ? m.sinks : {},
    sinkLog: stringOnly(m.sinkLog).trim(),
    // safety-critical default: only a literal `false` relaxes it (spec §2.4)
    requireConfirm: m.requireConfirm !== false,
  }
}

/**
 * Budget switches are read like every other switch of the reference's
 * normalisation (interop notes): absent → the default, else JS truthiness, so
 * `"yes"` and `1` switch it on, `""`, `0` and `null` off. `max` takes a finite
 * positive number or a string Number() reads as one (`"60"`, `" 60 "`,
 * `"6e1"`); anything else, garbage included, is 0 = no limit. The budget only
 * ever adds a reminder, so reading loosely cannot cost the person anything.
 */
function normaliseBudget(value: unknown): BudgetConfig {
  const b = isRecord(value) ? value : {}
  return {
    enabled: truthyOr(b.enabled, false),
    max: positiveNumber(b.max),
    warnInPrompt: truthyOr(b.warnInPrompt, true),
  }
}

export function normaliseConfig(raw: unknown): WhaleConfig {
  const c = isRecord(raw) ? raw : {}
  return {
    enabled: truthyOr(c.enabled, true),
    thinkingLanguage: normaliseThinkingLanguage(c.thinkingLanguage),
    persona: normalisePersona(c.persona),
    memory: normaliseMemory(c.memory),
    budget: normaliseBudget(c.budget),
  }
}

/** Missing (`null`), unreadable or invalid text all give the defaults (spec §2.6). */
export function configFromText(text: string | null): WhaleConfig {
  if (text === null) return normaliseConfig({})
  const parsed = parseJson(text)
  return normaliseConfig(parsed.ok ? parsed.value : {})
}

/** Whether the memory capture discipline is switched on for this turn (spec §3.4). */
export function captureActive(config: WhaleConfig, sessionSwitch: boolean): boolean {
  const wanted = sessionSwitch || config.memory.capture.trim().toLowerCase() === 'always'
  return wanted && inboxBlocksAllowed(config)
}

/** The inbox data block and the discipline block share these gates. */
export function inboxBlocksAllowed(config: WhaleConfig): boolean {
  return config.enabled && config.persona.enabled && config.memory.enabled && config.memory.inbox
}
