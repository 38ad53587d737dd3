import { DEFAULT_PRIORITY, formatEntry, type EntryFields, type SecondaryLogic, type WorldEntry } from './entry.ts'
import { entryLine, HITS_CAP, RAIL_CAP, roomForOne } from './render.ts'
import { bookNotCarried, neverPassesRoll, notCarried, placedNowhere, stEntry, worldNotCarried, type NotCarried, type StEntry } from './sillytavern-fields.ts'
import { charCount } from '../prompt/index.ts'
import { note, type ImportNote } from './import-notes.ts'
import { tavernMacrosIn } from '../whale/index.ts'
import { otherLorebook, type OtherLorebook } from './other-lorebooks.ts'
import { patternKey } from './pattern-key.ts'

export type { NotCarried } from './sillytavern-fields.ts'

/**
 * SillyTavern World Info → worldbook entry files. Reads a world file
 * (`{"entries": {"0": {...}, "1": {...}}}`) and a character card's embedded
 * book (`character_book`, `entries` as a list with the v2 names). Pure: JSON
 * value in, file names and texts out; writing is the caller's.
 *
 * Carried: keys, secondary keys (only when `selective` is on: SillyTavern
 * ignores them otherwise; a card book's `selective` is off unless set, as
 * SillyTavern reads it), `selectiveLogic`, `constant`, `order` /
 * `insertion_order` → priority, `disable` / `enabled`, `comment` / `name` →
 * title and file name, `content` → body, `matchWholeWords` (absent: SillyTavern's
 * default `world_info_match_whole_words = false`, substring) and
 * `caseSensitive` (absent: its default, false). Regex keys are dropped with a
 * note. Every other field with a value is named per entry with what happens
 * instead (sillytavern-fields.ts). An entry too long to be shown alone in its
 * block is split at line breaks into parts that each fit; one with a single
 * paragraph too long is written switched off with its size and the cap
 * (docs/decisions/051).
 */

const LOGIC: Record<number, SecondaryLogic> = { 0: 'and-any', 1: 'not-all', 2: 'not-any', 3: 'and-all' }

/** SillyTavern's own names for the four (its `world_info_logic`), in any case, `_`, `-` or a space between the words. */
const LOGIC_NAMES: Record<string, SecondaryLogic> = { and_any: 'and-any', not_all: 'not-all', not_any: 'not-any', and_all: 'and-all' }

/**
 * `selectiveLogic` as SillyTavern reads it (decision 312). Its scan compares the value with the numbers 0–3 as
 * they are (absent or null: 0); its editor, which shows an imported world at once, saves a `"2"` back as the number
 * 2. Anything else (`"NOT_ANY"`, 4, `true`, `""`) matches none of the four there (`read: false`); the logic its
 * name says is kept for the person to switch on.
 */
function logicOf(raw: unknown): { logic: SecondaryLogic; read: boolean; named: boolean } {
  if (raw === undefined || raw === null) return { logic: 'and-any', read: true, named: false }
  const numeric = typeof raw === 'number' ? raw : typeof raw === 'string' && /^\s*[0-3]\s*$/.test(raw) ? Number(raw) : undefined
  const byNumber = numeric === undefined ? undefined : LOGIC[numeric]
  if (byNumber !== undefined) return { logic: byNumber, read: true, named: false }
  const byName =
    typeof raw === 'string'
      ? LOGIC_NAMES[
          raw
            .trim()
            .toLowerCase()
            .replace(/[\s-]+/g, '_')
        ]
      : undefined
  return { logic: byName ?? 'and-any', read: false, named: byName !== undefined }
}

export interface ImportedEntry {
  /** File name without `.md`, unique within the import. */
  name: string
  fields: EntryFields
  /** The file text to write. */
  text: string
  /** What did not carry over or was changed, for the person to read (coded; the caller words it). */
  notes: ImportNote[]
  /** Source fields carried, by their names in the file. */
  kept: string[]
  /** How its keys match, and why. */
  matching: ImportNote
  /** Source fields not carried, each with what happens instead. */
  notCarried: NotCarried[]
  /** Where it was in the source (`entries.<uid>`). */
  origin: string
  /** When the source entry was split: this part's number and the count. */
  part?: { index: number; of: number; chars: number; cap: number }
}

