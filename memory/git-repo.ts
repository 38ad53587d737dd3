import { promises as fs } from 'node:fs'
import { dirname, join, basename } from 'node:path'
import { fileURLToPath } from 'node:url'
import { readTextOr } from './fsio.ts'
import { DRIVERS } from './git-merge.ts'
import { git, gitText, type GitOptions } from './git-run.ts'
import type { StoreCore } from './store-core.ts'
import type { HeldLock } from '../durable/lock.ts'
import type { Said } from './said.ts'
import { RefusedError } from './validate.ts'

/** The branch every machine commits to. */
export const BRANCH = 'main'
export const REMOTE = 'origin'

/**
 * Which merge each file gets. Later lines win (git's rule), so the catch-all
 * comes first: a file nobody taught the merge about is never merged silently.
 */
const GITATTRIBUTES = `# Written by cyrene sync git: which merge each file gets (CONTRACT#git-sync). Edits are put back at the next sync.
* merge=cyrene-whole
*.md merge=cyrene-entries
*.jsonl merge=cyrene-lines
锚/*.md merge=cyrene-anchor
世界书/** merge=cyrene-whole
档/** merge=cyrene-derived
元/*.json merge=cyrene-whole
元/settings.json merge=cyrene-keyed
元/梦夜.json merge=cyrene-keyed
元/待定复检.json merge=cyrene-keyed
元/person-marks.json merge=cyrene-keyed
元/whale-confirms.json merge=cyrene-keyed
元/梦会话.json merge=cyrene-registry
元/卷.json merge=cyrene-volumes
`

/** Machine-local: never replicated (CONTRACT#git-local). */
const GITIGNORE = `# Written by cyrene sync git: what stays on this machine (CONTRACT#git-local).
/元/siyuan-sync.json
/元/recall-seal.json
*.lock
*.lock.*
*.tmp-*
*.md.[0-9]*
*.json.[0-9]*
*.jsonl.[0-9]*
.DS_Store
`

/** A path the switch never writes even if another machine's commit has it (the locks, SiYuan's ledger, temp files). */
export function isMachineLocal(path: string): boolean {
  const name = path.slice(path.lastIndexOf('/') + 1)
  return (
    /\.lock(\.|$)/.test(name) ||
    /\.tmp-/.test(name) ||
    path === '元/siyuan-sync.json' ||
    path === '元/recall-seal.json' ||
    path.startsWith('.git/') ||
    path.includes('/.git/')
  )
}

/** Local config keys the sync itself writes or git writes on init; anything else in `.git/config` is refused. */
const ALLOWED_CONFIG = [
  /^core\.(repositoryformatversion|filemode|bare|logallrefupdates|hookspath|ignorecase|precomposeunicode|symlinks)$/,
  /^remote\.origin\.(url|fetch)$/,
  /^branch\.main\.(remote|merge)$/,
  /^merge\.cyrene-[a-z]+\.(driver|name)$/,
  /^extensions\.worktreeconfig$/,
  /^gc\.auto$/,
  /^cyrene\.[a-z]+$/,
]

/** The driver program, next to this module (.ts in a checkout, .js in the package): found again at every sync. */
export function driverScript(): string {
  const here = fileURLToPath(import.meta.url)
  return join(dirname(here), `git-driver${here.endsWith('.ts') ? '.ts' : '.js'}`)
}

