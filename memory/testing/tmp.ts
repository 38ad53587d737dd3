import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A fresh DSH_HOME for one test; remove it with the returned function. */
export async function tempHome(): Promise<{ home: string; root: string; cleanup: () => Promise<void> }> {
  const home = await mkdtemp(join(tmpdir(), 'cyrene-mem-'))
  return { home, root: join(home, 'cyrene-philia093-0'), cleanup: () => rm(home, { recursive: true, force: true }) }
}
