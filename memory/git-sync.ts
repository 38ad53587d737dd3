import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import type { HeldLock } from '../durable/lock.ts'
import { parseEntryFile } from './entry.ts'
import { fileStamp, type FileStamp } from './file-stamp.ts'
import { callWindowOpen, callWindowsClosed } from '../durable/host-writes.ts'
import { readTextOr } from './fsio.ts'
import { BRANCH, REMOTE, ensureRepo, gitOpts, isRepo, refuseBadRemote, repoPaths, type RepoPaths } from './git-repo.ts'
import { GitError, catBlobs, git, gitText } from './git-run.ts'
import { clearStaleGitLocks, headCommit, journalPending, switchTo, SwitchDeferred, type SwitchResult } from './git-switch.ts'
import { stageMerge } from './git-stage.ts'
import { hostname } from 'node:os'
import { setTimeout as sleep } from 'node:timers/promises'
import { SETTINGS_REL } from './settings.ts'
import { RefusedError } from './validate.ts'
import type { MemoryStore } from './store.ts'

/**
 * One git sync of the store (CONTRACT#git-sync): commit what changed (one commit,
 * its message listing the entries written), fetch, merge in a staging work
 * tree beside the root with the store's own drivers, switch the store to the
 * merge, push. Everything runs under the store's write lock; the push is
 * retried when another machine pushed in between.
 */
export interface GitSyncReport {
  ok: boolean
  /** What the person reads (one line). */
  message: string
  remote: string | undefined
  /** Entry ids this machine's commit listed. */
  written: string[]
  committed: boolean
  merge: 'none' | 'fast-forward' | 'merged'
  /** Files the switch changed in the store. */
  changed: string[]
  pushed: boolean
  /** Conflicts the merge added (元/冲突/). */
  newConflicts: number
  /** Set when what the switch took leaves the store over a quota (new memories are then refused): bytes, and the largest file taken. */
  overQuota?: { which: 'total' | 'margin'; used: number; limit: number; largest?: { path: string; bytes: number } }
  /** Files saved here while the sync ran (after its commit): merged with what came, or kept as they were (CONTRACT#git-switch). */
  edited: SwitchResult['edited']
  head: string | undefined
  /** Why the remote was not reached (what git said), when it was not: the caller words it (gitsync/report-text.ts). */
  failure?: { what: 'fetch' | 'push'; why: string }
}

export interface GitSyncOptions {
  env?: NodeJS.ProcessEnv
  /** Overrides git.remote from 元/settings.json (already saved there by the caller). */
  remote?: string
  /** Pack the history now (`git gc`) instead of only when git thinks it is due (`--auto`). */
  gc?: boolean
  /** How long to wait for a tool call's window to close before the sync (default 60 s). */
  windowWaitMs?: number
  /** Test seam: called at each phase (the kill test waits on these). */
  onPhase?: (phase: string) => void
}

const PUSH_TRIES = 3
/** The wait before the next try after a race, times the try's number (200, then 400 ms). */
const RACE_WAIT_MS = 200

/** What git says when another git holds the ref this moment (a push still finishing on the remote). */
const LOCK_RACE = /cannot lock ref|failed to lock|Unable to create '[^']*\.lock'|incorrect old value provided/i

/** The remote a sync uses: the option, else `git.remote` in the settings. Undefined when none is set. */
export function configuredRemote(store: MemoryStore, override?: string): string | undefined {
  const r = override ?? store.settings.values.git.remote
  return r === '' ? undefined : r
}

const settingsSeen = new WeakMap<MemoryStore, FileStamp | undefined>()

/**
 * `configuredRemote` as 元/settings.json says it now. A running DSH opened its
 * store once, and the person's `cyrene sync git --remote`, the page of another
 * process or a hand edit may have set the remote since: the settings are read
 * again whenever the file changed since this store last looked.
 */
