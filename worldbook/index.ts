/**
 * The worldbook's door (世界书): what code outside worldbook/ uses, and nothing more (docs/decisions/096).
 * No DSH import. Parsing, key matching and the starter folder's place stay inside; their tests reach them by path.
 */
export { matchEntries, type EntryHit } from './match.ts'
export { renderBlock, renderRail, RAIL_CAP, HITS_CAP, type Rendered } from './render.ts'
export { WorldbookLibrary, type LoadedWorldbook } from './library.ts'
export { planImport, ImportFormatError, type ImportedEntry, type NotCarried } from './sillytavern.ts'
export { IMPORT_NOTE_CODES } from './import-notes.ts'
export { PERSON_FOLDER, worldbookFolders } from './places.ts'
export { doctorLines, type WorldbookNote } from './doctor.ts'
