/** Public surface of the memory engine. Nothing here imports DSH. */
export { MemoryStore, type StoredEntry, type WriteResult } from './store.ts'
export { EngineBusyError } from './engine-lock.ts'
export { serializeEntry, AXES, CONSEQUENCE_SCHEMA, KNOWN_KINDS, LINK_TYPES } from './entry.ts'
export { gateProblemOf, gateReasons } from './gate.ts'
export { newId } from './id.ts'
export { RefusedError, type NewEntry } from './validate.ts'
export { resolveRoot, resolveDshHome, dayFileRel, journalRel, echoRel, NO_OUTPUT, localDate, LAYOUT, ROOT_NAME, RootError } from './paths.ts'
export { checkStore, type CheckReport, type Finding } from './check.ts'
export { recheckPending, listPending, restoreTombstone, amendedMeta, type RecheckReport } from './recheck.ts'
export { readAllAnchors, writeAnchor } from './anchors.ts'
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
  type VoiceSettingKey,
} from './settings.ts'
export { readVolumes, ensureVolumePersonaHash, openVolume, personaFingerprint, volumeDrift, CONFIRM_WORD, type Volume, type PersonaSource } from './volumes.ts'
export { abReviewOf, readReportMark, reportMarkLine, type AbReview } from './ab-review.ts'
export { takeSnapshot, snapshotIfDue, listSnapshots, describeSnapshots, kindOfName, KEEP_SNAPSHOTS, KEEP_OTHER_SNAPSHOTS } from './snapshots.ts'
export { restoreSnapshot } from './restore.ts'
export { importItems, parseImportJsonl, type ImportItem } from './importer.ts'
export { migrate, findRetiredPlugins } from './migrate.ts'
export { linkEntries, type LinkInput, type LinkResult } from './entry-links.ts'
export { isForgedClaim, isPersonBase, migrateMarks, ownerOf, type PersonMarks } from './person-marks.ts'
export { readInboxMarksSync, recordInboxLines } from './inbox-marks.ts'
export { LockBusyError, LockLostError } from '../durable/lock.ts'
export { startEngine } from './engine.ts'
export { fileStampSync, stampOf } from './file-stamp.ts'
export { recentFiles, readRecent, insideReader, type AnchorView, type RecentEntry } from './recent.ts'
export { syncGit, configuredRemote, currentRemote, gitStatus, type GitSyncReport } from './git-sync.ts'
export { remoteProblemSaid } from './git-repo.ts'
export { listConflicts, resolveConflict } from './git-conflicts.ts'
export { GitError, GitMissingError } from './git-run.ts'