export async function currentRemote(store: MemoryStore): Promise<string | undefined> {
  const stamp = await fileStamp(store.path(SETTINGS_REL))
  if (!settingsSeen.has(store) || settingsSeen.get(store) !== stamp) {
    settingsSeen.set(store, stamp)
    await store.reloadSettings()
  }
  return configuredRemote(store)
}

export async function syncGit(store: MemoryStore, opts: GitSyncOptions = {}): Promise<GitSyncReport> {
  const env = opts.env ?? process.env
  const remote = configuredRemote(store, opts.remote)
  if (remote !== undefined) {
    refuseBadRemote(remote)
  }
  const phase = opts.onPhase ?? ((): void => undefined)
  // A commit takes what is on disk: while a tool call's window is open that may be the model's (DSH only;
  // the guard puts it back after the call). Wait for it outside the lock, which the guard itself waits on.
  const waitMs = opts.windowWaitMs ?? WINDOW_WAIT_MS
  const until = Date.now() + waitMs
  for (;;) {
    if (!(await callWindowsClosed(Math.max(0, until - Date.now())))) throw new CallRunningError(waitMs)
    try {
      const report = await store.withWriteLock(async (lock) => (callWindowOpen() ? undefined : await syncLocked(store, lock, env, remote, phase, opts)))
      if (report !== undefined) return report
    } catch (error) {
      // A call began while the files were being switched: the rest waits for it (the journal stays).
      if (error instanceof SwitchDeferred) throw new CallRunningError(waitMs)
      throw error
    }
    if (Date.now() >= until) throw new CallRunningError(waitMs)
  }
}

/** A sync in DSH that waited for a model's tool call (or a process it left running) to end, and stopped waiting. */
export class CallRunningError extends Error {
  readonly waitedMs: number
  constructor(waitedMs: number) {
    super(
      `a tool call of the model (or a program it left running) has been running for over ${Math.round(waitedMs / 1000)} s: the sync waits until it ends, so that nothing the call changed is sent; it runs again at the next write or in 30 minutes`,
    )
    this.name = 'CallRunningError'
    this.waitedMs = waitedMs
  }
}

/** How long a sync waits for a tool call's window to close (in all, however often one opens again). */
const WINDOW_WAIT_MS = 60_000

