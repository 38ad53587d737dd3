/**
 * Three other programs' lorebooks, read the way SillyTavern's World Info import converts them
 * (docs/decisions/312): a NovelAI lorebook (`lorebookVersion`), an Agnai memory book
 * (`kind: "memory"`) and a RisuAI lorebook (`type: "risu"`). Each entry is given SillyTavern's
 * world-file names (`key`, `content`, `comment`, `order`, …) with the name it had in the file, so
 * the import reads, reports and splits it like any other entry; what SillyTavern's conversion
 * leaves behind is named here, per entry, with its value.
 */
import { note, type ImportNote } from './import-notes.ts'
import type { NotCarried, StEntry } from './sillytavern-fields.ts'

type OtherFormat = 'NovelAI lorebook' | 'Agnai memory book' | 'RisuAI lorebook'

export interface OtherLorebook {
  format: OtherFormat
  /** The format as a note, so the person's language names it. */
  named: ImportNote
  /** Where its entries are (`entries`, RisuAI's `data`). */
  list: 'entries' | 'data'
  /** Its priority when the entry gives none: SillyTavern's conversion writes 0 for NovelAI's. */
  defaultOrder?: number
  /** The entry in SillyTavern's names. */
  entry(raw: Record<string, unknown>): StEntry
  /** The entry's fields SillyTavern's conversion does not carry and that do something there. */
  dropped(raw: Record<string, unknown>): NotCarried[]
  /** The book's own fields besides its entries and its format mark. */
  book(root: Record<string, unknown>): NotCarried[]
}

type Field = { value: unknown; path: string }

/** A source field read under SillyTavern's name, or a value SillyTavern's conversion works out from one. */
type Mapping = Record<string, (raw: Record<string, unknown>) => Field | undefined>

const from =
  (path: string, as: (v: unknown) => unknown = (v) => v) =>
  (raw: Record<string, unknown>): Field | undefined =>
    raw[path] === undefined ? undefined : { value: as(raw[path]), path }

/** `disable: !enabled`, as SillyTavern converts it; an entry with no `enabled` stays on (decision 136). */
const disabledFrom = (raw: Record<string, unknown>): Field | undefined => (raw.enabled === undefined ? undefined : { value: !raw.enabled, path: 'enabled' })

/** RisuAI's keys are one string; SillyTavern splits it at every comma and trims each part. */
const splitKeys = (v: unknown): unknown => (typeof v === 'string' ? v.split(',').map((k) => k.trim()) : v)

const MAPPINGS: Record<OtherFormat, Mapping> = {
  'NovelAI lorebook': {
    key: from('keys'),
    content: from('text'),
    comment: from('displayName'),
    disable: disabledFrom,
    order: (raw) => {
      const config = raw.contextConfig
      const value = typeof config === 'object' && config !== null ? (config as Record<string, unknown>).budgetPriority : undefined
      return value === undefined || value === null ? undefined : { value, path: 'contextConfig.budgetPriority' }
    },
  },
  'Agnai memory book': {
    key: from('keywords'),
    content: from('entry'),
    comment: from('name'),
    disable: disabledFrom,
    order: from('weight'),
  },
  'RisuAI lorebook': {
    key: from('key', splitKeys),
    // An empty second key string is no secondary key at all there.
    keysecondary: (raw) => (raw.secondkey === undefined ? undefined : { value: raw.secondkey ? splitKeys(raw.secondkey) : [], path: 'secondkey' }),
    content: from('content'),
    comment: from('comment'),
    constant: from('alwaysActive'),
    selective: from('selective'),
    order: from('insertorder'),
    probability: from('activationPercent'),
    // Not read by SillyTavern (its keys are matched as text there); read as a V3 card's `use_regex` (decision 303).
    useRegex: from('useRegex'),
  },
}

/**
 * The fields each program writes that mean nothing outside it (ids, times, caches) or hold its "nothing special";
 * a field with another value is named as dropped.
 */
