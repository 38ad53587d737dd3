// The oracle of the pruned search (bm25/prune.ts): the same index, every document that
// shares a word with the query scored by walking every list, as search did before pruning.

import type { TextScoring } from '../bm25/query-scorer.ts'
import { RecallIndex } from '../recall-index.ts'

export class ExhaustiveRecallIndex extends RecallIndex {
  protected override scoreText(text: TextScoring): number[] {
    return this.scoreEveryDocument(text)
  }
}
