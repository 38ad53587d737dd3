/**
 * The door to the store's upkeep, what the person runs on the whole store: the check and the
 * month/year re-checks, snapshots and restore, import and migration (docs/decisions/281).
 */
export { checkStore, deniedPlace, type CheckReport, type Finding } from './check.ts'
export { recheckPending, listPending, pendingRecordsOrProblem, restoreTombstone, amendedMeta, type RecheckReport } from './recheck.ts'
export { takeSnapshot, snapshotIfDue, listSnapshots, describeSnapshots, kindOfName, KEEP_SNAPSHOTS, KEEP_OTHER_SNAPSHOTS, MANIFEST_FILE } from './snapshots.ts'
export { restoreSnapshot } from './restore.ts'
export { snapshotDamage } from './restore-check.ts'
export { importItems, parseImportJsonl, firstBadByte, type ImportItem, type Skipped } from './importer.ts'
export { migrate, findRetiredPlugins } from './migrate.ts'
