import { cloneJson, isRecord, jsonEqual, type JsonRecord } from './json.ts'
import { isPresetShape, PRESET_SPEC, validPersonaValue, type Preset } from './presets.ts'
import { WhaleNotes, type WhaleSaid } from './said.ts'
import { tavernMacrosIn } from './text.ts'

/**
 * SillyTavern character cards v1/v2/v3 both ways (spec §4.6). Pure: a card
 * object in, a preset plus an honest report out, and back. Only the part of
 * a card that is "a system prompt" maps; everything else is named in the report.
 */
export type CardKind = 'whale-preset' | 'tavern-v2' | 'tavern-v1' | 'unknown'

const EXTENSION_KEY = 'whale_persona'
const MAX_CONTRACTS = 40
const MAX_CONTRACT_CHARS = 300
const MAX_TAGS = 32

/** Detection order: our own preset → v2/v3 family → v1 (spec §4.6). */
export function detectCard(raw: unknown): CardKind {
  if (!isRecord(raw)) return 'unknown'
  if (isPresetShape(raw)) return 'whale-preset'
  const spec = typeof raw.spec === 'string' ? raw.spec.toLowerCase() : ''
  if (spec === 'chara_card_v2' || spec === 'chara_card_v3') return 'tavern-v2'
  if (isRecord(raw.data) && typeof raw.data.description === 'string') return 'tavern-v2'
  if (typeof raw.name === 'string' && (typeof raw.description === 'string' || typeof raw.first_mes === 'string')) return 'tavern-v1'
  return 'unknown'
}

/**
 * A safe file name from a card name: lower-case, runs outside [a-z0-9_-]
 * become `-`, trimmed and cut to 40. A name with nothing left (e.g. all
 * Chinese) gets `card-` + a djb2 hash so two such cards do not collide.
 */
export function slugId(name: string): string {
  const lower = name.toLowerCase()
  const slug = lower
    .replace(/[^a-z0-9_-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-_]+|[-_]+$/g, '')
    .slice(0, 40)
    .replace(/[-_]+$/g, '')
  if (slug) return slug
  let h = 5381
  for (const ch of lower) h = ((h * 33) ^ ch.codePointAt(0)!) >>> 0
  return 'card-' + h.toString(36).slice(0, 6)
}

const LIST_MARKER = /^(?:[-*•·]|\d+[.)、])\s*/

/** system_prompt → contracts: one per line, markers stripped, noise and duplicates dropped, at most 40. */
export function contractsFromPrompt(text: string): { id: string; text: string; on: true }[] {
  const pieces: string[] = []
  for (const rawLine of text.split(/\r?\n/)) {
    const line = rawLine.trim().replace(LIST_MARKER, '').trim()
    if (line.length < 2) continue
    if (line.length <= MAX_CONTRACT_CHARS) {
      pieces.push(line)
      continue
    }
    // one long line: break after sentence ends, then at semicolons
    for (const sentence of line.split(/(?<=[。！？!?])/)) {
      for (const part of sentence.split(/[；;]/)) pieces.push(part.trim())
    }
  }
  const seen = new Set<string>()
  const out: { id: string; text: string; on: true }[] = []
  for (const piece of pieces) {
    if (piece.length < 2 || piece.length > MAX_CONTRACT_CHARS || seen.has(piece)) continue
    seen.add(piece)
    out.push({ id: 'c' + (out.length + 1), text: piece, on: true })
    if (out.length >= MAX_CONTRACTS) break
  }
  return out
}

const KNOWN_CARD_FIELDS: ReadonlySet<string> = new Set([
  'name',
  'description',
  'personality',
  'scenario',
  'first_mes',
  'mes_example',
  'creator_notes',
  'system_prompt',
  'post_history_instructions',
  'alternate_greetings',
  'character_book',
  'tags',
  'creator',
  'character_version',
  'extensions',
  'group_only_greetings',
  'assets',
  // V3 fields the reference knows and leaves out of its list of fields not taken: named in a note instead.
  'nickname',
  'creator_notes_multilingual',
])

/** Known card fields with no place here that the report's list leaves out (as the reference does); a note names them. */
const QUIETLY_KNOWN = ['nickname', 'creator_notes_multilingual'] as const

/** Card features that need host abilities (greetings, examples, lorebooks), never taken (spec §4.6). */
const HOST_ONLY_FIELDS = ['first_mes', 'alternate_greetings', 'mes_example', 'character_book', 'creator_notes', 'group_only_greetings', 'assets'] as const

