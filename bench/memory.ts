/**
 * Memory engine benchmark (not a test: it asserts nothing, it measures).
 *
 *   node bench/memory.ts [--entries 20000] [--writes 300] [--import 5000] [--replaces 400] [--dir /tmp/x]
 *
 * Builds a store of N entries (spread over days, ~9 a day like years of daily
 * use) by writing day files directly, then measures on it: write latency with
 * fsync (p50/p95), cold open + full scan time and RSS, full check time, and
 * import throughput. Then times durable/'s atomic writer against a plain
 * writeFile + the same fsyncs + rename, interleaved in the same run on a real
 * disk (never tmpfs, where fsync is free). Prints one table.
 */
import { mkdtemp, rm, writeFile, rename, statfs } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { performance } from 'node:perf_hooks'
import { atomicWrite, fsyncDir } from '../durable/atomic-write.ts'
import { RecallKeeper } from '../recall/index.ts'
import { writeDayEntries } from './synthetic.ts'
import { MemoryStore } from '../memory/index.ts'
import { checkStore, importItems, type ImportItem } from '../memory/upkeep.ts'
import { serializeEntry, newId } from '../memory/format.ts'

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '20000' },
    writes: { type: 'string', default: '300' },
    import: { type: 'string', default: '5000' },
    replaces: { type: 'string', default: '400' },
    dir: { type: 'string' },
  },
})
const N = Number(values.entries)
const W = Number(values.writes)
const I = Number(values.import)
const R = Number(values.replaces)
const PER_DAY = 9

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!
}
const ms = (x: number): string => `${x.toFixed(2)} ms`
const mb = (x: number): string => `${(x / 1024 / 1024).toFixed(1)} MB`

const home = values.dir ?? (await mkdtemp(join(tmpdir(), 'cyrene-bench-')))
const root = join(home, 'cyrene-philia093-0')
const rows: Array<[string, string]> = []
try {
  // 1. Build the store (not measured).
  await writeDayEntries(root, {
    count: N,
    perDay: PER_DAY,
    start: new Date('1996-01-01T12:00:00Z').getTime(),
    textOf: (n) => `第${n}条：她今天说起了工作里的事情，还有晚上想吃什么。Entry ${n} about work and dinner.`,
  })

  // 2. Cold open + first full read (what the host does at start), and RSS.
  const rss0 = process.memoryUsage().rss
  let t = performance.now()
  const store = await MemoryStore.open({ env: { DSH_HOME: home } })
  const { entries } = await store.scan()
  const openMs = performance.now() - t
  const rss = process.memoryUsage().rss
  rows.push(['entries in store', String(entries.length)])
  rows.push(['open + full read (cold)', ms(openMs)])
  rows.push(['RSS after open', `${mb(rss)} (+${mb(rss - rss0)})`])

  t = performance.now()
  await store.scan()
  const warmMs = performance.now() - t
  rows.push(['full re-read (warm, unchanged files)', ms(warmMs)])

  // 2b. The host's recall keeper: build (no cache yet, then from the cache), and the per-step
  //     levelling with the files, as a ratio of the full warm re-read it replaces.
  t = performance.now()
  await RecallKeeper.open(store.root)
  rows.push(['recall index build (no cache)', ms(performance.now() - t)])
  t = performance.now()
  const keeper = await RecallKeeper.open(store.root)
  rows.push(['recall index open (from cache)', ms(performance.now() - t)])
  const sweeps: number[] = []
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now()
    await keeper.refresh()
    sweeps.push(performance.now() - t0)
  }
  const sweep = pct(sweeps, 50)
  rows.push(['per-step levelling, nothing changed (p50 of 5)', `${ms(sweep)} (${(sweep / warmMs).toFixed(2)}× the warm re-read)`])
  const queries = ['工作', 'dinner', '晚上想吃什么', 'entry about work']
  t = performance.now()
  for (const q of queries) await keeper.search(q, 8)
  rows.push(['recall search (mean of 4 queries)', ms((performance.now() - t) / queries.length)])

  // 3. Writes with fsync, on the full store.
  const lat: number[] = []
  for (let i = 0; i < W; i++) {
    const t0 = performance.now()
    await store.write({ text: `基准写入 ${i}`, kind: 'fact', axis: '劳', reason: '基准' }, { by: 'model' })
    lat.push(performance.now() - t0)
  }
  rows.push([`write p50 (fsync, ${W} writes)`, ms(pct(lat, 50))])
  rows.push(['write p95', ms(pct(lat, 95))])
  rows.push(['write max', ms(Math.max(...lat))])

  // 4. Full check.
  t = performance.now()
  const report = await checkStore(store)
  rows.push(['full check', `${ms(performance.now() - t)} (${report.errors.length} errors)`])

  // 5. Import throughput.
  const items: ImportItem[] = Array.from({ length: I }, (_, i) => ({
    text: `导入的第${i}条`,
    at: new Date(Date.UTC(2030, 0, 1) + Math.floor(i / PER_DAY) * 86_400_000).toISOString(),
    kind: 'fact',
    source_ref: `bench:${i}`,
    origin: `bench:${i}`,
  }))
  t = performance.now()
  const imp = await importItems(store, items)
  const impS = (performance.now() - t) / 1000
  rows.push([`import (${imp.imported} entries)`, `${(imp.imported / impS).toFixed(0)} entries/s (${impS.toFixed(2)} s)`])
  rows.push(['store size', mb((await store.measureUsage(true)).total)])

  // 6. The atomic writer against the plain way, same run, same disk, interleaved.
  rows.push(...(await writerVsPlain(R)))
} finally {
  if (values.dir === undefined) await rm(home, { recursive: true, force: true })
}

