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
 * Target: added ≤ 0.5 × DSH's step at 10,000 entries, ≤ 1.0 × at 100,000.
 */
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { agentEvents, assembleContextFor } from '@deepseek-ai/dsh-agent'
import { createUserMessage } from '@deepseek-ai/dsh-llm'
import { joinContextSections, renderContextSections } from '@deepseek-ai/dsh-system-prompt'
import { buildBenchStore, BENCH_QUERIES } from './fixture.ts'
import { ensureDsh } from '../scripts/ensure-dsh.ts'

// The host boots inside the real dsh CLI's install (its built-in presets are on the roster there): after a plain `npm ci` it is not there yet.
ensureDsh()

const { values } = parseArgs({
  options: { sizes: { type: 'string', default: '0,10000,100000' }, steps: { type: 'string', default: '40' }, json: { type: 'boolean', default: false } },
})
const SIZES = values.sizes.split(',').map(Number)
const STEPS = Number(values.steps)

interface SizeResult {
  entries: number
  standardMs: number
  chatMs: number
  addedMs: number
  ratio: number
  target: number | undefined
  /** Of the added work: the recall round trip alone (the worker levels, searches and answers), and the assembly alone. */
  recallMs: number
  chatAssemblyMs: number
  standardAssemblyMs: number
  /** How many chat steps carried a memory-hit block (so recall really ran). */
  chatStepsWithHits: number
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

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
      const s: number[] = []
      const c: number[] = []
      let withHits = 0
      for (let i = -5; i < STEPS; i++) {
        const text = `${BENCH_QUERIES[(i + 5) % BENCH_QUERIES.length]} (${i})`
        let t = performance.now()
        await step(host.ctx, standard, text)
        const ts = performance.now() - t
        t = performance.now()
        const hit = await step(host.ctx, chat, text)
        const tc = performance.now() - t
        if (i < 0) continue // warm-up
        s.push(ts)
        c.push(tc)
        if (hit) withHits++
      }
      const r: number[] = []
      const ca: number[] = []
      const sa: number[] = []
      for (let i = 0; i < STEPS; i++) {
        let t = performance.now()
        await memory.recall(`${BENCH_QUERIES[i % BENCH_QUERIES.length]} ${i}`, 8)
        r.push(performance.now() - t)
        t = performance.now()
        await host.ctx.systemPrompt.assemble(assembleContextFor(chat))
        ca.push(performance.now() - t)
        t = performance.now()
        await host.ctx.systemPrompt.assemble(assembleContextFor(standard))
        sa.push(performance.now() - t)
      }
      const standardMs = median(s)
      const chatMs = median(c)
      const addedMs = Math.max(0, chatMs - standardMs)
      return {
        entries,
        standardMs,
        chatMs,
        addedMs,
        recallMs: median(r),
        chatAssemblyMs: median(ca),
        standardAssemblyMs: median(sa),
        ratio: addedMs / standardMs,
        target: entries >= 100_000 ? 1 : entries >= 10_000 ? 0.5 : undefined,
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
if (values.json) process.stdout.write(`${JSON.stringify({ steps: STEPS, results }, null, 2)}\n`)
else {
  const f = (x: number): string => `${x.toFixed(2)} ms`
  process.stdout.write(`per step (median of ${STEPS}): DSH's own standard step, the chat step, and what the plugin adds\n`)
  for (const r of results)
    process.stdout.write(
      `${String(r.entries).padStart(7)} entries: standard ${f(r.standardMs)}, chat ${f(r.chatMs)}, added ${f(r.addedMs)} = ${r.ratio.toFixed(2)} × DSH's step` +
        `${r.target === undefined ? '' : ` (target ≤ ${r.target})`}; ${r.chatStepsWithHits}/${STEPS} chat steps carried memory hits\n` +
        `${' '.repeat(16)}of it: recall round trip ${f(r.recallMs)}; assembly chat ${f(r.chatAssemblyMs)} vs standard ${f(r.standardAssemblyMs)}\n`,
    )
}
