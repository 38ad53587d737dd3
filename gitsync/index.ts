/**
 * The git sync (README.md): the store replicated through a git remote
 * (CONTRACT#git-sync). This surface loads without DSH (`cyrene sync`, the
 * doctor); what row `cyrene-panel` starts where the engine is held is
 * gitsync/row.ts.
 */
export type { GitSyncRunner, GitSyncState } from './runner.ts'
export { gitReportText } from './report-text.ts'
export { doctorLines, gitLines } from './doctor.ts'
