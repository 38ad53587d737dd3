/** The worldbook (世界书): entries as markdown files, pure matching and rendering, the starter folder. No DSH import. */
export {
  parseEntry,
  formatEntry,
  DEFAULT_PRIORITY,
  FIELDS,
  SECONDARY_LOGICS,
  type WorldEntry,
  type EntryFields,
  type SecondaryLogic,
  type EntrySource,
} from './entry.ts'
export { keyMatches, entryHit, scanText, matchEntries, constantEntries, byPriority, type EntryHit, type ScanText } from './match.ts'
export { renderEntries, entryLine, roomForOne, RAIL_CAP, HITS_CAP, RAIL_TITLE, HITS_TITLE, type Rendered, type LeftOut } from './render.ts'
export { WorldbookLibrary, MAX_ENTRY_BYTES, type LoadedWorldbook, type WorldbookFolder, type SkippedFile } from './library.ts'
export { planImport, fileNameFor, ImportFormatError, type ImportPlan, type ImportedEntry, type NotCarried } from './sillytavern.ts'
export { IMPORT_NOTE_CODES, type ImportNote, type ImportNoteCode } from './import-notes.ts'
export { PERSON_FOLDER, starterFolder, personFolder, worldbookFolders } from './places.ts'
export { doctorLines, type WorldbookNote } from './doctor.ts'
