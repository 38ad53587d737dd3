/**
 * Test worker: restores a snapshot and prints `PHASE <phase>` as each step of
 * the restore is done, then `DONE`. The restore crash test kills it with
 * SIGKILL at chosen moments.
 *
 *   node memory/testing/restorer.ts <DSH_HOME> <snapshot>
 */
import { MemoryStore } from '../store.ts'
import { restoreSnapshot } from '../restore.ts'

const [home, name] = process.argv.slice(2)
if (home === undefined || name === undefined) {
  process.stderr.write('usage: restorer.ts <DSH_HOME> <snapshot>\n')
  process.exit(2)
}
const store = await MemoryStore.open({ env: { DSH_HOME: home } })
process.stdout.write('READY\n')
await restoreSnapshot(store, name, { by: 'person' }, undefined, {
  onPhase: (p) => {
    process.stdout.write(`PHASE ${p}\n`)
  },
})
process.stdout.write('DONE\n')
