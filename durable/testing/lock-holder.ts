/**
 * Test worker: takes one lock, says READY, then obeys one-line commands on stdin:
 *   assert   → prints `OWNED`, or `LOST <message>` if assertOwned() refuses
 *   release  → releases the lock, prints `RELEASED`
 *   exit     → exits at once (without calling release)
 *
 *   node durable/testing/lock-holder.ts <lockPath> <staleMs> [purpose]
 */
import { createInterface } from 'node:readline'
import { acquire } from '../lock.ts'

const [path, staleArg, purpose = 'holder'] = process.argv.slice(2)
if (path === undefined || staleArg === undefined) {
  process.stderr.write('usage: lock-holder.ts <lockPath> <staleMs> [purpose]\n')
  process.exit(2)
}
const lock = await acquire({ path, purpose, staleMs: Number(staleArg), waitMs: 0 })
process.stdout.write('READY\n')
for await (const command of createInterface({ input: process.stdin })) {
  if (command === 'assert') {
    try {
      lock.assertOwned()
      process.stdout.write('OWNED\n')
    } catch (e) {
      process.stdout.write(`LOST ${(e as Error).message}\n`)
    }
  } else if (command === 'release') {
    await lock.release()
    process.stdout.write('RELEASED\n')
  } else if (command === 'exit') {
    process.exit(0)
  }
}
