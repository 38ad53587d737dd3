/**
 * The person's commands at scale (not a test: it measures).
 *
 *   node bench/commands.ts [--entries 100000] [--rounds 5] [--per-day N] [--today] [--json]   (npm run bench:commands compiles first)
 *
 * On a store of N entries (bench/fixture.ts, written straight to the files), with the recall
 * cache warm (one search first, not measured): the wall time of `cyrene memory write`,
 * `search` and `recall` as the person runs them (a fresh `node bin/cyrene.js` each), beside
 * `cyrene memory --help` — the cost of starting the command line at all — measured in the
 * same rounds, interleaved, medians. Targets (issue 20): write ≤ 4×, search ≤ 6×, recall ≤ 6×
 * the help at 100,000 entries. `--per-day` sets how many entries share a day file (about 92 over three
 * years by default); `--per-day 100000` puts them all in one file, as one big import of a day would; `--today` makes the last day today, so each write goes to that file (an
 * import of undated lines puts every entry in today's file).
 */
import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { buildBenchStore, ZH_QUERIES } from './fixture.ts'

const { values } = parseArgs({
  options: {
    entries: { type: 'string', default: '100000' },
    rounds: { type: 'string', default: '5' },
    'per-day': { type: 'string' },
    today: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
})
const N = Number(values.entries)
const ROUNDS = Number(values.rounds)
const BIN = fileURLToPath(new URL('../bin/cyrene.js', import.meta.url))
const TARGETS = { write: 4, search: 6, recall: 6 } as const
type Command = 'help' | keyof typeof TARGETS

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

function run(home: string, args: string[]): number {
  const t = performance.now()
  execFileSync(process.execPath, [BIN, ...args], { env: { ...process.env, DSH_HOME: home }, stdio: ['ignore', 'ignore', 'inherit'] })
  return performance.now() - t
}

function argsOf(command: Command, round: number): string[] {
  const q = ZH_QUERIES[round % ZH_QUERIES.length]!
  if (command === 'help') return ['memory', '--help']
  if (command === 'search') return ['memory', 'search', q]
  if (command === 'recall') return ['memory', 'recall', q]
  return ['memory', 'write', `第${round}次基准写入：今天喝了一杯乌龙茶，想起了${q}`, '--kind', 'fact', '--axis', '美', '--reason', '基准', '--quiet']
}

const home = await mkdtemp(join(tmpdir(), 'cyrene-commands-'))
try {
  await buildBenchStore(home, N, values['per-day'] === undefined ? undefined : Number(values['per-day']), values.today)
  run(home, ['memory', 'search', '乌龙茶']) // builds and saves the cache (not measured)
  const times: Record<Command, number[]> = { help: [], write: [], search: [], recall: [] }
  const order: Command[] = ['help', 'write', 'help', 'search', 'help', 'recall']
  for (let r = 0; r < ROUNDS; r++) {
    // Each command after a write sees one changed day file: the real case, not a cache that never changes.
    for (const c of r % 2 === 0 ? order : [...order].reverse()) times[c].push(run(home, argsOf(c, r)))
  }
  const help = median(times.help)
  const rows = (Object.keys(TARGETS) as (keyof typeof TARGETS)[]).map((c) => {
    const ms = median(times[c])
    return { command: c, ms, ratio: ms / help, target: TARGETS[c], held: ms / help <= TARGETS[c] }
  })
  if (values.json) process.stdout.write(`${JSON.stringify({ entries: N, rounds: ROUNDS, helpMs: help, rows }, null, 2)}\n`)
  else {
    process.stdout.write(
      `cyrene memory commands at ${N} entries${values['per-day'] === undefined ? '' : ` (${values['per-day']} to a day file)`}${values.today ? ', the last day today' : ''}, cache warm (median of ${ROUNDS}, node ${process.version}); \`cyrene memory --help\` ${help.toFixed(0)} ms\n`,
    )
    for (const r of rows)
      process.stdout.write(
        `  ${r.command.padEnd(6)} ${r.ms.toFixed(0).padStart(6)} ms = ${r.ratio.toFixed(2)} × help (target ≤ ${r.target}: ${r.held ? 'yes' : 'NO'})\n`,
      )
  }
} finally {
  await rm(home, { recursive: true, force: true })
}
