/**
 * The plugin's added work per step, beside DSH's own (not a test: it measures).
 *
 *   node bench/step.ts [--sizes 0,10000,100000] [--steps 40] [--json]   (npm run bench:step compiles first)
 *
 * Inside a real DSH host (tests/harness/host.ts bootHost, the real dsh-base composition),
 * on stores of 0, 10,000 and 100,000 entries (bench/fixture.ts): one step is what DSH's
 * agent loop does before it calls the model (dsh-agent-loop `preStep`): assemble the
 * system prompt, render the context sections, run the `agent/pre-step` waterfall. A
 * `standard` step is DSH's own work; a `chat` step (the Cyrene preset built on it) adds
 * everything the plugin does: `{{cyrene_memory}}`, the rails, the 4,000 pass and the section
 * mirror of the assembly, the worldbook match, and the memory hits (the recall worker levelled
 * with what changed, searched, the block composed) — whatever of these exists when it runs.
 * Each step starts as DSH's starts: `agent/inbox/claimed` with the person's message. Steps
 * alternate between the two presets with a different message each time; medians.
 *
 * Two measures of each step (docs/decisions/053): its wall time, and the CPU time the whole
 * process spent in it (`process.cpuUsage`: every thread, so the recall worker's search, the
 * collector's helpers and the file reads of the thread pool count). A step's CPU window runs
 * on for SETTLE_MS after it returns, so work it leaves behind is its own; an idle window
 * between the pairs shows what the host burns per ms doing nothing (timers, watchers, the
 * collector): a longer window carries more of it, so each step's CPU is also given net of that.
 * Target: added ≤ 0.5 × DSH's step at 10,000 entries, ≤ 1.0 × at 100,000, judged on net CPU time.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { setTimeout as sleep } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { agentEvents, assembleContextFor } from '@deepseek-ai/dsh-agent'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { joinContextSections, renderContextSections } from '@deepseek-ai/dsh-system-prompt'
import { buildBenchStore, BENCH_QUERIES } from './fixture.ts'
import { ensureDsh } from '../scripts/ensure-dsh.ts'

// The host boots inside the real dsh CLI's install (its built-in presets are on the roster there): after a plain `npm ci` it is not there yet.
ensureDsh()

const { values } = parseArgs({
  options: {
    sizes: { type: 'string', default: '0,10000,100000' },
    steps: { type: 'string', default: '40' },
    warmup: { type: 'string', default: '100' },
    json: { type: 'boolean', default: false },
  },
})
const SIZES = values.sizes.split(',').map(Number)
const STEPS = Number(values.steps)
/**
 * Untimed pairs first. A host runs for hours: what is measured is each step's own work, not V8 compiling the code
 * of the first hundred (on 2026-12-08 the compiler threads alone were 2.8 ms a chat step over the first 100 steps
 * and 0.9 ms over 900: decision 335).
 */
const WARMUP = Number(values.warmup)
/** How long a CPU window stays open after its work returned (what the step set going finishes in it). */
const SETTLE_MS = 5
/** An idle window between the pairs lasts this much more (the host's background rate is read from it). */
const IDLE_MS = 15

/** One measure of one kind of step: medians of wall time and CPU time (ms), and of DSH's own thread's CPU where Node tells it. */
interface Measure {
  wallMs: number
  cpuMs: number
  /** CPU less what the idle host burns over as long a window (`idleCpuPerMs` × the window's wall time): the step's own work. */
  netCpuMs: number
  /** The CPU of DSH's thread alone (`process.threadCpuUsage`, Node ≥ 23.9); the rest of `cpuMs` ran on other threads (the recall worker). */
  mainThreadCpuMs: number | undefined
}

