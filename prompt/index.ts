/**
 * The ground floor under every room that writes into the model's prompt: the
 * data frame and its budgets (framing.ts), DSH's `{{…}}` grammar and how a
 * text is made inert to it (prompt-text.ts), and the words the person typed in
 * a step (user-text.ts). No DSH import, no state: the command line, the build
 * and the rows all read the same texts.
 */
export { promptSafe, dataFrame, frameHeader, frameRule, frameOverhead, frameToken, frameTokenIn, endMarker } from './prompt-safe.ts'
export { charCount, clip, fitWithinBudget, type FitCutReason } from './budget.ts'
export { EMPTY_MEMORY, framed, framedWithin } from './framing.ts'
export { inertBraces, lineOf, promptReferences } from './prompt-text.ts'
export { latestUserText } from './user-text.ts'
