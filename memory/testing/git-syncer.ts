/**
 * Test worker: one git sync of the store in <DSH_HOME>, printing `PHASE <phase>`
 * at each step (and each file the switch writes), then `DONE`. The kill test
 * SIGKILLs it at random moments.
 *
 *   node memory/testing/git-syncer.ts <DSH_HOME>
 */
import { MemoryStore } from '../store.ts'
import { syncGit } from '../git-sync.ts'

const [home] = process.argv.slice(2)
if (home === undefined) {
  process.stderr.write('usage: git-syncer.ts <DSH_HOME>\n')
  process.exit(2)
}
const store = await MemoryStore.open({ env: { DSH_HOME: home } })
process.stdout.write('READY\n')
await syncGit(store, {
  env: { ...process.env, DSH_HOME: home },
  onPhase: (p) => {
    process.stdout.write(`PHASE ${p}\n`)
  },
})
process.stdout.write('DONE\n')