interface SizeResult {
  entries: number
  standard: Measure
  chat: Measure
  /** chat − standard, and that over standard, by wall time, by CPU time, and by CPU net of the idle rate (the target's measure). */
  addedWallMs: number
  ratioWall: number
  addedCpuMs: number
  ratioCpu: number
  addedNetCpuMs: number
  ratioNetCpu: number
  target: number | undefined
  /** CPU spent by the process per ms of an idle window between the pairs (the host's timers, watchers, collector): every window carries this much per ms. */
  idleCpuPerMs: number
  /** Of the added work: the recall round trip alone (the worker levels, searches and answers), and the assembly alone. */
  recall: Measure
  chatAssembly: Measure
  standardAssembly: Measure
  /** How many chat steps carried a memory-hit block (so recall really ran). */
  chatStepsWithHits: number
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

type ThreadCpu = (previous?: NodeJS.CpuUsage) => NodeJS.CpuUsage
const threadCpuUsage = (process as unknown as { threadCpuUsage?: ThreadCpu }).threadCpuUsage?.bind(process)
const ms = (u: NodeJS.CpuUsage): number => (u.user + u.system) / 1000

interface Sample {
  wall: number
  /** Wall time of the whole CPU window (the work and the settling). */
  window: number
  cpu: number
  thread: number | undefined
}

/** `work` timed by the wall and by CPU; the CPU window closes SETTLE_MS after `work` returns. */
async function timed<T>(work: () => Promise<T>): Promise<{ sample: Sample; result: T }> {
  const cpu0 = process.cpuUsage()
  const thread0 = threadCpuUsage?.()
  const t0 = performance.now()
  const result = await work()
  const wall = performance.now() - t0
  await sleep(SETTLE_MS)
  const cpu = ms(process.cpuUsage(cpu0))
  const window = performance.now() - t0
  const thread = thread0 === undefined ? undefined : ms(threadCpuUsage!(thread0))
  return { sample: { wall, window, cpu, thread }, result }
}

class Samples {
  private readonly all: Sample[] = []
  push(s: Sample): void {
    this.all.push(s)
  }
  measure(idleCpuPerMs: number): Measure {
    const threads = this.all.map((s) => s.thread)
    return {
      wallMs: median(this.all.map((s) => s.wall)),
      cpuMs: median(this.all.map((s) => s.cpu)),
      netCpuMs: median(this.all.map((s) => s.cpu - idleCpuPerMs * s.window)),
      mainThreadCpuMs: threads.every((t) => t !== undefined) ? median(threads) : undefined,
    }
  }
}

async function step(ctx: any, agent: any, text: string): Promise<boolean> {
  const controller = new AbortController()
  const message = createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } })
  const events = agentEvents(ctx, agent)
  // The inbox hands the person's message to the step first (DSH emits this when it claims it); then the assembly, then the pre-step.
  events.emit('agent/inbox/claimed', { message, turn: 1 } as never)
  const assembly = await ctx.systemPrompt.assemble(assembleContextFor(agent, controller.signal))
  joinContextSections(renderContextSections(assembly))
  const decision = await events.waterfall('agent/pre-step', { messages: [message], turn: 1, step: 1, signal: controller.signal } as never, () =>
    Promise.resolve({ kind: 'enter', messages: [message] }),
  )
  return JSON.stringify(decision).includes('【记忆命中】')
}

