// What turns a BM25 text score into a recall score: recency, source weight,
// and the share a strong hit passes along its links.

import { DAY_MS } from './time-range.ts'

/**
 * 1 + weight · 0.5^(age / halfLife). Entries from the future count as new; an
 * unknown date (NaN) gets no bonus rather than an invented one.
 */
export function recencyMultiplier(atMs: number, nowMs: number, halfLifeDays: number, weight: number): number {
  if (!Number.isFinite(atMs) || weight === 0) return 1
  const ageDays = Math.max(0, nowMs - atMs) / DAY_MS
  return 1 + weight * Math.pow(0.5, ageDays / halfLifeDays)
}

export interface ParsedLink {
  target: string
  type: string
}

/** `"<id>|<type>"` → parts; the type may be empty, a bare id has no type. Empty targets are dropped. */
export function parseLink(link: string): ParsedLink | undefined {
  if (typeof link !== 'string') return undefined
  const bar = link.indexOf('|')
  const target = (bar === -1 ? link : link.slice(0, bar)).trim()
  if (target.length === 0) return undefined
  return { target, type: bar === -1 ? '' : link.slice(bar + 1).trim() }
}

export interface LinkBoost {
  amount: number
  /** The hit whose score was passed along. */
  via: string
}

/**
 * Each seed gives `share · seedScore` to each neighbour; a neighbour lifted by
 * several seeds keeps the largest gift (a hub linked from everything should not
 * outrank the hits themselves). Ties between equal gifts go to the smaller seed id.
 */
export function linkBoosts(
  seeds: readonly { id: string; score: number }[],
  neighbours: (id: string) => Iterable<string>,
  share: number,
): Map<string, LinkBoost> {
  const boosts = new Map<string, LinkBoost>()
  if (share <= 0) return boosts
  for (const seed of seeds) {
    const amount = share * seed.score
    if (!(amount > 0)) continue
    for (const neighbour of neighbours(seed.id)) {
      if (neighbour === seed.id) continue
      const current = boosts.get(neighbour)
      if (current === undefined || amount > current.amount || (amount === current.amount && seed.id < current.via)) {
        boosts.set(neighbour, { amount, via: seed.id })
      }
    }
  }
  return boosts
}

/** The ranking order: higher score first, then id in code-unit order, so equal scores never reorder. */
export function compareRanked(a: { id: string; score: number }, b: { id: string; score: number }): number {
  if (a.score !== b.score) return b.score - a.score
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0
}