export interface ImportPlan {
  entries: ImportedEntry[]
  /** Source entries that could not become an entry at all (no content), with why. */
  refused: { origin: string; why: ImportNote }[]
  /** The book's own settings not carried (a card's `character_book`). */
  book: NotCarried[]
}

/** A file that is not World Info at all; `note` says which way. */
export class ImportFormatError extends Error {
  readonly note: ImportNote
  constructor(why: ImportNote) {
    super(why.code)
    this.note = why
  }
}

const REGEX_KEY_RE = /^\/(.+)\/([a-z]*)$/s

function keysOf(value: unknown): string[] {
  // One string of keys, comma-joined (not SillyTavern's own shape); a whole `/…/flags` is one key, its commas its own.
  if (typeof value === 'string') return REGEX_KEY_RE.test(value.trim()) ? [value] : value.split(',')
  return Array.isArray(value) ? value.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map(String) : []
}

/**
 * A character that makes a pattern more than its own text. A key of a V3 entry with `use_regex` that has none
 * (`lighthouse`) matches the same text as a pattern and as a word, so it is kept (decision 303).
 */
const PATTERN_CHARS = /[\\^$.|?*+()[\]{}]/

/**
 * The keys as the worldbook matches them. A `/…/flags` key stays a pattern, as SillyTavern reads it
 * (pattern-key.ts), unless it needs what the worldbook's engine lacks (look-ahead, back-references):
 * then it is dropped with a note and the reason (decision 333). A key with pattern characters in an
 * entry with `use_regex` is dropped with a note too (SillyTavern writes `use_regex: true` on every entry
 * of a card it exports, and reads no key as a pattern unless it is `/…/`: decision 303).
 */
function cleanKeys(value: unknown, notes: ImportNote[], secondary: boolean, useRegex = false): string[] {
  const out: string[] = []
  for (const raw of keysOf(value)) {
    const key = raw.trim()
    if (key === '') continue
    const pattern = patternKey(key)
    if (pattern?.kind === 'unsupported') {
      notes.push(note(secondary ? 'secondary-pattern-unsupported' : 'pattern-unsupported', { key: JSON.stringify(key), why: pattern.why }))
      continue
    }
    if (pattern === undefined && useRegex && (REGEX_KEY_RE.test(key) || PATTERN_CHARS.test(key))) {
      notes.push(note(secondary ? 'regex-secondary-key' : 'regex-key', { key: JSON.stringify(key) }))
      continue
    }
    if (!out.includes(key)) out.push(key)
  }
  return out
}

const oneLine = (text: string): string => text.replace(/\s+/g, ' ').trim()

/** A file name a person recognises, safe on every file system; '' when nothing usable is left. */
export function fileNameFor(title: string): string {
  const name = title
    .normalize('NFC')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f-\u009f/\\:*?"<>|]/g, ' ')
    // Direction and invisible format marks: a right-to-left override shows a name reversed (a file list that lies).
    .replace(BIDI_MARKS, '')
    .replace(/\s+/g, ' ')
    // No hidden file, no `..`: a name never starts with a dot.
    .replace(/^[.\s]+/, '')
    .trim()
  // 60 characters, and at most NAME_BYTES in UTF-8: a file name holds 255 bytes, and the part number,
  // a -2, .md and the atomic writer's temporary suffix still follow (59 emoji are 236 bytes).
  let cut = ''
  for (const char of [...name].slice(0, 60)) {
    if (Buffer.byteLength(cut + char) > NAME_BYTES) break
    cut += char
  }
  return notDeviceName(cut.trim())
}

/** Direction overrides, isolates and marks, a zero-width space and word joiner (not the joiners emoji and scripts need): they change how a name shows, not what it is. */
const BIDI_MARKS = /[\u061c\u200b\u200e\u200f\u202a-\u202e\u2060\u2066-\u2069\ufeff]/g

/** Windows's device names (`con`, `nul`, `com1`, …), which no file there can have, with or without an extension. */
const DEVICE_NAME = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\.|$)/i

