/**
 * Git sync benchmark (issue 24; not a test: it measures).
 *
 *   node bench/git.ts [--entries 1000] [--days 10] [--runs 5]
 *
 * Two machines (two DSH_HOMEs) and a bare repository on this disk. The peer:
 * a sync with nothing to merge (commit nothing, fetch, nothing new, push
 * nothing), median of --runs. The row: A writes --entries entries and syncs,
 * B writes --entries of its own offline, and B's sync merges both (the merge
 * drivers run on every day file both touched). Target: the merge ≤ 5× the peer.
 */
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import { syncGit } from '../memory/git.ts'
import { idsOf, joinedPair } from '../memory/testing/git-pair.ts'
import { importItems, type ImportItem } from '../memory/upkeep.ts'
import type { MemoryStore } from '../memory/index.ts'

const { values } = parseArgs({
  options: { entries: { type: 'string', default: '1000' }, days: { type: 'string', default: '10' }, runs: { type: 'string', default: '5' } },
})
const N = Number(values.entries)
const DAYS = Number(values.days)
const RUNS = Number(values.runs)

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
  const ratio = merge / median(idle)
  console.log(`| git sync (${N} entries on each side over ${DAYS} day files, bare repository on disk) | figure |`)
  console.log('|---|---|')
  console.log(`| sync with nothing to merge (peer, median of ${RUNS}) | ${median(idle).toFixed(0)} ms (runs ${idle.map((x) => x.toFixed(0)).join(', ')}) |`)
  console.log(`| sync merging ${N} + ${N} entries (${report.changed.length} files switched) | ${merge.toFixed(0)} ms |`)
  console.log(`| ratio | **${ratio.toFixed(2)}×** (target ≤ 5×) ${ratio <= 5 ? 'held' : 'NOT held'} |`)
  await a.close()
  await b.close()
} finally {
  await pair.cleanup()
}
