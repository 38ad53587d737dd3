// The project's own recall set (bench/own/): three invented people, questions worded
// unlike their memories, both cross-lingual directions, temporal and traditional
// questions, and questions about nothing stored. Split fixed before tuning:
// odd question numbers tune, even ones are held out (bench/own/README.md).
//
// Run alone for a sweep on the tuning half: node bench/own.ts [--half tune|held|all] [--from q277] [--options '{"abstainCoverage":0.2}'] [--misses]
// bench/recall.ts calls runOwn for its report.

import { readFileSync } from 'node:fs'
import type { RecallOptionsInput } from '../recall/core/index.ts'
import { CjkBigramBm25, MiniSearchPeer, Ours, type Retriever } from './peers.ts'

export interface OwnMemory {
  id: string
  person: string
  at: string
  text: string
}

export interface OwnQuestion {
  id: string
  person: string
  kind: string
  question: string
  evidence: string[]
}

export type Half = 'tune' | 'held' | 'all'

/** The moment every question of the set is asked (a Monday; the temporal questions are written against it). */
export const OWN_NOW = new Date('2026-06-15T12:00:00Z')

/** The fixed split: odd question numbers are the tuning half, even ones the held-out half; `t…` ids (questions-tune-extra.json) tune only. */
export function half(question: OwnQuestion): 'tune' | 'held' {
  if (question.id.startsWith('t')) return 'tune'
  return Number(question.id.slice(1)) % 2 === 1 ? 'tune' : 'held'
}

export function loadOwn(): { memories: OwnMemory[]; questions: OwnQuestion[] } {
  const read = (name: string): unknown => JSON.parse(readFileSync(new URL(`./own/${name}`, import.meta.url), 'utf8'))
  const questions = [...(read('questions.json') as OwnQuestion[]), ...(read('questions-tune-extra.json') as OwnQuestion[])]
  return { memories: read('memories.json') as OwnMemory[], questions }
}

export interface OwnScore {
  answerable: number
  hit5: number
  mrr10: number
  /** Share of answerable questions answered with nothing. */
  emptyAnswerable: number
  /** Share of questions about nothing stored that got a hit. */
  noneWithHits: number
  noneN: number
  byKind: Record<string, { n: number; hit5: number }>
  misses: { id: string; kind: string; question: string; got: string[] }[]
}

/** hit@5, MRR@10 and the rest, for one system over one half of the set (one store per person); `from` keeps ids from it on (a later batch). */
export function runOwn(make: () => Retriever, which: Half, from?: string): OwnScore {
  const { memories, questions } = loadOwn()
  const stores = new Map<string, Retriever>()
  for (const m of memories) {
    let store = stores.get(m.person)
    if (store === undefined) stores.set(m.person, (store = make()))
    store.add(m.id, m.text, m.at)
  }
  const score: OwnScore = { answerable: 0, hit5: 0, mrr10: 0, emptyAnswerable: 0, noneWithHits: 0, noneN: 0, byKind: {}, misses: [] }
  for (const q of questions) {
    if (which !== 'all' && half(q) !== which) continue
    if (from !== undefined && !(q.id[0] === from[0] && q.id >= from)) continue
    const got = stores.get(q.person)!.search(q.question, 10, OWN_NOW)
    if (q.evidence.length === 0) {
      score.noneN++
      if (got.length > 0) {
        score.noneWithHits++
        score.misses.push({ id: q.id, kind: 'nothing stored', question: q.question, got: got.slice(0, 5) })
      }
      continue
    }
    score.answerable++
    if (got.length === 0) score.emptyAnswerable++
    const rank = got.findIndex((id) => q.evidence.includes(id))
    const kind = (score.byKind[q.kind] ??= { n: 0, hit5: 0 })
    kind.n++
    if (rank >= 0 && rank < 5) {
      score.hit5++
      kind.hit5++
    } else score.misses.push({ id: q.id, kind: q.kind, question: q.question, got: got.slice(0, 5) })
    if (rank >= 0) score.mrr10 += 1 / (rank + 1)
  }
  const n = Math.max(1, score.answerable)
  score.hit5 /= n
  score.mrr10 /= n
  score.emptyAnswerable /= n
  score.noneWithHits /= Math.max(1, score.noneN)
  for (const k of Object.values(score.byKind)) k.hit5 /= Math.max(1, k.n)
  return score
}

export const OWN_KINDS = ['zh', 'en', 'zh-en', 'en-zh', 'temporal', 'traditional'] as const

/** The systems the own set compares: ours, a CJK-aware BM25 (bigrams), minisearch. */
export function ownSystems(options: RecallOptionsInput = {}): { name: string; make: () => Retriever }[] {
  return [
    { name: 'recall (ours)', make: () => new Ours(options) },
    { name: 'ours, abstain off', make: () => new Ours(options, false) },
    { name: 'cjk-bigram-bm25', make: () => new CjkBigramBm25() },
    { name: 'minisearch (default)', make: () => new MiniSearchPeer() },
  ]
}

export function printOwn(which: Half, rows: { name: string; score: OwnScore }[], from?: string): void {
  const pct = (x: number): string => `${(x * 100).toFixed(1)} %`
  const part = which === 'held' ? 'held-out half (even ids)' : which === 'tune' ? 'tuning half (odd ids)' : 'both halves'
  console.log(`\nOwn set (bench/own/), ${part}${from === undefined ? '' : `, ids from ${from} on`}:`)
  console.log(`| system | hit@5 | MRR@10 | ${OWN_KINDS.join(' | ')} | answerable → nothing | nothing stored → hits |`)
  console.log(`|---|---|---|${OWN_KINDS.map(() => '---|').join('')}---|---|`)
  for (const { name, score } of rows) {
    const kinds = OWN_KINDS.map((k) => {
      const s = score.byKind[k]
      return s === undefined ? '–' : `${s.hit5.toFixed(2)} (${Math.round(s.hit5 * s.n)}/${s.n})`
    })
    console.log(
      `| ${name} | ${score.hit5.toFixed(3)} | ${score.mrr10.toFixed(3)} | ${kinds.join(' | ')} | ${pct(score.emptyAnswerable)} | ${pct(score.noneWithHits)} (${Math.round(score.noneWithHits * score.noneN)}/${score.noneN}) |`,
    )
  }
}

function main(argv: readonly string[]): void {
  let which: Half = 'tune'
  let options: RecallOptionsInput = {}
  let misses = false
  let from: string | undefined
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--half') which = argv[++i] as Half
    else if (argv[i] === '--options') options = JSON.parse(argv[++i]!) as RecallOptionsInput
    else if (argv[i] === '--misses') misses = true
    else if (argv[i] === '--from') from = argv[++i]
  }
  const rows = ownSystems(options).map(({ name, make }) => ({ name, score: runOwn(make, which, from) }))
  printOwn(which, rows, from)
  if (misses) for (const m of rows[0]!.score.misses) console.log(`  miss ${m.id} [${m.kind}] ${m.question} → ${m.got.join(', ') || '(nothing)'}`)
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv.slice(2))