async function measure(entries: number): Promise<SizeResult> {
  const { bootHost } = await import('../tests/harness/host.ts')
  const home = await mkdtemp(join(tmpdir(), 'cyrene-step-'))
  try {
    if (entries > 0) await buildBenchStore(home, entries)
    const host = await bootHost({ dshHome: home })
    try {
      const memory = host.ctx.get('cyreneMemory')
      await memory.ready
      await memory.recallReady
      const standard = await host.createAgent('standard')
      const chat = await host.createAgent('chat')
      const s = new Samples()
      const c = new Samples()
      const idle: number[] = []
      let withHits = 0
      for (let i = -WARMUP; i < STEPS; i++) {
        const text = `${BENCH_QUERIES[(i + WARMUP) % BENCH_QUERIES.length]} (${i})`
        const ts = await timed(async () => await step(host.ctx, standard, text))
        const tc = await timed(async () => await step(host.ctx, chat, text))
        const quiet = await timed(async () => await sleep(IDLE_MS))
        if (i < 0) continue // warm-up
        s.push(ts.sample)
        c.push(tc.sample)
        idle.push(quiet.sample.cpu / quiet.sample.window)
        if (tc.result) withHits++
      }
      const r = new Samples()
      const ca = new Samples()
      const sa = new Samples()
      for (let i = 0; i < STEPS; i++) {
        r.push((await timed(async () => await memory.recall(`${BENCH_QUERIES[i % BENCH_QUERIES.length]} ${i}`, 8))).sample)
        ca.push((await timed(async () => await host.ctx.systemPrompt.assemble(assembleContextFor(chat)))).sample)
        sa.push((await timed(async () => await host.ctx.systemPrompt.assemble(assembleContextFor(standard)))).sample)
      }
      const idleCpuPerMs = median(idle)
      const st = s.measure(idleCpuPerMs)
      const ch = c.measure(idleCpuPerMs)
      const addedWallMs = Math.max(0, ch.wallMs - st.wallMs)
      const addedCpuMs = Math.max(0, ch.cpuMs - st.cpuMs)
      const addedNetCpuMs = Math.max(0, ch.netCpuMs - st.netCpuMs)
      return {
        entries,
        standard: st,
        chat: ch,
        addedWallMs,
        ratioWall: addedWallMs / st.wallMs,
        addedCpuMs,
        ratioCpu: addedCpuMs / st.cpuMs,
        addedNetCpuMs,
        ratioNetCpu: addedNetCpuMs / st.netCpuMs,
        target: entries >= 100_000 ? 1 : entries >= 10_000 ? 0.5 : undefined,
        idleCpuPerMs,
        recall: r.measure(idleCpuPerMs),
        chatAssembly: ca.measure(idleCpuPerMs),
        standardAssembly: sa.measure(idleCpuPerMs),
        chatStepsWithHits: withHits,
      }
    } finally {
      await host.dispose()
    }
  } finally {
    await rm(home, { recursive: true, force: true })
  }
}

const results: SizeResult[] = []
for (const size of SIZES) results.push(await measure(size))
if (values.json) process.stdout.write(`${JSON.stringify({ steps: STEPS, settleMs: SETTLE_MS, results }, null, 2)}\n`)
else {
  const f = (x: number): string => `${x.toFixed(2)} ms`
  const both = (m: Measure): string =>
    `${f(m.wallMs)} wall, ${f(m.cpuMs)} CPU, ${f(m.netCpuMs)} net${m.mainThreadCpuMs === undefined ? '' : ` (${f(m.mainThreadCpuMs)} on DSH's thread)`}`
  process.stdout.write(
    `per step (median of ${STEPS}, the pair alternating): DSH's own standard step, the chat step, and what the plugin adds, by wall time and by CPU time of the whole process (net of the idle host's: the target's measure)\n`,
  )
  for (const r of results) {
    const target = r.target === undefined ? '' : ` (target ≤ ${r.target})`
    process.stdout.write(
      `${String(r.entries).padStart(7)} entries: standard ${both(r.standard)}; chat ${both(r.chat)}\n` +
        `${' '.repeat(16)}added ${f(r.addedNetCpuMs)} CPU net = ${r.ratioNetCpu.toFixed(2)} × DSH's step${target}; by raw CPU ${f(r.addedCpuMs)} = ${r.ratioCpu.toFixed(2)} ×; by wall ${f(r.addedWallMs)} = ${r.ratioWall.toFixed(2)} ×\n` +
        `${' '.repeat(16)}${r.chatStepsWithHits}/${STEPS} chat steps carried memory hits; each CPU window settles ${SETTLE_MS} ms; idle, the host burns ${r.idleCpuPerMs.toFixed(3)} ms CPU per ms (net = CPU − that × the window)\n` +
        `${' '.repeat(16)}of it: recall round trip ${both(r.recall)}; assembly chat ${both(r.chatAssembly)} vs standard ${both(r.standardAssembly)}\n`,
    )
  }
}