async function syncLocked(
  store: MemoryStore,
  lock: HeldLock,
  env: NodeJS.ProcessEnv,
  remote: string | undefined,
  phase: (p: string) => void,
  opts: GitSyncOptions,
): Promise<GitSyncReport> {
  const paths = await ensureRepo(store, lock, env, remote)
  await clearStaleGitLocks(paths)
  // A killed or deferred switch was finished by the lock's holder (MemoryStore.withWriteLock), which kept what it did for this report.
  const recovered = store.takeRecoveredSwitch()
  // Half-switched files must not be committed: wait for the call the switch waits for.
  if (recovered === 'deferred' || (await journalPending(store))) throw new SwitchDeferred('')
  phase('repo')
  const report: GitSyncReport = {
    ok: true,
    message: '',
    remote,
    written: [],
    committed: false,
    merge: 'none',
    changed: [],
    pushed: false,
    newConflicts: 0,
    edited: [],
    head: undefined,
  }
  // What a killed or deferred sync had begun to take is reported as taken now.
  if (recovered !== undefined) {
    report.merge = 'merged'
    report.changed.push(...recovered.changed)
    report.edited.push(...recovered.edited)
    report.newConflicts += recovered.conflicts
  }
  const written = await commitLocal(store, paths, env)
  report.committed = written !== undefined
  report.written = written ?? []
  phase('committed')
  if (remote === undefined) {
    report.head = await headCommit(paths, env)
    report.message = `${describeCommit(report)}; no remote is set (cyrene sync git --remote URL, or git.remote in 元/settings.json), so nothing was sent`
    return report
  }
  for (let attempt = 1; ; attempt++) {
    try {
      await git(['fetch', '--quiet', '--no-tags', '--prune', REMOTE, `+refs/heads/*:refs/remotes/${REMOTE}/*`], gitOpts(paths, env))
    } catch (error) {
      // This machine's disk refusing (full, over quota, read-only) is the system's refusal, not the remote being away.
      if (error instanceof GitError && LOCAL_REFUSAL.test(error.stderr)) throw error
      // Another git holding a ref this moment (a killed sync's fetch still finishing) is a race: once more, a little later.
      if (error instanceof GitError && LOCK_RACE.test(error.stderr) && attempt < PUSH_TRIES) {
        await sleep(RACE_WAIT_MS * attempt)
        continue
      }
      return unreachable(report, error, paths, env, 'fetch from')
    }
    phase('fetched')
    const step = await mergeRemote(store, lock, paths, env, phase)
    if (step.merge !== 'none') report.merge = step.merge === 'merged' || report.merge === 'merged' ? 'merged' : step.merge
    report.changed.push(...step.changed)
    report.newConflicts += step.newConflicts + step.switchConflicts
    report.edited.push(...step.edited)
    if (step.changed.length > 0) report.overQuota = await quotaAfter(store, step.changed)
    phase('switched')
    // What the person saved while this sync ran is committed on top of the switch and goes out with it
    // (not while a tool call's window is open: the next sync commits it once the guard has judged).
    if (step.edited.length > 0 && !callWindowOpen()) {
      const more = await commitLocal(store, paths, env)
      if (more !== undefined) {
        report.committed = true
        report.written.push(...more)
      }
    }
    const pushed = await push(paths, env)
    if (pushed === 'ok') break
    if (pushed !== 'rejected' || attempt >= PUSH_TRIES)
      return unreachable(report, pushed === 'rejected' ? new Error('the remote kept moving') : pushed, paths, env, 'push to')
    await sleep(RACE_WAIT_MS * attempt)
  }
  report.pushed = true
  phase('pushed')
  await git(['gc', opts.gc === true ? '--prune=now' : '--auto', '--quiet'], { ...gitOpts(paths, env), ok: [1] }).catch(() => undefined)
  report.head = await headCommit(paths, env)
  report.message = `${describeCommit(report)}; ${describeMerge(report)}; sent to ${remote}`
  return report
}

/**
 * The quotas after a switch: another machine's files are taken whatever their size (refusing them would stop
 * every sync), but the person is told at once that new memories will be refused, and which file weighs most.
 */
async function quotaAfter(store: MemoryStore, changed: readonly string[]): Promise<GitSyncReport['overQuota']> {
  const u = await store.measureUsage(true)
  const { totalBytes, marginBytes } = store.limits
  const over =
    u.total > totalBytes
      ? { which: 'total' as const, used: u.total, limit: totalBytes }
      : u.margin > marginBytes
        ? { which: 'margin' as const, used: u.margin, limit: marginBytes }
        : undefined
  if (over === undefined) return undefined
  let largest: { path: string; bytes: number } | undefined
  for (const path of changed) {
    const bytes = (await fs.lstat(store.path(path)).catch(() => undefined))?.size ?? 0
    if (largest === undefined || bytes > largest.bytes) largest = { path, bytes }
  }
  return { ...over, ...(largest === undefined ? {} : { largest }) }
}

/** What git says when this machine's file system refuses its writes. */
const LOCAL_REFUSAL = /No space left on device|Disk quota exceeded|Read-only file system/i

function describeCommit(r: GitSyncReport): string {
  if (!r.committed) return 'nothing new to commit'
  return r.written.length === 0 ? 'committed the changed files' : `committed ${r.written.length} ${r.written.length === 1 ? 'entry' : 'entries'}`
}

