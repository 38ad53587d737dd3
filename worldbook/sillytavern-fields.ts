/**
 * SillyTavern's World Info fields, read the way SillyTavern reads them, and
 * what becomes of each here (CONTRACT#worldbook). Two shapes carry the same
 * fields: a world file (`entries: {uid: {key, keysecondary, order, …}}`,
 * SillyTavern's own names) and a card's `character_book` (`entries: [...]`
 * with the v2 names `keys`, `secondary_keys`, `insertion_order`, `enabled`,
 * and most of the rest under `extensions.*` in snake case, as SillyTavern's
 * convertCharacterBook reads them). Names in reports are the file's own.
 */

/** One source field the worldbook does not carry, with its value and what happens instead. */
export interface NotCarried {
  field: string
  value: unknown
  why: string
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
    if (enabled !== undefined) fields.set('disable', { value: enabled.value === false, path: 'enabled' })
    fields.delete('enabled')
  }
  return {
    get(name) {
      seen.add(name)
      return fields.get(name)
    },
    unread: () => [...fields.entries()].filter(([k]) => !seen.has(k)).map(([, f]) => f.path),
  }
}

const POSITIONS: Record<number, string> = {
  0: 'before the character definitions',
  1: 'after the character definitions',
  2: "at the top of the author's note",
  3: "at the bottom of the author's note",
  4: 'at a depth in the chat',
  5: 'at the top of the example messages',
  6: 'at the bottom of the example messages',
}

/** A v2 card book's own position words (SillyTavern: before_char → 0, anything else → 1). */
const CARD_POSITIONS: Record<string, string> = { before_char: POSITIONS[0]!, after_char: POSITIONS[1]! }

const present = (v: unknown) => v !== undefined && v !== null && v !== '' && !(Array.isArray(v) && v.length === 0)

/**
 * What the fields the worldbook has no place for would have done in
 * SillyTavern, and what happens here instead; only fields with a value
 * (SillyTavern's defaults for "nothing special" are not listed).
 */
export function notCarried(e: StEntry, constant: boolean): NotCarried[] {
  const out: NotCarried[] = []
  const say = (name: string, why: string, when: (v: unknown) => boolean = present) => {
    const f = e.get(name)
    if (f !== undefined && when(f.value)) out.push({ field: f.path, value: f.value, why })
  }
  const place = constant
    ? 'a constant entry stands in rail 140, before the conversation'
    : 'a keyword entry comes in the pre-step hit block, just before the step'
  const pos = e.get('position')
  if (pos !== undefined && present(pos.value)) {
    const where = typeof pos.value === 'number' ? POSITIONS[pos.value] : CARD_POSITIONS[String(pos.value)]
    out.push({ field: pos.path, value: pos.value, why: `${where ?? 'an unknown position'} in SillyTavern; here ${place}` })
  }
  const atDepth = pos?.value === 4
  say(
    'depth',
    atDepth
      ? `how deep in the chat it goes at position 4; here ${place}`
      : 'SillyTavern uses it only at position 4 (at a depth), so it had no effect there either',
  )
  say(
    'role',
    atDepth ? 'the message role at position 4; here the worldbook is always a system-side data block' : 'SillyTavern uses it only at position 4; no effect',
  )
  const useProbability = e.get('useProbability')?.value !== false
  say(
    'probability',
    useProbability ? 'not honoured: it comes in every time its keys match (no dice)' : 'useProbability is off, so it had no effect there either',
    (v) => typeof v === 'number' && v < 100,
  )
  say('scanDepth', "its own scan depth: here the keys are looked for in the person's last 1–3 messages (worldbook.recentMessages) for every entry")
  say('group', 'inclusion groups: every entry that matches comes in, by priority')
  say('groupOverride', 'inclusion groups are not kept', (v) => v === true)
  say('groupWeight', 'inclusion groups are not kept', (v) => typeof v === 'number' && v !== 100)
  say('useGroupScoring', 'inclusion groups are not kept', (v) => v === true)
  for (const timed of ['sticky', 'cooldown', 'delay'])
    say(timed, 'timed effects are not kept: an entry is in a step when its keys match in that step', (v) => typeof v === 'number' && v !== 0)
  say('excludeRecursion', "no recursion here: an entry's text never calls up other entries", (v) => v === true)
  say('preventRecursion', 'no recursion here', (v) => v === true)
  say('delayUntilRecursion', 'no recursion here', (v) => v === true || (typeof v === 'number' && v > 0))
  say('vectorized', 'no vector matching: only its keys call it up', (v) => v === true)
  say('automationId', 'no automations here')
  say('characterFilter', 'no character filter: there is one companion', (v) => typeof v === 'object' && v !== null && Object.values(v).some(present))
  say('triggers', 'no generation-type triggers: it may come in at every step')
  say('ignoreBudget', 'the hit block keeps its 800-character cap for every entry', (v) => v === true)
  say('outletName', 'no outlets: the entry goes where its kind goes')
  for (const m of [
    'matchPersonaDescription',
    'matchCharacterDescription',
    'matchCharacterPersonality',
    'matchCharacterDepthPrompt',
    'matchScenario',
    'matchCreatorNotes',
  ])
    say(m, "keys are looked for only in the person's messages", (v) => v === true)
  say('priority', "the v2 book's own priority (SillyTavern orders by insertion_order, and so does this import)")
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
  ])
    e.get(quiet)
  for (const path of e.unread()) out.push({ field: path, value: undefined, why: 'a field the worldbook does not know: not carried' })
  return out
}

/** The book's own settings (a card's `character_book`); a world file has none — SillyTavern keeps them in its global settings. */
export function bookNotCarried(book: Record<string, unknown>): NotCarried[] {
  const out: NotCarried[] = []
  const say = (field: string, why: string) => {
    if (present(book[field])) out.push({ field, value: book[field], why })
  }
  say('scan_depth', "here the keys are looked for in the person's last 1–3 messages (worldbook.recentMessages)")
  say('token_budget', "here the caps are 560 characters for constant entries (rail 140) and 800 for a step's keyword hits")
  say('recursive_scanning', "no recursion here: an entry's text never calls up other entries")
  say('name', 'the entries are files in 世界书/; the book has no name of its own')
  say('description', 'not carried')
  if (typeof book.extensions === 'object' && book.extensions !== null)
    for (const k of Object.keys(book.extensions))
      out.push({ field: `extensions.${k}`, value: (book.extensions as Record<string, unknown>)[k], why: 'not carried' })
  return out
}
