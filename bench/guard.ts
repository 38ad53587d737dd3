/**
 * The store guard's effects check, beside the tool call it wraps (not a test: it measures).
 *
 *   npm run bench:guard [-- --sizes 0,10000,100000] [--calls 40] [--drops 2000,20000] [--json]   (compiles first)
 *
 * On stores of 0, 10,000 and 100,000 entries (bench/fixture.ts, about 1,096 day files at the
 * larger sizes) with one snapshot beside them (a copy of the store, as `cyrene backup` makes):
 * the effects check's own time per tool call (its look before and after a call that changed
 * nothing, guard/effects.ts `before` + `after`), beside DSH's own `bash` tool call
 * (`true`) in a real DSH host (tests/harness/host.ts bootHost) on the same store, whose time
 * includes the check: bash's own time = the call − the check. Also the memory the check keeps
 * (heap + buffers after a collection) and the time to build it at start. Medians.
 * Target: the check ≤ 10 % of a bash call's own time at 10,000 entries. Then a call that drops
 * thousands of files into the store (`measureDrop`, decision 301).
 */
import { cp, mkdir, mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { buildBenchStore } from './fixture.ts'
import { EffectsGuard } from '../guard/index.ts'
import { protectedFolders } from '../guard/row.ts'
import { ROOT_NAME, snapshotsDirOf } from '../memory/paths.ts'

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '0,10000,100000' },
    calls: { type: 'string', default: '40' },
    drops: { type: 'string', default: '2000,20000' },
    json: { type: 'boolean', default: false },
  },
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

interface DropRow {
  files: number
  guardedMs: number
  plainMs: number
  ratio: number
}

/** A bash loop that writes `files` small files into `dir`, one after another (as a model's call would). */
function writeFilesIn(dir: string, files: number): Promise<void> {
  const script = `cd "$1" && for ((i = 0; i < ${files}; i++)); do echo "x$i" > "f$i.md"; done`
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script, 'writer', dir], { stdio: 'inherit' })
    child.on('error', reject)
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`the writer exited ${code}`))))
  })
}

/**
 * A call whose process drops `files` new files into `锚/` (each put back and kept aside, decision 301), from
 * before the call to the end of its look after, beside the same process writing the same files into a
 * folder outside the store with no guard. The ratio at 20,000 files against the one at 2,000 shows
 * whether the guard's work grows with the files (linear) or with files × files.
 */
async function measureDrop(files: number): Promise<DropRow> {
  const home = await mkdtemp(join(tmpdir(), 'cyrene-guard-drop-'))
  try {
    const root = join(home, ROOT_NAME)
    await mkdir(join(root, '锚'), { recursive: true })
    const plainDir = join(home, 'plain')
    await mkdir(plainDir)
    let t = performance.now()
    await writeFilesIn(plainDir, files)
    const plainMs = performance.now() - t
    const guard = new EffectsGuard({ ...protectedFolders(root), pollMs: 150 })
    try {
      t = performance.now()
      const refused = await guard.before('bash')
      if (refused !== undefined) throw new Error(refused)
      await writeFilesIn(join(root, '锚'), files)
      await guard.after('bash')
      const guardedMs = performance.now() - t
      return { files, guardedMs, plainMs, ratio: guardedMs / plainMs }
    } finally {
      guard.dispose()
    }
  } finally {
    await rm(home, { recursive: true, force: true })
  }
}

const rows: Row[] = []
for (const n of SIZES) rows.push(await measure(n))
const drops: DropRow[] = []
for (const n of values.drops.split(',').filter(Boolean).map(Number)) drops.push(await measureDrop(n))
if (values.json) console.log(JSON.stringify({ rows, drops }))
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
  if (drops.length > 0) {
    console.log('\nfiles dropped into 锚/ in one call  guarded ms  same writes, no guard ms  ratio')
    for (const d of drops) console.log([d.files, d.guardedMs.toFixed(0), d.plainMs.toFixed(0), `${d.ratio.toFixed(2)} ×`].join('  '))
  }
}
