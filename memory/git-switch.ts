import { promises as fs } from 'node:fs'
import { dirname, join } from 'node:path'
import type { HeldLock } from '../durable/lock.ts'
import { ensureDir, fsyncDir, writeAtomic } from './fsio.ts'
import { BRANCH, gitOpts, isMachineLocal, repoPaths, type RepoPaths } from './git-repo.ts'
import { catBlobs, git, gitText } from './git-run.ts'
import type { StoreCore } from './store-core.ts'

/**
 * Moving the store's files from one commit to another, the way restore does
 * (CONTRACT#git-switch): the target commit is complete in git first (staged), a
 * journal naming both commits is made durable, then each changed file is
 * replaced atomically, then the branch moves and the journal goes. A process
 * killed at any point leaves the journal: the next holder of the write lock
 * applies the same change again (it is idempotent) — the store is the old one
 * until the journal exists, the merged one once it has been applied.
 */
const JOURNAL = 'cyrene-switch.json'

interface Journal {
  from: string
  to: string
  at: string
}

function journalPath(store: StoreCore): string {
  return join(store.root, '.git', JOURNAL)
}

/** Git's own lock files a killed git leaves behind; only removed while the store's write lock is held (no git of ours runs). */
const GIT_LOCKS = ['index.lock', 'HEAD.lock', 'config.lock', `refs/heads/${BRANCH}.lock`, 'packed-refs.lock', 'shallow.lock', 'gc.pid']

export async function clearStaleGitLocks(paths: RepoPaths): Promise<void> {
  for (const name of GIT_LOCKS) await fs.rm(join(paths.gitDir, name), { force: true })
  await fs.rm(join(paths.gitDir, `refs/remotes/origin/${BRANCH}.lock`), { force: true })
}

export async function switchTo(
  store: StoreCore,
  lock: HeldLock,
  env: NodeJS.ProcessEnv,
  from: string,
  to: string,
  onFile?: (path: string) => void,
): Promise<string[]> {
  const j: Journal = { from, to, at: store.now().toISOString() }
  await writeAtomic(journalPath(store), `${JSON.stringify(j)}\n`, { beforeRename: () => lock.assertOwned() })
  onFile?.('')
  return await applyJournal(store, lock, env, j, onFile)
}

/** What a killed sync left: finished now (under the write lock). Cheap when there is nothing: one stat. */
export async function recoverGitSwitch(store: StoreCore, lock: HeldLock, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  let text: string
  try {
    text = await fs.readFile(journalPath(store), 'utf8')
  } catch {
    return false
  }
  const paths = repoPaths(store)
  await clearStaleGitLocks(paths)
  let j: Journal | undefined
  try {
    const v = JSON.parse(text) as Journal
    if (/^[0-9a-f]{40}$/.test(v.from) && /^[0-9a-f]{40}$/.test(v.to)) j = v
  } catch {
    /* torn: written atomically, so not ours */
  }
  if (j === undefined) {
    await fs.rm(journalPath(store), { force: true })
    return false
  }
  await applyJournal(store, lock, env, j)
  return true
}

export async function journalPending(store: StoreCore): Promise<boolean> {
  return await fs
    .access(journalPath(store))
    .then(() => true)
    .catch(() => false)
}

/** The files that differ between two commits, with their new mode (`git diff --raw`). */
async function changes(paths: RepoPaths, env: NodeJS.ProcessEnv, from: string, to: string): Promise<Array<{ path: string; mode: string; status: string }>> {
  const raw = (await git(['diff', '--raw', '-z', '--no-renames', '--no-ext-diff', from, to], gitOpts(paths, env))).stdout.toString('utf8')
  const parts = raw.split('\0')
  const out: Array<{ path: string; mode: string; status: string }> = []
  for (let i = 0; i + 1 < parts.length; i += 2) {
    const head = parts[i]!.split(' ')
    out.push({ mode: head[1]!, status: head[4]!.charAt(0), path: parts[i + 1]! })
  }
  return out
}

async function applyJournal(store: StoreCore, lock: HeldLock, env: NodeJS.ProcessEnv, j: Journal, onFile?: (path: string) => void): Promise<string[]> {
  const paths = repoPaths(store)
  const o = gitOpts(paths, env)
  const changed: string[] = []
  // Only plain files are ever written into the store: a link or a submodule from another machine is not.
  const list = (await changes(paths, env, j.from, j.to)).filter(
    (c) => !isMachineLocal(c.path) && (c.status === 'D' || c.mode === '100644' || c.mode === '100755'),
  )
  const writes = list.filter((c) => c.status !== 'D')
  const blobs = await catBlobs(
    writes.map((c) => `${j.to}:${c.path}`),
    o,
  )
  const blobOf = new Map(writes.map((c, i) => [c.path, blobs[i]]))
  for (const c of list) {
    lock.assertOwned()
    if (c.status === 'D') {
      await fs.rm(store.path(c.path), { force: true })
      changed.push(c.path)
      continue
    }
    const blob = blobOf.get(c.path)
    if (blob === undefined) throw new Error(`git has no ${c.path} in ${j.to}`)
    const full = store.path(c.path)
    await ensureDir(dirname(full))
    await store.replaceFile(c.path, blob, lock)
    changed.push(c.path)
    onFile?.(c.path)
  }
  await git(['update-ref', `refs/heads/${BRANCH}`, j.to], o)
  await git(['read-tree', '--reset', j.to], o)
  await git(['update-index', '-q', '--refresh'], { ...o, ok: [1] })
  await fs.rm(journalPath(store), { force: true })
  await fsyncDir(paths.gitDir)
  return changed
}

/** The commit the branch points at, or undefined before the first. */
export async function headCommit(paths: RepoPaths, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const h = await gitText(['rev-parse', '--verify', '-q', `refs/heads/${BRANCH}`], { ...gitOpts(paths, env), ok: [1] })
  return h === '' ? undefined : h
}