function describeMerge(r: GitSyncReport): string {
  const files = `${r.changed.length} file${r.changed.length === 1 ? '' : 's'}`
  const conflicts = r.newConflicts === 0 ? '' : `, ${r.newConflicts} conflict${r.newConflicts === 1 ? '' : 's'} for you to pick (cyrene memory check)`
  const kept =
    r.edited.length === 0
      ? ''
      : `; ${r.edited.length} file${r.edited.length === 1 ? '' : 's'} saved here during the sync kept (${r.edited
          .map((e) => e.path)
          .slice(0, 3)
          .join(', ')}${r.edited.length > 3 ? ', …' : ''})`
  const quota =
    r.overQuota === undefined
      ? ''
      : `; the store is now over its ${r.overQuota.which === 'total' ? '' : '余页/ '}quota: new writes are refused until there is room`
  if (r.merge === 'none') return 'nothing new from the other machines'
  return (
    (r.merge === 'fast-forward' ? `took ${files} from the other machines${conflicts}` : `merged ${files} from the other machines${conflicts}`) + kept + quota
  )
}

async function unreachable(report: GitSyncReport, error: unknown, paths: RepoPaths, env: NodeJS.ProcessEnv, what: string): Promise<GitSyncReport> {
  report.ok = false
  report.head = await headCommit(paths, env)
  const why = error instanceof GitError ? error.stderr.trim().split('\n').slice(-2).join(' ') : (error as Error).message
  report.failure = { what: what === 'fetch from' ? 'fetch' : 'push', why: why || 'no message' }
  report.message = `${describeCommit(report)}; could not ${what} ${report.remote} (${why || 'no message'}). Your memory is committed here and goes at the next sync.`
  return report
}

/**
 * git's own files below the root (`岁月涟漪/.gitignore`, `梦境/.gitattributes`, a `.gitmodules` anywhere) change
 * what the sync takes and how it merges: a nested .gitignore made the files it names leave the history, and
 * so every other machine's disk; a nested .gitattributes outranked the drivers the sync sets at the root. The
 * sync keeps its own two at the root and refuses any other (docs/decisions/287).
 */
function foreignGitFiles(names: readonly string[]): string[] {
  return names.filter((n) => {
    const base = n.slice(n.lastIndexOf('/') + 1)
    if (base === '.gitmodules') return true
    return (base === '.gitignore' || base === '.gitattributes') && n !== base
  })
}

/**
 * A name with a line break (or a carriage return) cannot be read through git's batch reading, which
 * the commit and the merge use, and a person cannot type it back: refused before anything is staged
 * or merged, the name shown escaped (decision 288).
 */
function refuseBrokenNames(names: readonly string[], where: 'local' | 'remote'): void {
  const found = names.filter((n) => /[\n\r]/.test(n))
  if (found.length === 0) return
  const files = found
    .slice(0, 5)
    .map((n) => JSON.stringify(n))
    .join(', ')
  throw new RefusedError(
    'git-name',
    where === 'local'
      ? `${files}: a file name with a line break, which the sync cannot read back through git. Rename the file (a name on one line), then sync again. Nothing was sent.`
      : `the remote holds ${files}: a file name with a line break, which the sync cannot read back through git. Rename it on the machine that sent it, then sync again. Nothing here was changed by it.`,
    { variant: where, files },
  )
}

function refuseForeign(found: readonly string[], where: 'local' | 'remote'): void {
  if (found.length === 0) return
  const files = found.slice(0, 5).join(', ')
  throw new RefusedError(
    'git-foreign',
    where === 'local'
      ? `${files}: git's own file inside the store, which would hide memories from the sync and delete them on your other machines. Remove it (what stays on this machine is the root .gitignore the sync writes), then sync again. Nothing was sent.`
      : `the remote holds ${files}: git's own file inside the store, which would hide memories from the sync and delete them here. Remove it from the remote, then sync again. Nothing here was changed by it.`,
    { variant: where, files },
  )
}

/** What a sync refuses to stage (here) or to merge (from the remote), by the names of the files. */
function refuseNames(names: readonly string[], where: 'local' | 'remote'): void {
  refuseForeign(foreignGitFiles(names), where)
  refuseBrokenNames(names, where)
}

/** The names git lists NUL-separated (`-z`). */
async function gitNames(args: readonly string[], o: ReturnType<typeof gitOpts>): Promise<string[]> {
  return (await gitText(args, o)).split('\0').filter((n) => n !== '')
}

