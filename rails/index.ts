/**
 * The rails: everything Cyrene injects into a step and the one 4,000 pass
 * that sizes it (README.md). This surface loads without DSH (the command
 * line's doctor, recall and settings read it); the row's registration, which
 * needs DSH at run time, is rails/row.ts.
 */
export { railSwitchesSchema } from './list.ts'
export type { CapabilityConfig, Rails, RailSwitch, RecallConfig } from './types.ts'
export { MEMORY_CAP, memoryBlock, memoryText } from './memory-var.ts'
export { nicknameOf } from './nickname-rail.ts'
export { RECALL_DEFAULTS, recallBlock, type RecallBlock } from './recall-block.ts'
export { HITS_CAP, HITS_MAX_ENTRIES, RAIL_CAP, worldbookBlocks, type WorldbookConfig } from './worldbook-rail.ts'
export { registerSectionMirror } from './mirror-listener.ts'
export type { MirrorConfig, MirrorMode } from './section-mirror.ts'
export { STYLES_OVERRIDE, voiceTexts } from './voice-texts.ts'
export { doctorLines as railDoctorLines } from './doctor.ts'
export { railsReport } from './report.ts'
