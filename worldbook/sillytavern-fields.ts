/**
 * SillyTavern's World Info fields, read the way SillyTavern reads them, and
 * what becomes of each here (CONTRACT#worldbook). Two shapes carry the same
 * fields: a world file (`entries: {uid: {key, keysecondary, order, …}}`,
 * SillyTavern's own names) and a card's `character_book` (`entries: [...]`
 * with the v2 names `keys`, `secondary_keys`, `insertion_order`, `enabled`,
 * and most of the rest under `extensions.*` in snake case, as SillyTavern's
 * convertCharacterBook reads them). Names in reports are the file's own.
 */
import { note, type ImportNote, type ImportNoteCode } from './import-notes.ts'
import { HITS_CAP, RAIL_CAP } from './render.ts'
import { DEFAULT_PRIORITY } from './entry.ts'

/** One source field the worldbook does not carry, with its value and what happens instead. */
export interface NotCarried {
  field: string
  value: unknown
  why: ImportNote
}

/** An entry in SillyTavern's world-file terms, each value with the name it had in the file. */
export interface StEntry {
  get(name: string): { value: unknown; path: string } | undefined
  /** Every field of the source entry not read by `get` so far (for "unknown field" notes). */
  unread(): string[]
}

/** v2 card-book name → world-file name, for the fields at the entry's top level. */
const CARD_TOP: Record<string, string> = {
  keys: 'key',
  secondary_keys: 'keysecondary',
  insertion_order: 'order',
  id: 'uid',
  case_sensitive: 'caseSensitive',
  // Character Card V3: every key of the entry is a regular expression.
  use_regex: 'useRegex',
}

/** v2 `extensions.*` name → world-file name (SillyTavern's convertCharacterBook). */
const CARD_EXT: Record<string, string> = {
  position: 'position',
  depth: 'depth',
  probability: 'probability',
  useProbability: 'useProbability',
  selectiveLogic: 'selectiveLogic',
  group: 'group',
  group_override: 'groupOverride',
  group_weight: 'groupWeight',
  scan_depth: 'scanDepth',
  case_sensitive: 'caseSensitive',
  match_whole_words: 'matchWholeWords',
  use_group_scoring: 'useGroupScoring',
  automation_id: 'automationId',
  role: 'role',
  vectorized: 'vectorized',
  sticky: 'sticky',
  cooldown: 'cooldown',
  delay: 'delay',
  exclude_recursion: 'excludeRecursion',
  prevent_recursion: 'preventRecursion',
  delay_until_recursion: 'delayUntilRecursion',
  display_index: 'displayIndex',
  // What newer SillyTavern writes into a card's book as well.
  match_persona_description: 'matchPersonaDescription',
  match_character_description: 'matchCharacterDescription',
  match_character_personality: 'matchCharacterPersonality',
  match_character_depth_prompt: 'matchCharacterDepthPrompt',
  match_scenario: 'matchScenario',
  match_creator_notes: 'matchCreatorNotes',
  triggers: 'triggers',
  ignore_budget: 'ignoreBudget',
  outlet_name: 'outletName',
  character_filter: 'characterFilter',
}

export function stEntry(raw: Record<string, unknown>, card: boolean): StEntry {
  const fields = new Map<string, { value: unknown; path: string }>()
  const seen = new Set<string>()
  for (const [k, v] of Object.entries(raw)) if (!(card && k === 'extensions')) fields.set(card ? (CARD_TOP[k] ?? k) : k, { value: v, path: k })
  const ext = raw.extensions
  if (card && typeof ext === 'object' && ext !== null && !Array.isArray(ext))
    // SillyTavern reads these from extensions first (`extensions.x ?? …`): a value there wins over a top-level one.
    for (const [ek, ev] of Object.entries(ext as Record<string, unknown>)) {
      const name = CARD_EXT[ek] ?? `extensions.${ek}`
      if (ev !== null && ev !== undefined) fields.set(name, { value: ev, path: `extensions.${ek}` })
      else if (!fields.has(name)) fields.set(name, { value: ev, path: `extensions.${ek}` })
    }
  if (card) {
    const enabled = fields.get('enabled')
    // SillyTavern converts it with `disable: !entry.enabled`: false, 0, null and "" all switch the entry off. An entry with
    // no `enabled` at all (which a v2 card must have) stays on: switching it off unasked would lose it silently (decision 136).
    if (enabled !== undefined) fields.set('disable', { value: !enabled.value, path: 'enabled' })
    fields.delete('enabled')
  }
  return {
    get(name) {
      seen.add(name)
      return fields.get(name)
    },
    unread: () => [...fields.entries()].filter(([k, f]) => !seen.has(k) && present(f.value) && f.value !== false).map(([, f]) => f.path),
  }
}