/** `git add -A` and one commit; the ids of the entries that commit writes (undefined: nothing changed). */
async function commitLocal(store: MemoryStore, paths: RepoPaths, env: NodeJS.ProcessEnv): Promise<string[] | undefined> {
  const o = gitOpts(paths, env)
  // Every file of the work tree, ignored ones included: a .gitignore of git's below the root is refused before anything is staged.
  refuseNames(await gitNames(['ls-files', '-z', '--cached', '--others'], o), 'local')
  await git(['add', '-A'], o)
  // A file tracked before it was machine-local (an older .gitignore) leaves the history, never the disk.
  const ignored = await gitNames(['ls-files', '-z', '--cached', '--ignored', '--exclude-standard'], o)
  if (ignored.length > 0) await git(['rm', '--cached', '--quiet', '--pathspec-file-nul', '--pathspec-from-file=-'], { ...o, input: ignored.join('\0') })
  const head = await headCommit(paths, env)
  const names = await gitNames(
    ['diff', '--cached', '--name-only', '-z', '--no-renames', ...(head === undefined ? ['--root', '4b825dc642cb6eb9a060e54bf8d69288fbee4904'] : [head])],
    o,
  )
  if (head !== undefined && names.length === 0) return undefined
  const md = names.filter((n) => n.endsWith('.md'))
  const before =
    head === undefined
      ? md.map(() => undefined)
      : await catBlobs(
          md.map((n) => `${head}:${n}`),
          o,
        )
  const ids: string[] = []
  for (let i = 0; i < md.length; i++) ids.push(...(await entriesWritten(store, md[i]!, before[i])))
  const shown = ids.slice(0, 200)
  const message = [
    `cyrene sync (${safeHost()}): ${ids.length} ${ids.length === 1 ? 'entry' : 'entries'} written, ${names.length} file${names.length === 1 ? '' : 's'} changed`,
    '',
    ...shown.map((id) => `- ${id}`),
    ...(ids.length > shown.length ? [`- … and ${ids.length - shown.length} more`] : []),
  ].join('\n')
  await git(['commit', '--quiet', '--no-verify', '--allow-empty-message', '-F', '-'], { ...o, input: `${message}\n` })
  return ids
}

/** Ids whose entry is new or changed in `name` since the last commit (`old`: its bytes there). */
async function entriesWritten(store: MemoryStore, name: string, old: Buffer | undefined): Promise<string[]> {
  const before = new Map<string, string>()
  if (old !== undefined) for (const s of parseEntryFile(old.toString('utf8'), name).segments) if (s.type === 'entry') before.set(s.entry.meta.id, s.raw)
  const now = await readTextOr(store.root, join(store.root, name), '')
  const out: string[] = []
  for (const s of parseEntryFile(now, name).segments) if (s.type === 'entry' && before.get(s.entry.meta.id) !== s.raw) out.push(s.entry.meta.id)
  return out
}

function safeHost(): string {
  try {
    return hostname()
  } catch {
    return 'this machine'
  }
}

interface MergeStep {
  merge: 'none' | 'fast-forward' | 'merged'
  changed: string[]
  edited: SwitchResult['edited']
  newConflicts: number
  /** Conflicts between a file saved meanwhile and the new version (the switch's). */
  switchConflicts: number
}