const QUIET: Record<OtherFormat, Record<string, (v: unknown) => boolean>> = {
  'NovelAI lorebook': {
    id: () => true,
    lastUpdatedAt: () => true,
    hidden: (v) => v === false,
    searchRange: (v) => v === 1000,
    forceActivation: (v) => v === false,
    keyRelative: (v) => v === false,
    nonStoryActivatable: (v) => v === false,
    category: (v) => v === '' || v === null,
    advancedConditions: (v) => Array.isArray(v) && v.length === 0,
    // Its default bias group has no phrases and so biases nothing.
    loreBiasGroups: (v) => Array.isArray(v) && v.every((g) => typeof g !== 'object' || g === null || !Array.isArray(g.phrases) || g.phrases.length === 0),
    'contextConfig.prefix': (v) => v === '',
    'contextConfig.suffix': (v) => v === '\n' || v === '',
    'contextConfig.reservedTokens': (v) => v === 0,
    'contextConfig.trimDirection': (v) => v === 'trimBottom',
    'contextConfig.insertionType': (v) => v === 'newline',
    'contextConfig.maximumTrimType': (v) => v === 'sentence',
    'contextConfig.insertionPosition': (v) => v === -1,
  },
  'Agnai memory book': {},
  'RisuAI lorebook': {
    id: () => true,
    loreCache: () => true,
    bookVersion: () => true,
    mode: (v) => v === 'normal',
    folder: (v) => v === '' || v === null,
  },
}

const FORMAT_NOTES = { 'NovelAI lorebook': 'book-novelai', 'Agnai memory book': 'book-agnai', 'RisuAI lorebook': 'book-risu' } as const

/** The field that names the format, and the book fields besides the entries that are only its bookkeeping. */
const BOOK_QUIET: Record<OtherFormat, string[]> = {
  'NovelAI lorebook': ['lorebookVersion', 'entries'],
  'Agnai memory book': ['kind', 'entries', '_id', 'userId'],
  'RisuAI lorebook': ['type', 'ver', 'data'],
}

/** A value that says something: not empty, not false, and an object only when one of its values does. */
const present = (v: unknown): boolean => {
  if (v === undefined || v === null || v === '' || v === false) return false
  if (Array.isArray(v)) return v.length > 0
  return typeof v !== 'object' || Object.values(v).some(present)
}

/** The lorebook `root` is, as SillyTavern tells them apart (in this order); undefined for anything else. */
export function otherLorebook(root: Record<string, unknown>): OtherLorebook | undefined {
  const format: OtherFormat | undefined =
    root.lorebookVersion !== undefined
      ? 'NovelAI lorebook'
      : root.kind === 'memory'
        ? 'Agnai memory book'
        : root.type === 'risu'
          ? 'RisuAI lorebook'
          : undefined
  if (format === undefined) return undefined
  const mapping = MAPPINGS[format]
  const used = (raw: Record<string, unknown>) =>
    new Set(
      Object.values(mapping)
        .map((m) => m(raw)?.path)
        .filter((p) => p !== undefined),
    )
  const named = note(FORMAT_NOTES[format])
  const why: ImportNote = note('other-format-dropped', { format: named })
  return {
    format,
    named,
    list: format === 'RisuAI lorebook' ? 'data' : 'entries',
    ...(format === 'NovelAI lorebook' ? { defaultOrder: 0 } : {}),
    entry(raw) {
      const fields = new Map<string, Field>()
      for (const [name, read] of Object.entries(mapping)) {
        const field = read(raw)
        if (field !== undefined) fields.set(name, field)
      }
      return { get: (name) => fields.get(name), unread: () => [] }
    },
    dropped(raw) {
      const taken = used(raw)
      const quiet = QUIET[format]
      const out: NotCarried[] = []
      const look = (path: string, value: unknown) => {
        if (taken.has(path) || !present(value) || quiet[path]?.(value) === true) return
        out.push({ field: path, value, why })
      }
      for (const [k, v] of Object.entries(raw)) {
        // NovelAI's context settings, one by one (its budgetPriority is the entry's priority).
        if (format === 'NovelAI lorebook' && k === 'contextConfig' && typeof v === 'object' && v !== null && !Array.isArray(v))
          for (const [ck, cv] of Object.entries(v)) look(`contextConfig.${ck}`, cv)
        else look(k, v)
      }
      return out
    },
    book(book) {
      return Object.entries(book)
        .filter(([k, v]) => !BOOK_QUIET[format].includes(k) && present(v))
        .map(([field, value]) => ({ field, value, why }))
    },
  }
}
