// Public surface of memory/recall. The store imports from here only.

export { RecallIndex, fingerprintDocs } from './recall-index.ts'
export type { RecallHit, SearchOptions, SyncReport } from './recall-index.ts'
export type { RecallDoc } from './doc.ts'
export { DEFAULT_RECALL_OPTIONS, RECALL_SOURCES, resolveOptions } from './options.ts'
export type { RecallOptions, RecallOptionsInput, RecallSource } from './options.ts'
export { tokenize, tokenizerSignature, TOKENIZER_VERSION } from './tokenize.ts'
export { selectWithinBudget } from './budget.ts'
export type { BudgetCut, BudgetOptions, BudgetPick, BudgetSelection, CutReason } from './budget.ts'
export { fingerprintDoc } from './fingerprint.ts'
export { RecallFormatError, RECALL_INDEX_FORMAT, RECALL_INDEX_VERSION } from './serialise.ts'
export type { SerializedDoc, SerializedRecallIndex } from './serialise.ts'