/** A name Windows keeps for a device gets a `_` (`con` → `con_`): a store synced to Windows still checks out. */
function notDeviceName(name: string): string {
  return DEVICE_NAME.test(name) ? name.replace(/^[^.]+/, (stem) => `${stem}_`) : name
}

/** The most UTF-8 bytes of a title kept in a file name. */
const NAME_BYTES = 150

function uniqueName(base: string, taken: Set<string>): string {
  let name = base
  for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base}-${n}`
  taken.add(name.toLowerCase())
  return name
}

interface Source {
  entries: [string, Record<string, unknown>][]
  card: boolean
  book: Record<string, unknown>
  /** Another program's lorebook, read as SillyTavern converts it (other-lorebooks.ts). */
  other?: OtherLorebook
}

function entryList(json: unknown): Source {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw new ImportFormatError(note('format-not-object'))
  const root = json as Record<string, unknown>
  const isCard = (typeof root.spec === 'string' && root.spec.startsWith('chara_card')) || (typeof root.name === 'string' && typeof root.first_mes === 'string')
  const other = isCard ? undefined : otherLorebook(root)
  if (other !== undefined) {
    const list = root[other.list]
    // SillyTavern's conversion stops on a book without its list; said with the format, not as "no entries".
    if (!Array.isArray(list)) throw new ImportFormatError(note('format-other-no-entries', { format: other.named, list: other.list }))
    return { entries: list.map((e, i) => [`${other.list}[${i}]`, e as Record<string, unknown>]), card: false, book: root, other }
  }
  const cardBook = (root.data as Record<string, unknown> | undefined)?.character_book ?? root.character_book
  if (isCard && (cardBook === undefined || cardBook === null)) throw new ImportFormatError(bookElsewhere(root) ?? note('format-card-no-book'))
  // A character card carries its book under data.character_book (v2/v3) or character_book.
  const book = ((root.data as Record<string, unknown> | undefined)?.character_book ?? root.character_book ?? root) as Record<string, unknown>
  // A list is no book either (a converter that wrote the entries where the book goes): said as such, not as "no entries".
  if (typeof book !== 'object' || book === null || Array.isArray(book)) throw new ImportFormatError(note('format-book-not-object'))
  const entries = book.entries
  if (Array.isArray(entries)) return { entries: entries.map((e, i) => [`entries[${i}]`, e as Record<string, unknown>]), card: true, book }
  // A card's book keyed by id (some editors write it so) still has the card names (`keys`, `enabled`, …).
  if (typeof entries === 'object' && entries !== null)
    return { entries: Object.entries(entries as Record<string, unknown>).map(([k, e]) => [`entries.${k}`, e as Record<string, unknown>]), card: isCard, book }
  throw new ImportFormatError(note('format-no-entries'))
}

/**
 * A card with no `character_book` where SillyTavern reads it but one under `extensions` (an editor's or
 * a converter's place): named, so the person can move it, rather than "no book" (SillyTavern does not use it either).
 */
function bookElsewhere(root: Record<string, unknown>): ImportNote | undefined {
  const data = root.data as Record<string, unknown> | undefined
  for (const [at, holder] of [
    ['data.extensions', data?.extensions],
    ['extensions', root.extensions],
  ] as const) {
    const book = typeof holder === 'object' && holder !== null ? (holder as Record<string, unknown>).character_book : undefined
    if (typeof book === 'object' && book !== null) return note('format-card-book-elsewhere', { at: `${at}.character_book` })
  }
  return undefined
}

const yes = (f: { value: unknown } | undefined) => f?.value === true
/** JavaScript's truthiness, which SillyTavern's `if (entry.constant)` applies to a value of any type. */
const truthy = (f: { value: unknown } | undefined) => Boolean(f?.value)
/** SillyTavern's `entry.disable == true`: true, 1 and "1" switch an entry off; "true" does not. */
const looseTrue = (f: { value: unknown } | undefined): boolean => {
  const v = f?.value
  if (typeof v === 'boolean') return v
  if (typeof v === 'number') return v === 1
  return typeof v === 'string' && v.trim() !== '' && Number(v) === 1
}

/** A comment or name as a title: text or a number as written; anything else (an object, a list) is no title, never "[object Object]". */
const titleText = (value: unknown): string => (typeof value === 'string' || typeof value === 'number' ? String(value) : '')

/** The decorators SillyTavern acts on (its others, a V3 card's `@@depth 0` and the like, it takes out of the text and ignores). */
const KNOWN_DECORATORS = ['@@activate', '@@dont_activate']

/**
 * The `@@…` lines at the top of an entry's text, as SillyTavern reads them before each scan (decision 304): every
 * leading line starting `@@` is taken out of the text; one starting with a known decorator counts; a `@@@…` line is
 * a fallback, read only after an unknown one. Text that is nothing but such lines stays as it is there.
 */
function decoratorsOf(content: string): { decorators: string[]; others: string[]; body: string } {
  if (!content.startsWith('@@')) return { decorators: [], others: [], body: content }
  const lines = content.split('\n')
  const decorators: string[] = []
  const others: string[] = []
  let afterUnknown = false
  for (const [i, line] of lines.entries()) {
    if (!line.startsWith('@@')) return { decorators, others, body: lines.slice(i).join('\n') }
    if (line.startsWith('@@@') && !afterUnknown) {
      others.push(line)
      continue
    }
    const own = line.startsWith('@@@') ? line.slice(1) : line
    if (KNOWN_DECORATORS.some((d) => own.startsWith(d))) {
      decorators.push(own)
      afterUnknown = false
    } else {
      others.push(line)
      afterUnknown = true
    }
  }
  return { decorators, others, body: content }
}

/**
 * A card book entry SillyTavern wrote: its export always writes `extensions.selectiveLogic`, `useProbability` and
 * `depth` (each with a default when the world had none) beside `use_regex: true`, which no V3 editor that means
 * the flag writes all three of.
 */
function exportedBySillyTavern(e: StEntry): boolean {
  return ['selectiveLogic', 'useProbability', 'depth'].every((name) => e.get(name)?.path.startsWith('extensions.') === true)
}

/** One source entry's carried fields; undefined (with the reason pushed) when it has no content. */
function fieldsOf(e: StEntry, source: Source, notes: ImportNote[]): EntryFields | ImportNote {
  const card = source.card
  const rawContent = e.get('content')?.value
  const decorated = decoratorsOf(typeof rawContent === 'string' ? rawContent.replace(/\r\n?/g, '\n') : '')
  const content = decorated.body.trim()
  if (content === '') return note('no-content')
  // SillyTavern's own export writes `use_regex: true` on every entry and reads every key as text: there the flag means nothing (decision 322).
  const regex = e.get('useRegex')?.value === true && !(card && exportedBySillyTavern(e))
  const keys = cleanKeys(e.get('key')?.value, notes, false, regex)
  const selectiveField = e.get('selective')
  // SillyTavern: a world entry is selective unless it says otherwise; a card book's entry only when it says so; a
  // converted RisuAI entry when its `selective` is truthy.
  const selective = card ? yes(selectiveField) : source.other !== undefined ? truthy(selectiveField) : selectiveField?.value !== false
  const secondaryRaw = e.get('keysecondary')?.value
  const secondaryKeys = selective ? cleanKeys(secondaryRaw, notes, true, regex) : []
  if (!selective && keysOf(secondaryRaw).length > 0) notes.push(note('secondary-off'))
  const logicRaw = e.get('selectiveLogic')?.value
  const { logic, read: logicRead, named: logicNamed } = logicOf(logicRaw)
  const logicValue = JSON.stringify(logicRaw) ?? String(logicRaw)
  // SillyTavern checks the logic only for a selective entry with secondary keys (regular expressions count there).
  const logicMatters = selective && keysOf(secondaryRaw).length > 0
  // `@@activate` comes in at every step there (a constant entry here); `@@dont_activate` never comes in, constant or not.
  const activate = decorated.decorators.includes('@@activate')
  const dontActivate = decorated.decorators.includes('@@dont_activate')
  const constant = truthy(e.get('constant')) || activate
  const order = Number(e.get('order')?.value ?? source.other?.defaultOrder ?? DEFAULT_PRIORITY)
  // A card book's `enabled` is read as SillyTavern converts it (`disable: !entry.enabled`): stEntry set `disable` from it.
  let enabled = !looseTrue(e.get('disable'))
  if (activate && !truthy(e.get('constant'))) notes.push(note('decorator-activate'))
  if (dontActivate && enabled) {
    enabled = false
    notes.push(note('decorator-dont-activate'))
  }
  // Never in a prompt there (an outlet no macro here asks for, a position it has no case for, a roll it cannot pass): kept, switched off.
  const nowhere = placedNowhere(e, card) ?? neverPassesRoll(e, card)
  if (nowhere !== undefined && enabled) {
    enabled = false
    notes.push(nowhere)
  }
  // The rest did nothing there either (a known name followed by more, `@@activate_later`, is no match for it).
  const noEffect = [...decorated.others, ...decorated.decorators.filter((d) => !KNOWN_DECORATORS.includes(d))]
  if (noEffect.length > 0) notes.push(note('decorators-dropped', { lines: noEffect.map((l) => JSON.stringify(l)).join(', ') }))
  if (!logicRead && enabled && !constant && logicMatters) {
    // No logic there: its secondary keys never agree, so the entry never comes in; here it is kept, switched off.
    enabled = false
    notes.push(note('logic-never', { value: logicValue, logic }))
  } else if (!logicRead && !logicNamed) notes.push(note('logic-unknown', { value: logicValue }))
  if (enabled && !constant && keys.length === 0) {
    enabled = false
    notes.push(note('no-keys'))
  }
  // AND ANY / AND ALL with every secondary key dropped (regular expressions) would fire on the primary keys alone: wider than its author meant.
  if (
    enabled &&
    !constant &&
    secondaryKeys.length === 0 &&
    keysOf(secondaryRaw).some((k) => k.trim() !== '') &&
    selective &&
    (logic === 'and-any' || logic === 'and-all')
  ) {
    enabled = false
    notes.push(note('no-secondary-keys', { logic }))
  }
  // SillyTavern's macros ({{char}}, {{user}}) are filled in there at each step; here nothing fills them.
  const macros = tavernMacrosIn(content)
  if (macros.length > 0) notes.push(note('macros-kept', { macros: macros.join(', ') }))
  // A title is one line (the front matter's `title:` and the heading it is shown under): line breaks become spaces.
  const title = oneLine(titleText(e.get('comment')?.value) || titleText(e.get('name')?.value)) || keys[0] || 'entry'
  const fields: EntryFields = {
    title,
    keys,
    secondaryKeys,
    logic,
    constant,
    priority: Number.isFinite(order) ? order : DEFAULT_PRIORITY,
    enabled,
    body: content,
  }
  // SillyTavern: `entry.matchWholeWords ?? setting` (null or absent: the setting's default, false: substring, any
  // case), then truthiness ("true" and 1 are on, as there).
  fields.wholeWords = truthy(e.get('matchWholeWords'))
  if (truthy(e.get('caseSensitive'))) fields.caseSensitive = true
  return fields
}

/** The source fields this import carries, in SillyTavern's world-file names. */
const KEPT = [
  'key',
  'keysecondary',
  'selective',
  'selectiveLogic',
  'constant',
  'order',
  'disable',
  'comment',
  'name',
  'content',
  'matchWholeWords',
  'caseSensitive',
]

function matchingNote(e: StEntry, fields: EntryFields): ImportNote {
  if (fields.constant) return note('match-constant')
  const from = (f: { value: unknown; path: string } | undefined): ImportNote =>
    f === undefined || f.value === null ? note('match-default') : note('match-field', { field: `${f.path} ${String(f.value)}` })
  const patterns = [...fields.keys, ...fields.secondaryKeys].some((k) => patternKey(k)?.kind === 'pattern')
  return note(patterns ? 'match-keys-patterns' : 'match-keys', {
    how: note(fields.wholeWords === true ? 'match-whole' : 'match-substring'),
    whole: from(e.get('matchWholeWords')),
    cased: note(fields.caseSensitive === true ? 'match-cased' : 'match-any-case'),
    casedFrom: from(e.get('caseSensitive')),
  })
}

/** The entry's line length as the model would read it (title, body, neutralised). */
function shownChars(fields: EntryFields): number {
  return charCount(entryLine({ ...fields, name: '', source: 'person', file: '' } as WorldEntry))
}

/**
 * Lines packed in order into parts that each fit `room`, each part the source's own lines as written
 * (indentation and blank lines kept; only the blank lines where a part ends or begins go); undefined
 * when one line alone is too long.
 */
function splitToFit(fields: EntryFields, room: number): string[] | undefined {
  const fits = (body: string) => shownChars({ ...fields, title: `${fields.title} (99/99)`, body }) <= room
  const parts: string[] = []
  let current: string[] = []
  const close = () => {
    const body = current.join('\n').replace(/^\s*\n|\n\s*$/g, '')
    if (body.trim() !== '') parts.push(body)
    current = []
  }
  for (const line of fields.body.split('\n')) {
    if (fits([...current, line].join('\n'))) {
      current.push(line)
      continue
    }
    if (line.trim() === '') continue
    close()
    if (!fits(line)) return undefined
    current = [line]
  }
  close()
  return parts
}

/** What the import would write; throws `ImportFormatError` for a file that is not World Info at all. */
export function planImport(json: unknown): ImportPlan {
  const source = entryList(json)
  const taken = new Set<string>()
  const plan: ImportPlan = {
    entries: [],
    refused: [],
    book: source.other?.book(source.book) ?? (source.card ? bookNotCarried(source.book) : worldNotCarried(source.book)),
  }
  for (const [origin, raw] of source.entries) {
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      plan.refused.push({ origin, why: note('not-an-entry') })
      continue
    }
    const notes: ImportNote[] = []
    const e = source.other?.entry(raw) ?? stEntry(raw, source.card)
    const uid = String(e.get('uid')?.value ?? origin)
    const fields = fieldsOf(e, source, notes)
    if ('code' in fields) {
      plan.refused.push({ origin, why: fields })
      continue
    }
    if (fields.title === 'entry') fields.title = `entry ${uid}`
    const kept = KEPT.map((k) => e.get(k))
      .filter((f) => f !== undefined && f.value !== undefined && f.value !== null)
      .map((f) => f!.path)
    const matching = matchingNote(e, fields)
    const dropped = [...notCarried(e, fields.constant, source.card), ...(source.other?.dropped(raw) ?? [])]
    const base = fileNameFor(fields.title) || `st-${uid}`
    const room = roomForOne(fields.constant)
    const cap = fields.constant ? RAIL_CAP : HITS_CAP
    const chars = shownChars(fields)
    const add = (f: EntryFields, extra: ImportNote[], part?: ImportedEntry['part']) => {
      // Padded so the parts sort in order by name (equal priorities are ordered by name).
      const index = String(part?.index ?? 0).padStart(String(part?.of ?? 0).length, '0')
      const name = uniqueName(part === undefined ? base : `${base} (${index} of ${part.of})`, taken)
      plan.entries.push({
        name,
        fields: f,
        text: formatEntry(f),
        notes: [...notes, ...extra],
        kept,
        matching,
        notCarried: dropped,
        origin,
        ...(part === undefined ? {} : { part }),
      })
    }
    if (chars <= room) {
      add(fields, [])
      continue
    }
    const parts = splitToFit(fields, room)
    if (parts === undefined) {
      // One paragraph is longer than any block: kept (nothing of the person's is lost) but switched off.
      add({ ...fields, enabled: false }, [note(fields.constant ? 'too-long-rail' : 'too-long-hits', { chars, cap, room })])
      continue
    }
    parts.forEach((body, i) => {
      const f = { ...fields, title: `${fields.title} (${i + 1}/${parts.length})`, body }
      add(f, [note(fields.constant ? 'split-rail' : 'split-hits', { chars, cap, parts: parts.length })], { index: i + 1, of: parts.length, chars, cap })
    })
  }
  return plan
}