const shellQuote = (s: string): string => `'${s.replace(/'/g, `'\\''`)}'`

/** `merge.cyrene-<name>.driver` for every driver: git runs these through the shell with %O %A %B %P. */
function driverConfig(): Record<string, string> {
  const out: Record<string, string> = {}
  for (const d of DRIVERS) {
    out[`merge.cyrene-${d}.name`] = `cyrene ${d} merge`
    out[`merge.cyrene-${d}.driver`] = `${shellQuote(process.execPath)} ${shellQuote(driverScript())} ${d} %O %A %B %P`
  }
  return out
}

/** Why a remote address is refused (its English sentence and its said, `remote.*`, for the person's language), or undefined. Credentials never go in the store (CONTRACT#git-credentials). */
export function remoteProblemSaid(url: string): { en: string; said: Said } | undefined {
  const said = (code: string, en: string, params?: { scheme: string }) => ({ en, said: { code: `remote.${code}`, ...(params ? { params } : {}) } })
  if (url.trim() !== url || url === '') return said('empty', 'the remote is empty or has spaces around it')
  if (/[\s\0]/.test(url)) return said('space', 'the remote has a space or a control character')
  if (url.startsWith('-')) return said('dash', 'the remote starts with "-"')
  if (/^ext::|^fd::/i.test(url) || /^[a-z][a-z0-9+.-]*::/i.test(url)) return said('helper', 'remote helpers ("transport::address") are not allowed')
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]*)/i.exec(url)
  if (m !== null) {
    const scheme = m[1]!.toLowerCase()
    if (!['https', 'http', 'ssh', 'git', 'file'].includes(scheme))
      return said('scheme', `the scheme "${scheme}" is not one git sync uses (https, ssh, git, file)`, { scheme })
    const userinfo = m[2]!.includes('@') ? m[2]!.slice(0, m[2]!.lastIndexOf('@')) : ''
    if (userinfo.includes(':') || (scheme.startsWith('http') && userinfo !== ''))
      return said('credentials', 'the remote has credentials in it; keep them in a git credential helper or an ssh key, and give the address without them')
  }
  return undefined
}

/** Refuses a remote the sync does not use, before anything is changed. */
export function refuseBadRemote(remote: string): void {
  const problem = remoteProblemSaid(remote)
  if (problem !== undefined) throw new RefusedError('git-remote', `${problem.en}. Nothing was changed.`, { problem: problem.said })
}

export interface RepoPaths {
  root: string
  gitDir: string
  /** Where a merge is staged, beside the root like the snapshots. */
  stage: string
}

export function repoPaths(store: StoreCore): RepoPaths {
  const side = join(dirname(store.root), `${basename(store.root)}-git`)
  return { root: store.root, gitDir: join(store.root, '.git'), stage: join(side, 'stage') }
}

export function gitOpts(paths: RepoPaths, env: NodeJS.ProcessEnv, extra: Partial<GitOptions> = {}): GitOptions {
  return { cwd: paths.root, env, config: driverConfig(), ...extra }
}

export async function isRepo(store: StoreCore): Promise<boolean> {
  try {
    return (await fs.lstat(join(store.root, '.git'))).isDirectory()
  } catch {
    return false
  }
}

/**
 * Makes the root a git work tree (first use), puts back `.gitattributes` and
 * `.gitignore`, registers the drivers where this package is now, sets the
 * remote, and refuses a local config that could run anything. Under the lock.
 */
export async function ensureRepo(store: StoreCore, lock: HeldLock, env: NodeJS.ProcessEnv, remote: string | undefined): Promise<RepoPaths> {
  const paths = repoPaths(store)
  const o = gitOpts(paths, env)
  const gitDirStat = await fs.lstat(paths.gitDir).catch(() => undefined)
  if (gitDirStat !== undefined && !gitDirStat.isDirectory()) {
    throw new RefusedError(
      'git-config',
      `${paths.gitDir} is not a folder (a link or a file): the sync only uses a .git folder of its own. Move it away, then sync again.`,
      { variant: 'not-folder', path: paths.gitDir },
    )
  }
  if (gitDirStat === undefined) await git(['init', '--quiet', '-b', BRANCH], o)
  for (const [name, text] of [
    ['.gitattributes', GITATTRIBUTES],
    ['.gitignore', GITIGNORE],
  ] as const) {
    if ((await readTextOr(store.root, join(store.root, name), '')) !== text) await store.replaceFile(name, text, lock)
  }
  await refuseForeignConfig(paths, env)
  // Written only where this package now is differs from what is registered (each sync passes them with -c anyway).
  const registered = await gitText(['config', '--local', '--get-regexp', '^merge\\.cyrene-'], { ...o, ok: [1] })
  const have = new Map(registered.split('\n').map((l) => [l.slice(0, l.indexOf(' ')), l.slice(l.indexOf(' ') + 1)]))
  for (const [k, v] of Object.entries(driverConfig())) if (have.get(k) !== v) await git(['config', '--local', k, v], o)
  if (remote !== undefined && remote !== '') {
    refuseBadRemote(remote)
    const had = await gitText(['config', '--local', '--get', `remote.${REMOTE}.url`], { ...o, ok: [1] })
    if (had === '') await git(['remote', 'add', REMOTE, remote], o)
    else if (had !== remote) await git(['remote', 'set-url', REMOTE, remote], o)
  }
  return paths
}

/** The local config, key by key; a key the sync did not put there is refused (it could run a command). */
async function refuseForeignConfig(paths: RepoPaths, env: NodeJS.ProcessEnv): Promise<void> {
  const listed = await gitText(['config', '--local', '--no-includes', '--name-only', '--list'], { ...gitOpts(paths, env), ok: [1] })
  const foreign = listed
    .split('\n')
    .filter((k) => k !== '')
    .filter((k) => !ALLOWED_CONFIG.some((re) => re.test(k.toLowerCase())))
  if (foreign.length > 0) {
    throw new RefusedError(
      'git-config',
      `the store's .git/config has ${foreign.map((k) => `"${k}"`).join(', ')}, which the sync does not allow (it could run a command or send your memory elsewhere). Remove ${foreign.length === 1 ? 'it' : 'them'} with \`git -C ${paths.root} config --unset <key>\`, then sync again. Nothing was changed.`,
      { variant: foreign.length === 1 ? 'foreign-one' : 'foreign', keys: foreign.map((k) => `"${k}"`).join(', '), root: paths.root },
    )
  }
}
