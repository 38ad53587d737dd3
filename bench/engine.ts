/**
 * Engine start and per-step freshness at scale (not a test: it measures).
 *
 *   node bench/engine.ts [--entries 100000] [--json]      (npm run bench:engine compiles first)
 *
 * On one store of N entries (bench/fixture.ts, ≈ 1,096 day files at 100,000):
 *  1. the recall keeper's index: rebuilt from the files (no cache) beside loaded from
 *     its cache (nothing changed) — target load ≥ 5 × faster;
 *  2. the per-step freshness check: a full look at every file's stamp (the old way)
 *     beside the watcher's list of one changed file (O(changes));
 *  3. inside a real DSH host (tests/harness/host.ts bootHost, the real dsh-base
 *     composition): the longest event-loop delay (perf_hooks.monitorEventLoopDelay)
 *     and the engine lock's greatest age while the engine starts, with and without the
 *     index cache, beside the same host starting on an empty store (DSH's own boot);
 *     target < 50 ms once DSH has booted, and a lock age far below its 10 s stale time;
 *  4. the in-process fallback (no worker): its longest event-loop block.
 */
import { mkdtemp, rm, stat, appendFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { buildBenchStore, BENCH_QUERIES } from './fixture.ts'
import { keeperCacheFile, LocalRecall, RecallKeeper, startLiveRecall } from '../recall/index.ts'
import { ROOT_NAME } from '../memory/paths.ts'
import { ensureDsh } from '../scripts/ensure-dsh.ts'

// The host boots inside the real dsh CLI's install (its built-in presets are on the roster there): after a plain `npm ci` it is not there yet.
ensureDsh()

const { values } = parseArgs({ options: { entries: { type: 'string', default: '100000' }, json: { type: 'boolean', default: false } } })
const N = Number(values.entries)
const say = (line: string): void => {
  if (!values.json) process.stdout.write(`${line}\n`)
}
const ms = (x: number): string => `${x.toFixed(1)} ms`

interface StartFigures {
  bootMs: number
  readyMs: number
  /** Longest event-loop delay while DSH boots (its own plugins load in this window too). */
  bootMaxDelayMs: number
  /** Longest event-loop delay from the end of boot until the recall index answers. */
  afterBootMaxDelayMs: number
  lockMaxAgeMs: number
  /** Time DSH's thread was busy (event-loop utilisation × window) from the end of boot until the index answered. */
  afterBootBusyMs: number
  afterBootWindowMs: number
  where: string
}

/**
 * The machine's own noise, as a peer: the longest event-loop delay of this idle thread while
 * a sibling thread spins for `ms` (no plugin code runs on this thread). On a loaded machine the
 * OS deschedules the idle thread too; this is the floor the figures above stand on.
 */
async function siblingBusyPeer(ms: number): Promise<number> {
  const { Worker } = await import('node:worker_threads')
  const h = monitorEventLoopDelay({ resolution: 1 })
  h.enable()
  const w = new Worker(`const end = Date.now() + ${Math.round(ms)}; while (Date.now() < end) {}`, { eval: true })
  await new Promise((r) => w.once('exit', r))
  h.disable()
  return h.max / 1e6
}

async function timed<T>(fn: () => Promise<T>): Promise<[T, number]> {
  const t = performance.now()
  const v = await fn()
  return [v, performance.now() - t]
}

/** The engine lock folder's age (its holder refreshes its mtime), sampled every 20 ms. */
function lockSampler(root: string): { stop: () => number } {
  let max = 0
  const timer = setInterval(() => {
    stat(join(root, '元', 'engine.lock')).then(
      (st) => (max = Math.max(max, Date.now() - st.mtimeMs)),
      () => undefined,
    )
  }, 20)
  return {
    stop: () => {
      clearInterval(timer)
      return max
    },
  }
}

async function hostStart(home: string): Promise<StartFigures> {
  const { bootHost } = await import('../tests/harness/host.ts')
  const lock = lockSampler(join(home, ROOT_NAME))
  const boot = monitorEventLoopDelay({ resolution: 1 })
  boot.enable()
  const t0 = performance.now()
  const host = await bootHost({ dshHome: home })
  const bootMs = performance.now() - t0
  boot.disable()
  const after = monitorEventLoopDelay({ resolution: 1 })
  after.enable()
  const elu0 = performance.eventLoopUtilization()
  const t1 = performance.now()
  const memory = host.ctx.get('cyreneMemory')
  await memory.ready
  await memory.recallReady
  const readyMs = performance.now() - t0
  // One turn's worth of recall while the host runs, still inside the window.
  for (const q of BENCH_QUERIES) await memory.recall(q, 8)
  after.disable()
  const elu = performance.eventLoopUtilization(elu0)
  const afterBootWindowMs = performance.now() - t1
  const where = (memory as { live?: { where: string } }).live?.where ?? 'none'
  const lockMaxAgeMs = lock.stop()
  await host.dispose()
  return {
    bootMs,
    readyMs,
    bootMaxDelayMs: boot.max / 1e6,
    afterBootMaxDelayMs: after.max / 1e6,
    lockMaxAgeMs,
    afterBootBusyMs: elu.active,
    afterBootWindowMs,
    where,
  }
}

async function main(): Promise<void> {
  const home = await mkdtemp(join(tmpdir(), 'cyrene-engine-'))
  const empty = await mkdtemp(join(tmpdir(), 'cyrene-engine-empty-'))
  const root = join(home, ROOT_NAME)
  try {
    say(`building a store of ${N} entries …`)
    const files = await buildBenchStore(home, N)

    // 1. Rebuild beside load, best of 3 each, alternating: in the recall worker (where the host runs it),
    //    and in this thread (the command line's and the fallback's way).
    const rebuild: number[] = []
    const load: number[] = []
    const rebuildHere: number[] = []
    const loadHere: number[] = []
    const inWorker = async (): Promise<number> => {
      const live = startLiveRecall(root)
      const [, t] = await timed(() => live.ready)
      await live.close()
      return t
    }
    for (let i = 0; i < 3; i++) {
      await rm(keeperCacheFile(root), { force: true })
      rebuild.push(await inWorker())
      load.push(await inWorker())
      await rm(keeperCacheFile(root), { force: true })
      rebuildHere.push((await timed(() => RecallKeeper.open(root)))[1])
      loadHere.push((await timed(() => RecallKeeper.open(root)))[1])
    }
    const rebuildMs = Math.min(...rebuild)
    const loadMs = Math.min(...load)

    // 2. Per-step freshness: every stamp, beside the one file the watcher names.
    const fullLook: number[] = []
    const oneChange: number[] = []
    await (async () => {
      const keeper = await RecallKeeper.open(root)
      const rel = '岁月涟漪/日档/2023/01/2023-01-01.md'
      for (let i = 0; i < 7; i++) {
        fullLook.push((await timed(() => keeper.refresh()))[1])
        await appendFile(join(root, rel), '\n')
        oneChange.push((await timed(() => keeper.refresh([rel])))[1])
      }
    })()
    const med = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

    // A DSH process starts without a 100,000-entry index on its own heap; the measurements above left
    // theirs as garbage, whose collection would land inside the windows below (run with --expose-gc).
    ;(globalThis as { gc?: () => void }).gc?.()
    // 3. The engine starting inside a real DSH host.
    await hostStart(empty) // warm-up: DSH's modules load once per process
    const peer = await hostStart(empty)
    await rm(keeperCacheFile(root), { force: true })
    const cold = await hostStart(home)
    const warm = await hostStart(home)
    const noise = await siblingBusyPeer(Math.min(10_000, cold.readyMs))

    // 4. The in-process fallback, sliced: its longest block.
    const fallback = monitorEventLoopDelay({ resolution: 1 })
    fallback.enable()
    const local = LocalRecall.start(root, { cache: false })
    await local.ready
    fallback.disable()
    await local.close()

    const result = {
      entries: N,
      dayFiles: files,
      index: {
        worker: { rebuildMs, loadMs, loadSpeedup: rebuildMs / loadMs },
        inProcess: { rebuildMs: Math.min(...rebuildHere), loadMs: Math.min(...loadHere), loadSpeedup: Math.min(...rebuildHere) / Math.min(...loadHere) },
        target: 5,
      },
      freshness: { fullLookMs: med(fullLook), oneChangeMs: med(oneChange), ratio: med(fullLook) / med(oneChange) },
      host: { emptyStore: peer, noCache: cold, withCache: warm, targetMaxDelayMs: 50, lockStaleMs: 10_000, siblingBusyPeerMaxDelayMs: noise },
      inProcessFallbackMaxDelayMs: fallback.max / 1e6,
    }
    if (values.json) {
      process.stdout.write(`${JSON.stringify(result, null, 2)}\n`)
      return
    }
    const rows: [string, string][] = [
      ['entries / day files', `${N} / ${files}`],
      ['index rebuild in the recall worker (no cache, best of 3)', ms(rebuildMs)],
      ['index load in the recall worker (cache, nothing changed)', `${ms(loadMs)} — ${(rebuildMs / loadMs).toFixed(1)}× faster (target ≥ 5×)`],
      [
        'index rebuild / load in this thread (command line)',
        `${ms(Math.min(...rebuildHere))} / ${ms(Math.min(...loadHere))} — ${(Math.min(...rebuildHere) / Math.min(...loadHere)).toFixed(1)}×`,
      ],
      ['per-step freshness: every stamp (old way)', ms(med(fullLook))],
      ['per-step freshness: the one changed file (watcher)', `${ms(med(oneChange))} — ${(med(fullLook) / med(oneChange)).toFixed(1)}× less`],
    ]
    for (const [name, f] of [
      ['empty store', peer],
      ['100k, no cache', cold],
      ['100k, cache', warm],
    ] as const) {
      rows.push([`host start, ${name}: boot / index ready`, `${ms(f.bootMs)} / ${ms(f.readyMs)} (recall: ${f.where})`])
      rows.push([`host start, ${name}: max event-loop delay during boot`, ms(f.bootMaxDelayMs)])
      rows.push([`host start, ${name}: max event-loop delay after boot (target < 50)`, ms(f.afterBootMaxDelayMs)])
      rows.push([`host start, ${name}: DSH's thread busy after boot`, `${ms(f.afterBootBusyMs)} of ${ms(f.afterBootWindowMs)}`])
      rows.push([`host start, ${name}: engine lock max age (stale 10 s)`, ms(f.lockMaxAgeMs)])
    }
    rows.push(['peer: max event-loop delay of an idle thread beside a busy one (machine noise)', ms(noise)])
    rows.push(['in-process fallback (no worker): max event-loop delay', ms(fallback.max / 1e6)])
    const width = Math.max(...rows.map((r) => r[0].length))
    for (const [k, v] of rows) say(`${k.padEnd(width)}  ${v}`)
  } finally {
    await rm(home, { recursive: true, force: true })
    await rm(empty, { recursive: true, force: true })
  }
}

await main()