export interface ImportedPreset extends Omit<Preset, 'spec'> {
  source: { kind: CardKind; name: string; creator: string; characterVersion: string }
  /** Unknown keys of the card's `extensions`, kept so an export gives them back. */
  extensions?: JsonRecord
}

export interface ImportReport {
  preset: ImportedPreset
  mapped: string[]
  unmapped: string[]
  notes: string[]
  /** `notes` as saids, for the person's language (decision 085); not in `--json`. */
  notesSaid: WhaleSaid[]
}

/** A card's text field, line endings normalised (cards made on Windows carry CRLF). */
const text = (value: unknown): string => (typeof value === 'string' ? value.replace(/\r\n?/g, '\n').trim() : '')
/** A card's name, creator or version as text: a number or a yes/no some editors write there is kept as written, not dropped. */
const cardValue = (value: unknown): string => (typeof value === 'number' || typeof value === 'boolean' ? String(value) : text(value))

/**
 * SillyTavern's `{{original}}` in a card's system_prompt stands for its own
 * default system prompt. Here the engine's own system prompt is always there
 * and the contracts come after it, so the macro is dropped, never kept as
 * the literal contract "{{original}}" (docs/decisions/052).
 */
const ORIGINAL = /\{\{\s*original\s*\}\}/gi
const promptWithoutOriginal = (prompt: string): string => prompt.replace(ORIGINAL, '').trim()

function isPresent(value: unknown): boolean {
  if (value === undefined || value === null) return false
  if (typeof value === 'string') return value.trim() !== ''
  if (Array.isArray(value)) return value.length > 0
  return true
}

function tagsOf(value: unknown): string[] {
  if (Array.isArray(value)) {
    return value
      .filter((t) => typeof t === 'string' || typeof t === 'number')
      .map(String)
      .filter((t) => t.trim() !== '')
      .slice(0, MAX_TAGS)
  }
  // One string of tags, as older cards write them: split at commas, as SillyTavern reads it.
  if (typeof value !== 'string') return []
  return value
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '')
    .slice(0, MAX_TAGS)
}

/** How export writes contracts into system_prompt; import compares against it. */
function promptFromContracts(contracts: unknown[]): string {
  return contracts
    .filter((c): c is JsonRecord => isRecord(c) && c.on !== false && typeof c.text === 'string' && c.text.trim() !== '')
    .map((c) => '- ' + String(c.text).trim())
    .join('\n')
}

