/**
 * Test worker: one process that dreams. Opens the store of a DSH_HOME with a
 * fixed clock, prints READY, waits for GO on stdin, then runs the night's
 * dream with a scripted model that writes one journal section (slowly, so two
 * workers overlap) and prints `OUTCOME <kind>`.
 *   node night/testing/dreamer.ts <DSH_HOME> <now ISO> <label>
 */
import { createInterface } from 'node:readline'
import { MemoryStore } from '../../memory/index.ts'
import { MockLlm } from '../../tests/harness/mock-llm.ts'
import { DreamConfig } from '../config.ts'
import { dreamNight } from '../night.ts'

const [home, at, label = 'worker'] = process.argv.slice(2)
if (home === undefined || at === undefined) {
  process.stderr.write('usage: dreamer.ts <DSH_HOME> <now ISO> [label]\n')
  process.exit(2)
}
const now = new Date(at)
const store = await MemoryStore.open({ env: { DSH_HOME: home }, now: () => now })
const llm = new MockLlm((r) => (r.messages.length === 1 ? { tool: 'memory_dream_journal', args: { text: `梦（${label}）` } } : { text: '…' }))
const stream = async function* (o: Parameters<MockLlm['stream']>[0]) {
  await new Promise((r) => setTimeout(r, 200))
  yield* llm.stream(o)
}
process.stdout.write('READY\n')
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'GO') continue
  const o = await dreamNight(
    { store, config: DreamConfig({} as DreamConfig), stream, system: () => '你是昔涟。', liveUserLines: () => [], wuyuVersion: async () => undefined },
    { trigger: label, force: false },
  )
  process.stdout.write(`OUTCOME ${o.kind}\n`)
  process.exit(0)
}
