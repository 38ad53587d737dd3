/**
 * The door to the store's file formats: an entry's text and metadata, the anchor files, the
 * checks every write passes (the refusals, the five-virtue gate) and ids. Pure or read-only:
 * it loads no engine, no lock and no git, so the recall worker and the night can read entries
 * through it (docs/decisions/281).
 */
export {
  serializeEntry,
  endOfLastClosedComment,
  entriesOf,
  findEntries,
  parseEntryFile,
  AXES,
  CONSEQUENCE_SCHEMA,
  KNOWN_KINDS,
  LINK_TYPES,
  type Entry,
} from './entry.ts'
export { RefusedError, KIND_RE, assertWellFormed, type NewEntry } from './validate.ts'
export { leftStoreUntouched } from './untouched.ts'
export { gateProblemOf, gateReasons } from './gate.ts'
export { newId } from './id.ts'
export { ANCHOR_FILES, parseAnchor, readAllAnchors } from './anchors.ts'
