/**
 * Test worker: writes entries into a store and prints `ACK <id> <text>` after
 * each write has returned (the store has fsynced it). Used by the crash test
 * (killed with SIGKILL at random points), the concurrency test and the lock
 * tests (stopped with SIGSTOP while it holds the write lock).
 *
 *   node memory/testing/writer.ts <DSH_HOME> <count|forever> <tag> [options]
 *     --stale-ms N             the store's lockStaleMs (lock tests use a short one)
 *     --hold-log FILE          append `+<pid>` right after taking the write lock and
 *                              `-<pid>` right before releasing it, so a test can see
 *                              whether two processes ever held it at once
 *     --pause-after-read-ms N  under the lock, after reading the file: print `HOLDING`,
 *                              then wait N ms before writing it back (a test stops the
 *                              process there)
 */
import { appendFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { setTimeout as sleep } from 'node:timers/promises'
import { MemoryStore } from '../store.ts'

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: { 'stale-ms': { type: 'string' }, 'hold-log': { type: 'string' }, 'pause-after-read-ms': { type: 'string' } },
})
const [home, countArg, tag] = positionals
if (home === undefined || countArg === undefined || tag === undefined) {
  process.stderr.write('usage: writer.ts <DSH_HOME> <count|forever> <tag> [--stale-ms N] [--hold-log FILE] [--pause-after-read-ms N]\n')
  process.exit(2)
}
const count = countArg === 'forever' ? Infinity : Number(countArg)
const staleArg = values['stale-ms']
const store = await MemoryStore.open({ env: { DSH_HOME: home }, lockWaitMs: 120_000, ...(staleArg === undefined ? {} : { lockStaleMs: Number(staleArg) }) })

const holdLog = values['hold-log']
if (holdLog !== undefined) {
  const inner = store.withWriteLock.bind(store)
  store.withWriteLock = (fn) =>
    inner(async (lock) => {
      appendFileSync(holdLog, `+${process.pid}\n`)
      try {
        return await fn(lock)
      } finally {
        appendFileSync(holdLog, `-${process.pid}\n`)
      }
    })
}
const pauseArg = values['pause-after-read-ms']
if (pauseArg !== undefined) {
  const read = store.readForRewrite.bind(store)
  store.readForRewrite = async (rel) => {
    const text = await read(rel)
    process.stdout.write('HOLDING\n')
    await sleep(Number(pauseArg))
    return text
  }
}

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
