/**
 * Test worker: opens the engine for a DSH_HOME, says READY, then waits to be killed.
 *   node memory/testing/engine-holder.ts <DSH_HOME>
 */
import { openEngine } from '../store.ts'

const home = process.argv[2]
if (home === undefined) { process.stderr.write('usage: engine-holder.ts <DSH_HOME>\n'); process.exit(2) }
await openEngine({ env: { DSH_HOME: home } })
process.stdout.write('READY\n')
setInterval(() => {}, 60_000)