/** A tavern card (v1 or v2/v3 family) → preset + report. Call only after detectCard said tavern-*. */
export function fromTavern(raw: JsonRecord, kind: 'tavern-v2' | 'tavern-v1'): ImportReport {
  const d = kind === 'tavern-v2' && isRecord(raw.data) ? raw.data : raw
  // The report names a card's fields as the spec's table does (`data.*`), a v1 card's top-level ones too
  // (docs/whale-interop.md: `data.<key>` for unknown keys; decision 299).
  const at = 'data.'
  const mapped: string[] = []
  const unmapped: string[] = []
  const notes = new WhaleNotes()
  const notText: string[] = []
  const take = (field: string): string => {
    const value = text(d[field])
    if (value) mapped.push(field)
    else if (isPresent(d[field]) && typeof d[field] !== 'string') notText.push(at + field)
    return value
  }

  const name = cardValue(d.name) || 'imported-card'
  const description = take('description')
  const personality = take('personality')
  const scenario = take('scenario')
  const rawPrompt = take('system_prompt')
  const systemPrompt = promptWithoutOriginal(rawPrompt)
  if (systemPrompt !== rawPrompt)
    notes.add(
      `${at}system_prompt's {{original}} (SillyTavern's own default system prompt) is dropped: here the engine's own system prompt always comes first and the contracts after it.`,
      'note.original-dropped',
      { field: `${at}system_prompt` },
    )
  if (rawPrompt !== '' && systemPrompt === '') mapped.splice(mapped.indexOf('system_prompt'), 1)
  const postHistory = take('post_history_instructions')
  const tags = tagsOf(d.tags)
  if (tags.length) mapped.push('tags')

  // A v1 card's top level also holds what v2 moved into data; spec/spec_version are not fields of the character.
  const v1Envelope = new Set(kind === 'tavern-v1' ? ['spec', 'spec_version', 'data'] : [])
  for (const key of Object.keys(d)) if (!KNOWN_CARD_FIELDS.has(key) && !v1Envelope.has(key)) unmapped.push(at + key)
  for (const key of HOST_ONLY_FIELDS) if (isPresent(d[key])) unmapped.push(at + key)

  const persona: Preset['persona'] = {}
  const character = [description, scenario ? '【场景】\n' + scenario : ''].filter(Boolean).join('\n\n')
  if (character) persona.character = character
  if (personality) persona.stance = personality
  const contracts = contractsFromPrompt(systemPrompt)
  if (contracts.length) persona.contracts = contracts
  else if (systemPrompt) {
    // a "mapped" claim with nothing behind it would be a lie (spec §4.6)
    mapped.splice(mapped.indexOf('system_prompt'), 1)
    unmapped.push(at + 'system_prompt')
    notes.add('system_prompt gave no usable contract line (each must be 2–300 characters); split it by hand into lines.', 'note.no-contract')
  }
  if (contracts.length >= MAX_CONTRACTS)
    notes.add(`system_prompt had more lines than the limit; only the first ${MAX_CONTRACTS} contracts were kept.`, 'note.contracts-cut', {
      max: MAX_CONTRACTS,
    })
  if (postHistory) persona.suffix = postHistory

  const creator = cardValue(d.creator)
  const version = cardValue(d.character_version)
  const preset: ImportedPreset = {
    id: slugId(name),
    label: name,
    description: '从 SillyTavern 角色卡导入' + (version ? `（卡片版本 ${version}）` : ''),
    author: creator,
    tags,
    persona,
    source: { kind, name, creator, characterVersion: version },
  }

  const extensions = isRecord(d.extensions) ? d.extensions : null
  if (extensions) {
    const own = extensions[EXTENSION_KEY]
    if (isRecord(own)) {
      restoreOwnFields(preset, own, { description, scenario, personality, systemPrompt: rawPrompt, postHistory }, notes)
      mapped.push(`extensions.${EXTENSION_KEY}`)
    }
    const others = Object.fromEntries(Object.entries(extensions).filter(([k]) => k !== EXTENSION_KEY))
    if (Object.keys(others).length) {
      preset.extensions = cloneJson(others)
      notes.add(`Kept extensions ${Object.keys(others).join(', ')} unchanged for a later export; this engine does not use them.`, 'note.extensions-kept', {
        keys: Object.keys(others).join(', '),
      })
    }
  }
  // SillyTavern fills its name macros in at each turn; here they reach the model as written.
  const macros = tavernMacrosIn([description, personality, scenario, rawPrompt, postHistory].join('\n'))
  if (macros.length > 0)
    notes.add(
      `Name macros kept as written: ${macros.join(', ')}. SillyTavern fills them in with the character's and your names; nothing does here (edit the preset to say the names).`,
      'note.macros-kept',
      { macros: macros.join(', ') },
    )
  // A number, list or object where SillyTavern writes text: not taken, and said, never dropped unnamed.
  if (notText.length > 0)
    notes.add(
      `Not taken: ${notText.join(', ')} (not text: SillyTavern writes these as text; write the value as text in the card to carry it).`,
      'note.not-text',
      { fields: notText.join(', ') },
    )
  const alsoLeft = QUIETLY_KNOWN.filter((key) => isPresent(d[key])).map((key) => at + key)
  if (alsoLeft.length > 0)
    notes.add(
      `Also not taken: ${alsoLeft.join(', ')} (this engine has no place for them; SillyTavern shows a nickname in place of {{char}}).`,
      'note.also-not-taken',
      {
        fields: alsoLeft.join(', '),
      },
    )
  if (unmapped.length)
    notes.add(
      'Not taken (they need host features such as greetings, example dialogue or lorebooks, or are unknown): ' + unmapped.join(', '),
      'note.not-taken',
      {
        fields: unmapped.join(', '),
      },
    )
  // Named in the report's list of fields not taken too (after the note on host features, which is not why).
  unmapped.push(...notText)
  neverSwitches(notes)
  return { preset, mapped, unmapped, notes: notes.en, notesSaid: notes.said }
}

/** The note every import ends with. */
export function neverSwitches(notes: WhaleNotes): void {
  notes.add('An import never switches the persona on: check it with `cyrene whale presets show <id>` and apply it yourself.', 'note.never-switches')
}

/** The card's text fields as `text` read them: line endings normalised, trimmed, `{{original}}` still in. */
interface VisibleFields {
  description: string
  scenario: string
  personality: string
  systemPrompt: string
  postHistory: string
}

/** Persona keys that only this engine has; the reference stores them in the extension too. */
const ENGINE_ONLY_KEYS = ['userName', 'selfNameFlash', 'selfNamePro', 'selfNameByModel', 'tone', 'appearance'] as const

