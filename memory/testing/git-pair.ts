import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { syncGit } from '../git-sync.ts'
import { MemoryStore } from '../store.ts'

/** Two machines (two DSH_HOMEs) and a bare repository on disk, for the git sync's tests and bench. */
interface Pair {
  dir: string
  a: string
  b: string
  bare: string
  open: (home: string) => Promise<MemoryStore>
  cleanup: () => Promise<void>
}

async function makePair(): Promise<Pair> {
  const dir = await mkdtemp(join(tmpdir(), 'cyrene-git-'))
  const bare = join(dir, 'remote.git')
  execFileSync('git', ['init', '--bare', '--quiet', '-b', 'main', bare])
  const open = async (home: string): Promise<MemoryStore> => {
    const store = await MemoryStore.open({ env: { DSH_HOME: home } })
    if (store.settings.values.git.remote !== bare) await store.saveSettings({ git: { remote: bare } })
    return store
  }
  return { dir, a: join(dir, 'a'), b: join(dir, 'b'), bare, open, cleanup: () => rm(dir, { recursive: true, force: true }) }
}

/** Both machines on one history: A wrote `count` entries over `days` days and synced, then B's first sync took them. */
export interface JoinedPair extends Pair {
  storeA: MemoryStore
  storeB: MemoryStore
}

export async function joinedPair(count: number, days: number): Promise<JoinedPair> {
  const pair = await makePair()
  try {
    const storeA = await pair.open(pair.a)
    await writeMany(storeA, count, days, 'A')
    await syncGit(storeA)
    const storeB = await pair.open(pair.b)
    await syncGit(storeB)
    return { ...pair, storeA, storeB }
  } catch (error) {
    await pair.cleanup()
    throw error
  }
}

/** `count` person entries spread over `days` days of 2026-03, tagged so both sides' texts differ. */
export async function writeMany(store: MemoryStore, count: number, days: number, tag: string): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < count; i++) {
    const day = String((i % days) + 1).padStart(2, '0')
    const r = await store.write(
      { text: `${tag} 写下的第 ${i} 条：今天的事情`, kind: 'fact', axis: '智', reason: '同步测试', at: `2026-03-${day}T10:00:00` },
      { by: 'person' },
    )
    ids.push(r.id)
  }
  return ids
}

export async function idsOf(store: MemoryStore): Promise<string[]> {
  return (await store.scan()).entries.map((e) => e.id)
}
