/**
 * What the SillyTavern import tells the person, as codes with their values
 * (docs/decisions/081, 075): this folder words nothing. The command line
 * words a note with `i18n/worldbook.ts` in the person's language (and in
 * English for `--json`). A param may itself be a note (where SillyTavern put
 * an entry, where it goes here), worded in the same language.
 */
export const IMPORT_NOTE_CODES = [
  // Per entry: what changed on the way in.
  'regex-key',
  'regex-secondary-key',
  'pattern-unsupported',
  'secondary-pattern-unsupported',
  'macros-kept',
  'secondary-off',
  'logic-unknown',
  'logic-never',
  'no-keys',
  'no-secondary-keys',
  'split-rail',
  'split-hits',
  'too-long-rail',
  'too-long-hits',
  'decorator-activate',
  'decorator-dont-activate',
  'decorators-dropped',
  'position-outlet',
  'position-nowhere',
  'probability-never',
  // Source entries refused outright.
  'no-content',
  'not-an-entry',
  // How the keys match.
  'match-constant',
  'match-keys',
  'match-keys-patterns',
  'match-whole',
  'match-substring',
  'match-cased',
  'match-any-case',
  'match-default',
  'match-field',
  // Fields not carried, with what happens instead.
  'position',
  'position-0',
  'position-1',
  'position-2',
  'position-3',
  'position-4',
  'position-5',
  'position-6',
  'position-7',
  'position-unknown',
  'place-rail',
  'place-hits',
  'depth-at',
  'depth-unused',
  'role-at',
  'role-unused',
  'probability-ignored',
  'probability-off',
  'scan-depth',
  'group',
  'groups-not-kept',
  'timed',
  'no-recursion-calls',
  'no-recursion',
  'vectorized',
  'automation',
  'character-filter',
  'triggers',
  'ignore-budget',
  'outlet',
  'match-elsewhere',
  'v2-priority',
  'order-not-number',
  'unknown-field',
  'other-format-dropped',
  'book-novelai',
  'book-agnai',
  'book-risu',
  // The book's own settings (a card's character_book).
  'book-scan-depth',
  'book-token-budget',
  'book-name',
  'not-carried',
  // A file that is not World Info at all.
  'format-not-object',
  'format-card-no-book',
  'format-card-book-elsewhere',
  'format-book-not-object',
  'format-no-entries',
  'format-other-no-entries',
] as const

export type ImportNoteCode = (typeof IMPORT_NOTE_CODES)[number]

export interface ImportNote {
  code: ImportNoteCode
  params?: Record<string, string | number | ImportNote>
}

export const note = (code: ImportNoteCode, params?: ImportNote['params']): ImportNote => (params === undefined ? { code } : { code, params })