/**
 * `extensions.whale_persona` restores what the visible card fields cannot
 * carry. Engine-only keys are taken as they are. `stance` from the extension
 * wins when it is not empty, as in the reference. `character`, `contracts` and
 * `suffix` are there only when the visible field could not carry them exactly
 * (see toTavern); they are restored only while the visible field still says
 * what the export wrote, so a card edited in another tool keeps the edit. The
 * copy is compared as the visible field was read (`text`): a CRLF the export
 * wrote comes back as LF, and must not read as an edit.
 */
function restoreOwnFields(preset: ImportedPreset, own: JsonRecord, visible: VisibleFields, notes: WhaleNotes): void {
  for (const key of ENGINE_ONLY_KEYS) {
    const value = own[key]
    if (value !== undefined && value !== null && validPersonaValue(key, value)) preset.persona[key] = cloneJson(value)
  }
  if (typeof own.stance === 'string' && (own.stance !== '' || !visible.personality)) preset.persona.stance = own.stance
  const visibleAgrees: Record<'character' | 'contracts' | 'suffix', (value: unknown) => boolean> = {
    character: (v) => typeof v === 'string' && !visible.scenario && visible.description === text(v),
    contracts: (v) => Array.isArray(v) && visible.systemPrompt === text(promptFromContracts(v)),
    suffix: (v) => typeof v === 'string' && visible.postHistory === text(v),
  }
  for (const key of ['character', 'contracts', 'suffix'] as const) {
    if (own[key] === undefined) continue
    if (visibleAgrees[key](own[key])) preset.persona[key] = cloneJson(own[key])
    else
      notes.add(`The card's ${key} differs from the copy in extensions.${EXTENSION_KEY}; kept the card's visible text.`, 'note.visible-kept', {
        key,
        extension: EXTENSION_KEY,
      })
  }
  if (typeof own.thinkingLanguage === 'string') preset.thinkingLanguage = own.thinkingLanguage
}

/** What importing a visible field gives back; export stores a copy only when this differs. */
function survivesVisibly(key: 'character' | 'contracts' | 'suffix', value: unknown): boolean {
  // an empty list survives no better than an empty string: import would leave contracts out, and apply would then keep the live ones
  if (key === 'contracts')
    return Array.isArray(value) && value.length > 0 && jsonEqual(contractsFromPrompt(promptWithoutOriginal(text(promptFromContracts(value)))), value)
  return typeof value === 'string' && value !== '' && value === text(value)
}

/** Preset → SillyTavern v2 card, with this engine's fields under `extensions.whale_persona` (spec §4.6). */
export function toTavern(preset: Omit<Preset, 'spec'> & { extensions?: JsonRecord }): JsonRecord {
  // A card that came from SillyTavern keeps its own creator and version on the way back.
  const p = preset.persona
  const name = preset.label || preset.id || 'persona'
  // the reference's fields, plus a copy of any field the visible card cannot carry exactly
  const own: JsonRecord = { spec: PRESET_SPEC }
  for (const key of [...ENGINE_ONLY_KEYS, 'stance'] as const) if (p[key] !== undefined) own[key] = cloneJson(p[key])
  for (const key of ['character', 'contracts', 'suffix'] as const) if (p[key] !== undefined && !survivesVisibly(key, p[key])) own[key] = cloneJson(p[key])
  if (typeof preset.thinkingLanguage === 'string') own.thinkingLanguage = preset.thinkingLanguage
  const otherExtensions = isRecord(preset.extensions) ? Object.fromEntries(Object.entries(preset.extensions).filter(([k]) => k !== EXTENSION_KEY)) : {}
  return {
    spec: 'chara_card_v2',
    spec_version: '2.0',
    data: {
      name,
      description: typeof p.character === 'string' ? p.character : '',
      personality: typeof p.stance === 'string' ? p.stance : '',
      scenario: '',
      first_mes: '',
      mes_example: '',
      creator_notes:
        'Exported from a whale-persona preset. It carries the system-prompt side of a persona only: no greeting, example dialogue or lorebook. ' +
        `Names, self-names, tone, appearance, thinking language and the full contract list are kept in extensions.${EXTENSION_KEY}, so importing this card into a whale-persona implementation restores the preset exactly.`,
      system_prompt: Array.isArray(p.contracts) ? promptFromContracts(p.contracts) : '',
      post_history_instructions: typeof p.suffix === 'string' ? p.suffix : '',
      alternate_greetings: [],
      character_book: null,
      tags: [...preset.tags],
      // An imported card's own creator and version go back as they came (spec §4.6 keeps them in source).
      creator: preset.source !== undefined ? preset.source.creator : preset.author || 'whale-persona',
      character_version: preset.source !== undefined ? preset.source.characterVersion : '1.0',
      extensions: { ...cloneJson(otherExtensions), [EXTENSION_KEY]: own },
    },
  }
}
