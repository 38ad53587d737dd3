/**
 * The SiYuan sync (README.md): the store's markdown mirrored into a SiYuan
 * notebook, one way. This surface loads without DSH (`cyrene sync` uses it);
 * what row `cyrene-panel` starts in the process that holds the engine is
 * siyuan/row.ts.
 */
export { SiyuanSync } from './sync.ts'
export { siyuanReportText } from './report-text.ts'
export type { SyncReport, SyncState } from './types.ts'
export { doctorLines } from './doctor.ts'
