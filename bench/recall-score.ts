// The LoCoMo scoring of bench/recall.ts: one system over a set of stores and their questions,
// recall@k by evidence found, recall inside the pre-step's budget, characters of the top 10.

import { charCount } from '../prompt/index.ts'
import { selectWithinBudget } from '../recall/core/index.ts'
import type { Question, Unit } from './locomo.ts'
import type { Retriever } from './peers.ts'

export interface System {
  name: string
  make: () => Retriever
}

export const KS = [5, 10, 20] as const
export const BUDGET_CHARS = 1000
const PER_ENTRY_MAX = 300

/** A store and the questions asked of it. */
export interface Case {
  units: Unit[]
  now: Date
  questions: Question[]
}

export interface Score {
  n: number
  recall: Record<number, number>
  budgetRecall: number
  /** Mean characters of the top 10 (what "no more characters than the peer's top 10" compares). */
  charsAt10: number
  /** Share of questions that got nothing at all (abstained or no match). */
  empty: number
}

export interface RawScore {
  n: number
  recall: Record<number, number>
  budgetRecall: number
  chars: number
  empty: number
  latenciesMs: number[]
}

function emptyRaw(): RawScore {
  return { n: 0, recall: Object.fromEntries(KS.map((k) => [k, 0])), budgetRecall: 0, chars: 0, empty: 0, latenciesMs: [] }
}

export function finish(raw: RawScore): Score {
  const n = Math.max(1, raw.n)
  return {
    n: raw.n,
    recall: Object.fromEntries(KS.map((k) => [k, raw.recall[k]! / n])),
    budgetRecall: raw.budgetRecall / n,
    charsAt10: raw.chars / n,
    empty: raw.empty / n,
  }
}

/** Runs `system` over `cases`; `byCategory` (optional) collects a raw score per question category. */
export function evaluate(system: System, cases: readonly Case[], byCategory?: Map<number, RawScore>): RawScore {
  const total = emptyRaw()
  for (const c of cases) {
    const texts = new Map(c.units.map((u) => [u.id, { text: u.text }]))
    const covers = new Map(c.units.map((u) => [u.id, u.covers]))
    const dialogueIds = (ids: readonly string[]): string[] => ids.flatMap((id) => covers.get(id) ?? [])
    const retriever = system.make()
    for (const unit of c.units) retriever.add(unit.id, unit.text, unit.at)
    retriever.search('warm up', 1, c.now)
    for (const q of c.questions) {
      const t0 = performance.now()
      const ranked = retriever.search(q.question, Math.max(...KS), c.now)
      total.latenciesMs.push(performance.now() - t0)
      const picked = selectWithinBudget(
        ranked.map((id, i) => ({ id, score: -i })),
        texts,
        BUDGET_CHARS,
        PER_ENTRY_MAX,
      ).picked
      const chars = ranked.slice(0, 10).reduce((sum, id) => sum + charCount(texts.get(id)!.text), 0)
      const tallies = [total]
      if (byCategory !== undefined) {
        if (!byCategory.has(q.category)) byCategory.set(q.category, emptyRaw())
        tallies.push(byCategory.get(q.category)!)
      }
      for (const t of tallies) {
        t.n++
        t.chars += chars
        if (ranked.length === 0) t.empty++
        if (q.evidence.length === 0) continue
        for (const k of KS) t.recall[k]! += fractionFound(q.evidence, dialogueIds(ranked.slice(0, k)))
        t.budgetRecall += fractionFound(q.evidence, dialogueIds(picked.map((p) => p.id)))
      }
    }
  }
  return total
}

function fractionFound(evidence: readonly string[], retrieved: readonly string[]): number {
  const got = new Set(retrieved)
  return evidence.filter((e) => got.has(e)).length / evidence.length
}

export function merge(raws: readonly RawScore[]): RawScore {
  const out = emptyRaw()
  for (const r of raws) {
    out.n += r.n
    for (const k of KS) out.recall[k]! += r.recall[k]!
    out.budgetRecall += r.budgetRecall
    out.chars += r.chars
    out.empty += r.empty
    out.latenciesMs.push(...r.latenciesMs)
  }
  return out
}
