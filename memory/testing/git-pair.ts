import { execFileSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { MemoryStore } from '../store.ts'

/** Two machines (two DSH_HOMEs) and a bare repository on disk, for the git sync's tests and bench. */
export interface Pair {
  dir: string
  a: string
  b: string
  bare: string
  open: (home: string) => Promise<MemoryStore>
  cleanup: () => Promise<void>
}

export async function makePair(): Promise<Pair> {
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
