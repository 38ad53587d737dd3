/** Public surface of the memory engine. Nothing here imports DSH. */
export { MemoryStore, type OpenOptions, type StoredEntry, type WriteResult } from './store.ts'
export type { CatalogFile } from './file-catalog.ts'
export { EngineBusyError } from './engine-lock.ts'
export {
  parseEntryFile,
  serializeEntry,
  serializeMeta,
  entriesOf,
  AXES,
  CONSEQUENCE_SCALES,
  CONSEQUENCE_SCHEMA,
  KNOWN_KINDS,
  LINK_TYPES,
  GATES,
  META_PREFIX,
  type Entry,
  type EntryMeta,
  type Gate,
  type Axis,
  type ParsedFile,
  type ParseProblem,
  type Segment,
} from './entry.ts'
export { gate, gateProblemOf, gateReasons, type GateProblem, type GateResult } from './gate.ts'
export { newId, ID_RE } from './id.ts'
export {
  RefusedError,
  DEFAULT_LIMITS,
  KIND_RE,
  injectionText,
  clipForInjection,
  buildMeta,
  parseWhen,
  WHEN_FORMS,
  type Limits,
  type NewEntry,
  type Writer,
} from './validate.ts'
export {
  resolveRoot,
  resolveDshHome,
  snapshotsDirOf,
  dayFileRel,
  pendingFileRel,
  journalRel,
  echoRel,
  NO_OUTPUT,
  localDate,
  LAYOUT,
  ROOT_NAME,
  RootError,
} from './paths.ts'
export { checkStore, type CheckReport, type Finding } from './check.ts'
export {
  recheckPending,
  listPending,
  restoreTombstone,
  amendedMeta,
  checkPeriod,
  type RecheckOptions,
  type RecheckReport,
  type PendingRecord,
} from './margin.ts'
export { readAnchor, readAllAnchors, writeAnchor, parseAnchor, ANCHOR_FILES, ANCHOR_CADENCE_DAYS, type AnchorWrite } from './anchors.ts'
export {
  ANCHOR_KEYS,
  NIGHT_TIME,
  MAX_SCHEDULED_SESSIONS,
  NICKNAME_MAX,
  VOICE_SETTING_KEYS,
  voiceSettingProblem,
  writeVoiceSetting,
  parseSettingsText,
  type AnchorKey,
  type Settings,
  type VoiceSettingKey,
} from './settings.ts'
export {
  readVolumes,
  ensureVolumePersonaHash,
  openVolume,
  personaFingerprint,
  volumeDrift,
  CONFIRM_WORD,
  type Volume,
  type VolumesFile,
  type PersonaSource,
} from './volumes.ts'
export { abReviewOf, readReportMark, reportMarkLine, REPORT_MARK, VERDICTS, type AbReview, type ReportMark, type Verdict } from './ab-review.ts'
export {
  takeSnapshot,
  snapshotIfDue,
  listSnapshots,
  describeSnapshots,
  kindOfName,
  KEEP_SNAPSHOTS,
  KEEP_OTHER_SNAPSHOTS,
  type SnapshotInfo,
} from './snapshots.ts'
export { restoreSnapshot, type RestoreResult, type RestorePhase } from './restore.ts'
export { importItems, importKey, parseImportJsonl, type ImportItem, type ImportReport, type LikelyDuplicate } from './importer.ts'
export { migrate, findRetiredPlugins, RETIRED_PLUGINS, type MigrationReport } from './migrate.ts'
export { linkEntries, type LinkInput, type LinkResult } from './entry-links.ts'
export {
  claimsPerson,
  isForgedClaim,
  isMarked,
  isPersonBase,
  markHash,
  migrateMarks,
  ownerOf,
  readMarksSync,
  MARKS_REL,
  type MarksRead,
  type PersonMarks,
} from './person-marks.ts'
export { readInboxMarksSync, recordInboxLines, INBOX_MARKS_REL, type InboxMarks } from './inbox-marks.ts'
export { LockBusyError, LockLostError } from '../durable/lock.ts'
export { openEngine, startEngine, type EngineStart } from './engine.ts'
export { fileStamp, fileStampSync, stampOf, type FileStamp } from './file-stamp.ts'
export { recentFiles, readRecent, insideReader, type AnchorView, type RecentEntry } from './recent.ts'
export { syncGit, configuredRemote, currentRemote, gitStatus, type GitSyncReport, type GitSyncOptions } from './git-sync.ts'
export { remoteProblem, remoteProblemSaid, GITATTRIBUTES, GITIGNORE } from './git-repo.ts'
export { listConflicts, resolveConflict, CONFLICTS_DIR, type ConflictRecord, type Keep } from './git-conflicts.ts'
export { GitError, GitMissingError } from './git-run.ts'
