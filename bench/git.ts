/**
 * Git sync benchmark (issue 24; not a test: it measures).
 *
 *   node bench/git.ts [--entries 1000] [--days 10] [--runs 5] [--rounds 5]
 *
 * Two machines (two DSH_HOMEs) and a bare repository on this disk. The peer:
 * a sync with nothing to merge (commit nothing, fetch, nothing new, push
 * nothing), median of --runs. The row: A writes --entries entries and syncs,
 * B writes --entries of its own offline, and B's sync merges both (the merge
 * drivers run on every day file both touched). Target: the merge ≤ 5× the peer,
 * as the median over --rounds fresh pairs (each round its own peer).
 */
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import { syncGit } from '../memory/git.ts'
import { idsOf, joinedPair } from '../memory/testing/git-pair.ts'
import { importItems, type ImportItem } from '../memory/upkeep.ts'
import type { MemoryStore } from '../memory/index.ts'

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '1000' },
    days: { type: 'string', default: '10' },
    runs: { type: 'string', default: '5' },
    rounds: { type: 'string', default: '5' },
  },
})
const N = Number(values.entries)
const DAYS = Number(values.days)
const RUNS = Number(values.runs)
const ROUNDS = Number(values.rounds)

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now()
  await fn()
  return performance.now() - t
}

/** N entries as the importer writes them (one file rewrite per day, not N fsyncs: the setup is not what is measured). */
async function many(store: MemoryStore, tag: string): Promise<void> {
  const items: ImportItem[] = []
  for (let i = 0; i < N; i++)
    items.push({
      text: `${tag} 第 ${i} 条：和对方聊到的事情 ${i * 7919}`,
      at: `2026-03-${String((i % DAYS) + 1).padStart(2, '0')}T10:00:00`,
      kind: 'fact',
      axis: '智',
      reason: 'bench',
      origin: `bench:${tag}:${i}`,
    })
  const r = await importItems(store, items)
  if (r.imported !== N) throw new Error(`imported ${r.imported} of ${N}`)
}

/** One round on a fresh pair: the idle syncs (median) and the merge, with the merge checked. */
async function round(): Promise<{ idle: number[]; merge: number; switched: number }> {
  const pair = await joinedPair(3, 3)
  try {
    const [a, b] = [pair.storeA, pair.storeB]
    const idle: number[] = []
    for (let i = 0; i < RUNS; i++) idle.push(await timed(() => syncGit(b)))
    await many(a, 'A')
    await syncGit(a)
    await many(b, 'B')
    let report: Awaited<ReturnType<typeof syncGit>> | undefined
    const merge = await timed(async () => {
      report = await syncGit(b)
    })
    const ids = await idsOf(b)
    if (report?.merge !== 'merged' || new Set(ids).size !== 2 * N + 3 || ids.length !== 2 * N + 3)
      throw new Error(`merge went wrong: ${report?.merge}, ${ids.length} ids`)
    await a.close()
    await b.close()
    return { idle, merge, switched: report.changed.length }
  } finally {
    await pair.cleanup()
  }
}

// One merge is one sample; a single one moved the ratio by ±1 on a quiet machine, so the ratio is the median of --rounds.
const rounds: Array<{ idle: number[]; merge: number; switched: number }> = []
for (let r = 0; r < ROUNDS; r++) rounds.push(await round())
const ratios = rounds.map((r) => r.merge / median(r.idle))
const ratio = median(ratios)
console.log(`| git sync (${N} entries on each side over ${DAYS} day files, bare repository on disk) | figure |`)
console.log('|---|---|')
console.log(`| sync with nothing to merge (peer, median of ${RUNS} per round) | ${rounds.map((r) => median(r.idle).toFixed(0)).join(', ')} ms |`)
console.log(`| sync merging ${N} + ${N} entries (${rounds[0]!.switched} files switched) | ${rounds.map((r) => r.merge.toFixed(0)).join(', ')} ms |`)
console.log(
  `| ratio, median of ${ROUNDS} rounds (${ratios.map((x) => x.toFixed(2)).join(', ')}) | **${ratio.toFixed(2)}×** (target ≤ 5×) ${ratio <= 5 ? 'held' : 'NOT held'} |`,
)
