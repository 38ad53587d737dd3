/**
 * Test worker: writes entries into a store and prints `ACK <id> <text>` after
 * each write has returned (the store has fsynced it). Used by the crash test
 * (killed with SIGKILL at random points) and the concurrency test.
 *
 *   node memory/testing/writer.ts <DSH_HOME> <count|forever> <tag>
 */
import { MemoryStore } from '../store.ts'

const [home, countArg, tag] = process.argv.slice(2)
if (home === undefined || countArg === undefined || tag === undefined) {
  process.stderr.write('usage: writer.ts <DSH_HOME> <count|forever> <tag>\n')
  process.exit(2)
}
const count = countArg === 'forever' ? Infinity : Number(countArg)
const store = await MemoryStore.open({ env: { DSH_HOME: home }, lockWaitMs: 120_000 })
process.stdout.write('READY\n')
for (let i = 0; i < count; i++) {
  const text = `${tag}-${i} 记下的第${i}件事`
  const day = (i % 28) + 1
  const at = `2026-02-${String(day).padStart(2, '0')}T12:00:00`
  // Every seventh write fails the gate, so 余页/待定 is exercised too.
  const input = i % 7 === 0 ? { text, at } : { text, at, kind: 'fact', axis: '智', reason: '测试' }
  const r = await store.write(input, { by: 'model' })
  process.stdout.write(`ACK ${r.id} ${text}\n`)
}