/** SillyTavern's positions 0–6, by the code that words them. */
const POSITIONS: Record<number, ImportNoteCode> = {
  0: 'position-0',
  1: 'position-1',
  2: 'position-2',
  3: 'position-3',
  4: 'position-4',
  5: 'position-5',
  6: 'position-6',
}

/**
 * Why SillyTavern put an entry's text in no prompt, when it did: its prompt has a case for positions 0–6 only; 7 (an
 * outlet) is shown only where a `{{outlet::name}}` macro asks for it, and any other value (8, -1, the text "4") falls
 * through, read and counted but placed nowhere. A card book's `position` words always become 0 or 1 there, so only
 * its `extensions.position` is taken as written (decision 321).
 */
export function placedNowhere(e: StEntry, card: boolean): ImportNote | undefined {
  const pos = e.get('position')
  if (pos === undefined || pos.value === null || pos.value === undefined || (card && pos.path === 'position')) return undefined
  if (typeof pos.value === 'number' && POSITIONS[pos.value] !== undefined) return undefined
  const outlet = e.get('outletName')?.value
  if (pos.value === 7) return note('position-outlet', { name: JSON.stringify(typeof outlet === 'string' ? outlet.trim() : '') })
  return note('position-nowhere', { value: JSON.stringify(pos.value) })
}

/**
 * An entry SillyTavern rolls for and can never pass: with `useProbability` on (a card book's absent one is on, a world
 * file's absent one off) it comes in when `random() * 100 <= probability`, which at 0 or below it never is.
 */
export function neverPassesRoll(e: StEntry, card: boolean): ImportNote | undefined {
  const rolls = Boolean(e.get('useProbability')?.value ?? card)
  const probability = e.get('probability')
  const value = probability?.value
  const number = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN
  return rolls && Number.isFinite(number) && number <= 0 ? note('probability-never', { value: JSON.stringify(value) }) : undefined
}

/** A v2 card book's own position words (SillyTavern: before_char → 0, anything else → 1). */
const CARD_POSITIONS: Record<string, ImportNoteCode> = { before_char: POSITIONS[0]!, after_char: POSITIONS[1]! }

const present = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)

/**
 * What the fields the worldbook has no place for would have done in
 * SillyTavern, and what happens here instead; only fields with a value
 * (SillyTavern's defaults for "nothing special" are not listed).
 */
