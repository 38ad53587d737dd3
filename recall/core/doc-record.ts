// What the index keeps of each document beside its terms: id, date, source, kind, links,
// fingerprint — built when it is added, or read lazily from a loaded cache.

import type { LoadedColumns } from './columns-read.ts'
import type { RecallSource } from './options.ts'
import { parseLink } from './scoring.ts'

export const NO_LINKS: readonly string[] = Object.freeze([])

export interface DocRecord {
  readonly id: string
  readonly at: string
  readonly atMs: number
  readonly source: RecallSource
  readonly kind: string | undefined
  readonly links: readonly string[]
  /** Parsed link targets, distinct, for the boost and for the backlink map. */
  readonly linkTargets: readonly string[]
  readonly fingerprint: string
}

/**
 * The record of a document loaded from a cache: its date and fingerprint stay in the columns
 * until something asks for them (a save, a sync): decoding 200,000 strings cost a one-shot
 * search more than the search.
 */
export class LoadedRecord implements DocRecord {
  readonly id: string
  readonly atMs: number
  readonly source: RecallSource
  readonly kind: string | undefined
  readonly links: readonly string[]
  readonly linkTargets: readonly string[]
  private readonly columns: LoadedColumns
  private readonly slot: number

  constructor(columns: LoadedColumns, slot: number, id: string, source: RecallSource, kind: string | undefined, links: readonly string[]) {
    this.columns = columns
    this.slot = slot
    this.id = id
    this.atMs = columns.atMs[slot]!
    this.source = source
    this.kind = kind
    this.links = links
    this.linkTargets = distinctLinkTargets(links, id)
  }

  get at(): string {
    return this.columns.atOf(this.slot)
  }

  get fingerprint(): string {
    return this.columns.fingerprintOf(this.slot)
  }
}

export function distinctLinkTargets(links: readonly string[], selfId: string): readonly string[] {
  if (links.length === 0) return NO_LINKS
  const targets = new Set<string>()
  for (const link of links) {
    const parsed = parseLink(link)
    if (parsed !== undefined && parsed.target !== selfId) targets.add(parsed.target)
  }
  return [...targets]
}
