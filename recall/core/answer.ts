// What a search is asked (SearchOptions) and what it answers (RecallHit, RecallAnswer).

import type { SilenceReason } from './abstain.ts'
import type { RecallSource } from './options.ts'

export interface RecallHit {
  id: string
  score: number
  /** Query terms found in the document, sorted (empty if only a link lifted it). */
  matched: string[]
  source: RecallSource
  /** Set when part of the score came through a link: the id of the hit that passed it on. */
  via?: string
}

export interface SearchOptions {
  /** Most hits returned (default 10). */
  limit?: number
  /** The moment recency is measured from (default: the current time). Pass it for reproducible rankings. */
  now?: Date | number
  /** Only documents of these sources are scored or returned (default: all). */
  sources?: readonly RecallSource[]
  /**
   * Only documents whose id passes are returned (default: all). It chooses
   * among the ranked documents and changes no score (a document that fails it
   * still passes a link boost on), so the best `limit` that pass come back
   * whenever that many exist: callers need not ask for more and drop some.
   */
  filter?: (id: string) => boolean
  /** Return nothing when nothing indexed is about the query (default true; see abstain.ts). */
  abstain?: boolean
  /**
   * Translate the query through the bilingual dictionary (default true). A same-language
   * look-up (the near-duplicate check of a write) passes false and never loads the dictionary.
   */
  translate?: boolean
}

/** What `explain` returns: the hits, or why there are none. */
export interface RecallAnswer {
  hits: RecallHit[]
  /** Share of the query's idf mass the best hit covers, in [0, 1] (abstention's measure). */
  coverage: number
  /** Set when `hits` is empty: why. */
  silence?: { reason: SilenceReason; coverage: number; needed?: number }
}

export function silent(reason: SilenceReason, coverage: number, needed?: number): RecallAnswer {
  const silence: RecallAnswer['silence'] = { reason, coverage }
  if (needed !== undefined) silence.needed = needed
  return { hits: [], coverage, silence }
}