async function mergeRemote(store: MemoryStore, lock: HeldLock, paths: RepoPaths, env: NodeJS.ProcessEnv, phase: (p: string) => void): Promise<MergeStep> {
  const o = gitOpts(paths, env)
  const nothing: MergeStep = { merge: 'none', changed: [], edited: [], newConflicts: 0, switchConflicts: 0 }
  // Both branches in one git call (each spawn is most of an idle sync's time).
  const refs = new Map(
    (await gitText(['for-each-ref', '--format=%(refname) %(objectname)', `refs/heads/${BRANCH}`, `refs/remotes/${REMOTE}/${BRANCH}`], o))
      .split('\n')
      .map((l) => l.split(' ') as [string, string]),
  )
  const ours = refs.get(`refs/heads/${BRANCH}`)
  const theirs = refs.get(`refs/remotes/${REMOTE}/${BRANCH}`)
  if (theirs === undefined || ours === undefined) return nothing
  // One merge-base answers both questions: theirs is already in ours (it is the base), or ours is behind (ours is).
  const mb = await git(['merge-base', ours, theirs], { ...o, ok: [1] })
  const base = mb.status === 0 ? mb.stdout.toString('utf8').trim() : undefined
  if (base === theirs) return nothing
  refuseNames(await gitNames(['ls-tree', '-r', '--name-only', '-z', theirs], o), 'remote')
  if (base === ours) {
    const { changed, edited, conflicts } = await switchTo(store, lock, env, ours, theirs, (f) => phase(f === '' ? 'journal' : 'file'))
    return { merge: 'fast-forward', changed, edited, newConflicts: 0, switchConflicts: conflicts }
  }
  const { commit, conflicts } = await stageMerge(paths, env, ours, theirs, {
    at: store.now().toISOString(),
    message: `cyrene sync (${safeHost()}): merge with the other machines`,
    mergeBase: base,
  })
  phase('staged')
  const switched = await switchTo(store, lock, env, ours, commit, (f) => phase(f === '' ? 'journal' : 'file'))
  return { merge: 'merged', changed: switched.changed, edited: switched.edited, newConflicts: conflicts, switchConflicts: switched.conflicts }
}

/**
 * For the doctor: is this store a git work tree, how big is its history, and how many of its commits the
 * remote has not taken yet (as of the last fetch; all of them when no branch was fetched from it yet).
 */
export async function gitStatus(store: MemoryStore, env: NodeJS.ProcessEnv = process.env): Promise<{ repo: boolean; gitBytes: number; unsent?: number }> {
  if (!(await isRepo(store))) return { repo: false, gitBytes: 0 }
  const gitBytes = await treeBytes(join(store.root, '.git'))
  const paths = repoPaths(store)
  const o = gitOpts(paths, env)
  try {
    if ((await headCommit(paths, env)) === undefined) return { repo: true, gitBytes }
    const theirs = await gitText(['rev-parse', '--verify', '-q', `refs/remotes/${REMOTE}/${BRANCH}`], { ...o, ok: [1] })
    // No branch fetched from the remote yet: nothing here has reached it.
    const unsent = Number(await gitText(['rev-list', '--count', theirs === '' ? 'HEAD' : `${theirs}..HEAD`], o))
    return Number.isFinite(unsent) ? { repo: true, gitBytes, unsent } : { repo: true, gitBytes }
  } catch {
    return { repo: true, gitBytes }
  }
}

async function treeBytes(dir: string): Promise<number> {
  let total = 0
  let names: import('node:fs').Dirent[]
  try {
    names = await fs.readdir(dir, { withFileTypes: true })
  } catch {
    return 0
  }
  for (const d of names) {
    const p = join(dir, d.name)
    if (d.isDirectory()) total += await treeBytes(p)
    else if (d.isFile()) total += (await fs.stat(p).catch(() => ({ size: 0 }))).size
  }
  return total
}

async function push(paths: RepoPaths, env: NodeJS.ProcessEnv): Promise<'ok' | 'rejected' | Error> {
  try {
    await git(['push', '--quiet', '--no-verify', REMOTE, `refs/heads/${BRANCH}:refs/heads/${BRANCH}`], gitOpts(paths, env))
    return 'ok'
  } catch (error) {
    // Only a race is tried again (another push moved the branch, or holds its lock this moment); a remote that
    // refuses for good (`[remote rejected]` by a hook, a read-only disk) says why.
    if (error instanceof GitError && (/(?<!remote )rejected\]|non-fast-forward|fetch first|stale info/i.test(error.stderr) || LOCK_RACE.test(error.stderr)))
      return 'rejected'
    return error as Error
  }
}