export function notCarried(e: StEntry, constant: boolean, card = false): NotCarried[] {
  const out: NotCarried[] = []
  const say = (name: string, why: ImportNote, when: (v: unknown) => boolean = present) => {
    const f = e.get(name)
    if (f !== undefined && when(f.value)) out.push({ field: f.path, value: f.value, why })
  }
  const place = note(constant ? 'place-rail' : 'place-hits')
  const pos = e.get('position')
  if (pos !== undefined && present(pos.value)) {
    const where = typeof pos.value === 'number' ? (pos.value === 7 ? 'position-7' : POSITIONS[pos.value]) : CARD_POSITIONS[String(pos.value)]
    out.push({ field: pos.path, value: pos.value, why: note('position', { where: note(where ?? 'position-unknown'), place }) })
  }
  const atDepth = pos?.value === 4
  say('depth', atDepth ? note('depth-at', { place }) : note('depth-unused'))
  say('role', note(atDepth ? 'role-at' : 'role-unused'))
  const useProbability = e.get('useProbability')?.value !== false
  // SillyTavern compares the roll with the value as it is: "30" counts as 30.
  // A roll it never passes is said once, with the entry switched off (neverPassesRoll), not as "comes in every time".
  const never = neverPassesRoll(e, card) !== undefined
  say(
    'probability',
    note(useProbability ? 'probability-ignored' : 'probability-off'),
    (v) => !never && (typeof v === 'number' || (typeof v === 'string' && v.trim() !== '')) && Number(v) < 100,
  )
  say('scanDepth', note('scan-depth'))
  say('group', note('group'))
  say('groupOverride', note('groups-not-kept'), (v) => v === true)
  say('groupWeight', note('groups-not-kept'), (v) => typeof v === 'number' && v !== 100)
  say('useGroupScoring', note('groups-not-kept'), (v) => v === true)
  for (const timed of ['sticky', 'cooldown', 'delay']) say(timed, note('timed'), (v) => typeof v === 'number' && v !== 0)
  say('excludeRecursion', note('no-recursion-calls'), (v) => v === true)
  say('preventRecursion', note('no-recursion'), (v) => v === true)
  say('delayUntilRecursion', note('no-recursion'), (v) => v === true || (typeof v === 'number' && v > 0))
  say('vectorized', note('vectorized'), (v) => v === true)
  say('automationId', note('automation'))
  // SillyTavern filters by a name or a tag it lists; `isExclude` alone (an emptied filter keeps it) filters nothing.
  say(
    'characterFilter',
    note('character-filter'),
    (v) => typeof v === 'object' && v !== null && ['names', 'tags'].some((k) => present((v as Record<string, unknown>)[k])),
  )
  say('triggers', note('triggers'))
  say('ignoreBudget', note('ignore-budget', { cap: HITS_CAP }), (v) => v === true)
  say('outletName', note('outlet'))
  for (const m of [
    'matchPersonaDescription',
    'matchCharacterDescription',
    'matchCharacterPersonality',
    'matchCharacterDepthPrompt',
    'matchScenario',
    'matchCreatorNotes',
  ])
    say(m, note('match-elsewhere'), (v) => v === true)
  say('priority', note('v2-priority'))
  // SillyTavern sorts by the value as it is; one that is no number here gets the default, said.
  say('order', note('order-not-number', { priority: DEFAULT_PRIORITY }), (v) => present(v) && !Number.isFinite(Number(v)))
  // Read or known to mean nothing outside SillyTavern's editor.
  for (const quiet of [
    'uid',
    'displayIndex',
    'addMemo',
    'name',
    'comment',
    'content',
    'key',
    'keysecondary',
    'selective',
    'selectiveLogic',
    'constant',
    'order',
    'disable',
    'caseSensitive',
    'matchWholeWords',
    'useProbability',
    'useRegex',
  ])
    e.get(quiet)
  // A field no one set (empty, off) changes nothing, known or not.
  for (const path of e.unread()) out.push({ field: path, value: undefined, why: note('unknown-field') })
  return out
}

/**
 * A world file's fields besides its entries. SillyTavern reads only `entries` (its settings are global);
 * `originalData`, the card book a world was converted from, it keeps for export and never reads. Anything
 * else a tool wrote there is named, so nothing is dropped without a word.
 */
export function worldNotCarried(world: Record<string, unknown>): NotCarried[] {
  return Object.entries(world)
    .filter(([field, value]) => field !== 'entries' && field !== 'originalData' && present(value))
    .map(([field, value]) => ({ field, value, why: note('not-carried') }))
}

/** The book's own settings (a card's `character_book`); a world file has none — SillyTavern keeps them in its global settings. */
export function bookNotCarried(book: Record<string, unknown>): NotCarried[] {
  const out: NotCarried[] = []
  const say = (field: string, why: ImportNote) => {
    if (present(book[field])) out.push({ field, value: book[field], why })
  }
  say('scan_depth', note('book-scan-depth'))
  say('token_budget', note('book-token-budget', { rail: RAIL_CAP, hits: HITS_CAP }))
  say('recursive_scanning', note('no-recursion-calls'))
  say('name', note('book-name'))
  say('description', note('not-carried'))
  if (typeof book.extensions === 'object' && book.extensions !== null)
    for (const k of Object.keys(book.extensions))
      out.push({ field: `extensions.${k}`, value: (book.extensions as Record<string, unknown>)[k], why: note('not-carried') })
  return out
}
