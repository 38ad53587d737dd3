/**
 * Public surface of whale/ for hosts (the DSH row) and tools. A host renders
 * a turn with `renderSegments(loadRenderInput(…))`, or builds the input itself
 * from plain data; either way it gets the same bytes as `cyrene whale render`.
 */
export { renderSegments, EMPTY_SEGMENTS, type RenderInput, type RenderedSegments } from './render.ts'
export { loadRenderInput, locationsFor, readConfigText, loadReflexText, resolveIn, type FsContext, type RenderRequest } from './files.ts'
export { parseReflexRules, reflexProblems, reflexLedgerFile, lastLedgerRecords } from './reflex.ts'
export { normaliseConfig, configFromText, captureActive, type WhaleConfig } from './config.ts'
export { locate, type WhaleLocations } from './paths.ts'
export { replayInbox, viewOf, type InboxEntry } from './inbox.ts'
export type { Measure } from './measure.ts'
export { tavernMacrosIn } from './text.ts'

/** The section names DSH uses for the three segments (spec §3). */
export const SECTION_NAMES = {
  prefix: 'deployment:persona-prefix',
  thinking: 'whale:thinking-language',
  suffix: 'deployment:persona-suffix',
} as const
