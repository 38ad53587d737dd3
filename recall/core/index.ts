// The door of the pure recall index (recall/core/): documents in, ranked hits out, the budget
// cut, the tokenizer. The recall room, the benches and the tests import from here; the saved
// forms (JSON and the binary cache) have their own door (saved.ts), and so does what the build
// uses to ship CC-CEDICT (build.ts): docs/decisions/282.

export { RecallIndex, fingerprintDocs } from './recall-index.ts'
export type { RecallAnswer, RecallHit, SearchOptions } from './answer.ts'
export type { SyncReport } from './recall-index.ts'
export { describeSilence } from './abstain.ts'
export type { SilenceReason } from './abstain.ts'
export type { RecallDoc } from './doc.ts'
export { DEFAULT_RECALL_OPTIONS, RECALL_SOURCES, resolveOptions } from './options.ts'
export type { RecallOptions, RecallOptionsInput, RecallSource } from './options.ts'
export { tokenize } from './tokenize.ts'
export { selectWithinBudget } from './budget.ts'
export type { BudgetCut, BudgetOptions, BudgetPick, BudgetSelection, CutReason } from './budget.ts'
export { fingerprintDoc } from './fingerprint.ts'
export { recallLacks, warmRecallDictionaries, type RecallLack } from './warm.ts'
