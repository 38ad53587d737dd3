/**
 * The store guard's effects check, beside the tool call it wraps (not a test: it measures).
 *
 *   npm run bench:guard [-- --sizes 0,10000,100000] [--calls 40] [--json]   (compiles first)
 *
 * On stores of 0, 10,000 and 100,000 entries (bench/fixture.ts, about 1,096 day files at the
 * larger sizes) with one snapshot beside them (a copy of the store, as `cyrene backup` makes):
 * the effects check's own time per tool call (its look before and after a call that changed
 * nothing, guard/effects.ts `before` + `after`), beside DSH's own `bash` tool call
 * (`true`) in a real DSH host (tests/harness/host.ts bootHost) on the same store, whose time
 * includes the check: bash's own time = the call − the check. Also the memory the check keeps
 * (heap + buffers after a collection) and the time to build it at start. Medians.
 * Target: the check ≤ 10 % of a bash call's own time at 10,000 entries.
 */
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { buildBenchStore } from './fixture.ts'
import { EffectsGuard } from '../guard/index.ts'
import { protectedFolders } from '../guard/row.ts'
import { ROOT_NAME, snapshotsDirOf } from '../memory/paths.ts'

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '0,10000,100000' }, calls: { type: 'string', default: '40' }, json: { type: 'boolean', default: false } },
})
const SIZES = values.sizes.split(',').map(Number)
const CALLS = Number(values.calls)

interface Row {
  entries: number
  paths: number
  keptMiB: number
  memoryMiB: number
  buildMs: number
  checkMs: number
  bashCallMs: number
  bashOwnMs: number
  ratio: number
  target: number | undefined
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const gc = () => (globalThis as { gc?: () => void }).gc?.()
const heap = () => {
  const m = process.memoryUsage()
  return m.heapUsed + m.arrayBuffers
}

async function measure(entries: number): Promise<Row> {
  const home = await mkdtemp(join(tmpdir(), 'cyrene-guard-bench-'))
  const previous = process.env.DSH_HOME
  process.env.DSH_HOME = home
  try {
    const root = join(home, ROOT_NAME)
    if (entries > 0) await buildBenchStore(home, entries)
    await mkdir(root, { recursive: true })
    // One daily snapshot beside the store (a plain copy, as the snapshots are).
    await cp(root, join(snapshotsDirOf(root), '2026-12-01-daily'), { recursive: true })
    const folders = protectedFolders(root)
    gc()
    const m0 = heap()
    let t = performance.now()
    const guard = new EffectsGuard({ ...folders, pollMs: 150 })
    const buildMs = performance.now() - t
    gc()
    const memoryMiB = (heap() - m0) / 2 ** 20
    const kept = guard.doctorState().kept!
    const check: number[] = []
    for (let i = -15; i < CALLS; i++) {
      t = performance.now()
      const refused = await guard.before('bash')
      if (refused !== undefined) throw new Error(refused)
      await guard.after('bash')
      if (i >= 0) check.push(performance.now() - t)
    }
    guard.dispose()
    const { bootHost } = await import('../tests/harness/host.ts')
    const host = await bootHost({ dshHome: home })
    const calls: number[] = []
    try {
      const memory = host.ctx.get('cyreneMemory')
      await memory.ready
      // The recall index is built in a worker at start; the calls are timed after it, as in use.
      await memory.recallReady
      const agent = await host.createAgent('standard', home)
      for (let i = -5; i < CALLS; i++) {
        t = performance.now()
        const r = await host.tool(agent, 'bash', { command: 'true', description: 'bench' })
        if (r.isError) throw new Error(JSON.stringify(r.content))
        if (i >= 0) calls.push(performance.now() - t)
      }
    } finally {
      await host.dispose()
    }
    const checkMs = median(check)
    const bashCallMs = median(calls)
    const bashOwnMs = Math.max(0.001, bashCallMs - checkMs)
    return {
      entries,
      paths: kept.paths,
      keptMiB: kept.bytes / 2 ** 20,
      memoryMiB,
      buildMs,
      checkMs,
      bashCallMs,
      bashOwnMs,
      ratio: checkMs / bashOwnMs,
      target: entries === 10_000 ? 0.1 : undefined,
    }
  } finally {
    if (previous === undefined) delete process.env.DSH_HOME
    else process.env.DSH_HOME = previous
    await rm(home, { recursive: true, force: true })
  }
}

const rows: Row[] = []
for (const n of SIZES) rows.push(await measure(n))
if (values.json) console.log(JSON.stringify(rows))
else {
  const f = (x: number) => x.toFixed(2)
  console.log('entries  paths  kept MiB  memory MiB  build ms  check ms  bash call ms  bash own ms  check/bash  target')
  for (const r of rows)
    console.log(
      [
        r.entries,
        r.paths,
        f(r.keptMiB),
        f(r.memoryMiB),
        f(r.buildMs),
        f(r.checkMs),
        f(r.bashCallMs),
        f(r.bashOwnMs),
        `${(r.ratio * 100).toFixed(1)} %`,
        r.target === undefined ? '' : `≤ ${r.target * 100} %`,
      ]
        .map(String)
        .join('  '),
    )
}