/**
 * durable/'s atomicWrite against writeFile (flush: fsync) + rename + folder
 * fsync — the least any crash-safe replace does. Both replace a ~42 KB day
 * file R times, alternating which goes first so drift and noise hit both.
 * On a real disk: tmpfs makes fsync free and the ratio meaningless.
 */
async function writerVsPlain(rounds: number): Promise<Array<[string, string]>> {
  const TMPFS_MAGIC = 0x01021994
  let base = tmpdir()
  if (Number((await statfs(base)).type) === TMPFS_MAGIC) base = fileURLToPath(new URL('..', import.meta.url))
  const dir = await mkdtemp(join(base, '.cyrene-bench-writer-'))
  try {
    const fsType = Number((await statfs(dir)).type)
    let day = ''
    for (let k = 0; Buffer.byteLength(day) < 42_000; k++)
      day +=
        serializeEntry({
          text: `第${k}条：她今天说起了工作里的事情，还有晚上想吃什么。`,
          meta: { id: newId(new Date()), kind: 'fact', at: new Date().toISOString(), by: 'model', gate: 'day' },
        }) + '\n'
    const bytes = Buffer.from(day)
    const ours = join(dir, 'ours.md')
    const plain = join(dir, 'plain.md')
    const runOurs = async (): Promise<number> => {
      const t0 = performance.now()
      await atomicWrite(ours, bytes, { mode: 0o600 })
      return performance.now() - t0
    }
    const runPlain = async (): Promise<number> => {
      const t0 = performance.now()
      await writeFile(`${plain}.tmp`, bytes, { mode: 0o600, flush: true })
      await rename(`${plain}.tmp`, plain)
      await fsyncDir(dir)
      return performance.now() - t0
    }
    await runOurs()
    await runPlain() // warm both paths
    const a: number[] = []
    const b: number[] = []
    for (let i = 0; i < rounds; i++) {
      if (i % 2 === 0) {
        a.push(await runOurs())
        b.push(await runPlain())
      } else {
        b.push(await runPlain())
        a.push(await runOurs())
      }
    }
    const sum = (xs: number[]): number => xs.reduce((x, y) => x + y, 0)
    return [
      [
        `atomic writer vs plain (${rounds}× ${(bytes.length / 1024).toFixed(0)} KB each, interleaved, fs 0x${fsType.toString(16)}${fsType === TMPFS_MAGIC ? ' = tmpfs!' : ''})`,
        dir,
      ],
      ['  durable/ atomicWrite p50 / mean', `${ms(pct(a, 50))} / ${ms(sum(a) / rounds)}`],
      ['  writeFile+fsync+rename+dir fsync p50 / mean', `${ms(pct(b, 50))} / ${ms(sum(b) / rounds)}`],
      ['  ratio (ours / plain): p50, total', `${(pct(a, 50) / pct(b, 50)).toFixed(3)}, ${(sum(a) / sum(b)).toFixed(3)}`],
    ]
  } finally {
    await rm(dir, { recursive: true, force: true })
  }
}

const w = Math.max(...rows.map((r) => r[0].length))
process.stdout.write(
  `memory engine benchmark — node ${process.version}, ${process.platform}\n\n| ${'measure'.padEnd(w)} | value |\n|${'-'.repeat(w + 2)}|-------|\n${rows.map(([k, v]) => `| ${k.padEnd(w)} | ${v} |`).join('\n')}\n`,
)
