/**
 * Test worker: opens the engine for a DSH_HOME, says READY, then waits to be
 * killed (or stopped).
 *   node memory/testing/engine-holder.ts <DSH_HOME> [lockStaleMs]
 */
import { openEngine } from '../engine.ts'

const [home, staleArg] = process.argv.slice(2)
if (home === undefined) {
  process.stderr.write('usage: engine-holder.ts <DSH_HOME> [lockStaleMs]\n')
  process.exit(2)
}
await openEngine({ env: { DSH_HOME: home }, ...(staleArg === undefined ? {} : { lockStaleMs: Number(staleArg) }) })
process.stdout.write('READY\n')
setInterval(() => {}, 60_000)
