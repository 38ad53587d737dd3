// The documents recall indexes, and the checks that keep a malformed one out.

import { RECALL_SOURCES, type RecallSource } from './options.ts'

export interface RecallDoc {
  /** Unique, stable id (the entry id, or e.g. `anchor:self`). Ties in ranking are broken by it. */
  id: string
  /** The text to index (entry body, anchor text, rollup, dream journal). */
  text: string
  /** ISO 8601 time the memory was written or last meaningfully changed; drives recency. */
  at: string
  source: RecallSource
  /** Entry kind (decision, lesson, …); stored and fingerprinted, not scored. */
  kind?: string
  /** `"<id>|<type>"` strings (CONTRACT#entry-fields). */
  links?: string[]
}

/** Throws a TypeError naming the problem; recall never indexes a half-valid document. */
export function assertRecallDoc(doc: unknown): asserts doc is RecallDoc {
  if (doc === null || typeof doc !== 'object') throw new TypeError('recall doc must be an object')
  const d = doc as Record<string, unknown>
  if (typeof d.id !== 'string' || d.id.length === 0) throw new TypeError('recall doc needs a non-empty string id')
  if (typeof d.text !== 'string') throw new TypeError(`recall doc ${d.id}: text must be a string`)
  if (typeof d.at !== 'string') throw new TypeError(`recall doc ${d.id}: at must be an ISO time string`)
  if (!RECALL_SOURCES.includes(d.source as RecallSource)) {
    throw new TypeError(`recall doc ${d.id}: source must be one of ${RECALL_SOURCES.join(', ')}`)
  }
  if (d.kind !== undefined && typeof d.kind !== 'string') throw new TypeError(`recall doc ${d.id}: kind must be a string`)
  if (d.links !== undefined && !(Array.isArray(d.links) && d.links.every((l) => typeof l === 'string'))) {
    throw new TypeError(`recall doc ${d.id}: links must be an array of strings`)
  }
}

/** Milliseconds since the epoch, or NaN for a date that does not parse (no recency bonus then). */
export function parseTime(at: string): number {
  return Date.parse(at)
}
