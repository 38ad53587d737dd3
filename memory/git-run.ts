import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { asHostFolderWork, declareHostProcess } from '../durable/host-writes.ts'
import { hostname } from 'node:os'
import { carriedGlobalConfig } from './git-global.ts'

/**
 * Runs the machine's `git` for the store's replication (CONTRACT#git-sync). The
 * repository's own config lives in the store, so nothing in it may choose a
 * command git runs: hooks are looked for in /dev/null, fsmonitor is off, and the
 * `-c` overrides below win over `.git/config` (git reads the command line
 * last). `git-repo.ts` also refuses any local config key outside a short list.
 * The person's global config is not read (a model can change it): only its
 * proxy, certificate and credential settings come along (`git-global.ts`).
 * Credentials come from those helpers or from the environment; nothing
 * interactive is ever asked (GIT_TERMINAL_PROMPT=0).
 */
export class GitError extends Error {
  readonly args: readonly string[]
  readonly status: number | null
  readonly stderr: string
  constructor(args: readonly string[], status: number | null, stderr: string) {
    super(
      `git ${args.filter((a) => !a.includes('=')).join(' ')} failed (exit ${status ?? 'signal'}): ${stderr.trim().split('\n').slice(-3).join(' ') || 'no message'}`,
    )
    this.name = 'GitError'
    this.args = args
    this.status = status
    this.stderr = stderr
  }
}

/** An object git's history names that cannot be read (a damaged `.git/`): the sync stops before it changes anything. */
export class GitDamagedError extends Error {
  readonly object: string
  constructor(object: string) {
    super(
      `git's history in the store is damaged: object ${object} cannot be read. Nothing was changed; run \`git -C <root> fsck\`, or move .git/ away and sync again to start the history afresh from the remote.`,
    )
    this.name = 'GitDamagedError'
    this.object = object
  }
}

export class GitMissingError extends Error {
  constructor() {
    super('git is not installed (or not on PATH): install git, then run the sync again. Nothing was changed.')
    this.name = 'GitMissingError'
  }
}

export interface GitOptions {
  /** The work tree git runs in. */
  cwd: string
  /** Extra `-c key=value` overrides (the merge drivers). */
  config?: Readonly<Record<string, string>>
  env?: NodeJS.ProcessEnv
  input?: string | Buffer
  /** A private index for plumbing (the merge builds its tree in one; never the store's own index). */
  indexFile?: string
  /** Exit codes that are answers, not failures (`diff --quiet` → 1). */
  ok?: readonly number[]
}

export interface GitResult {
  status: number
  stdout: Buffer
  stderr: string
}

/** Variables that would point git at another repository or config than the store's. */
const DROPPED_ENV =
  /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|COMMON_DIR|NAMESPACE|CEILING_DIRECTORIES|CONFIG_(COUNT|KEY_\d+|VALUE_\d+|PARAMETERS)|EXTERNAL_DIFF|EDITOR|SEQUENCE_EDITOR|PAGER)$/

/** The overrides every call carries. */
function safetyConfig(): Record<string, string> {
  const who = safeHost()
  return {
    // Not a folder, so no hook can ever be found there. A folder beside the store (as before) is one a tool call can
    // replace by a link into the store, and emptying it then emptied the store (decision 306).
    'core.hooksPath': '/dev/null',
    // Otherwise git reads `~/.config/git/ignore` and `attributes` whatever the config says, files a tool call can write:
    // through them a memory was untracked and deleted on the other machine, or committed re-encoded (decision 306).
    'core.excludesFile': '/dev/null',
    'core.attributesFile': '/dev/null',
    'core.fsmonitor': 'false',
    'core.quotePath': 'false',
    'core.autocrlf': 'false',
    'core.safecrlf': 'false',
    // The history is the store's: make what git acknowledges durable (objects, refs, index).
    'core.fsync': 'committed,index',
    'core.fsyncMethod': 'fsync',
    'protocol.ext.allow': 'never',
    'commit.gpgSign': 'false',
    'merge.renames': 'false',
    'diff.renames': 'false',
    'gc.autoDetach': 'false',
    'advice.detachedHead': 'false',
    'init.defaultBranch': 'main',
    'user.name': `昔涟 sync (${who})`,
    'user.email': `cyrene@${who}`,
  }
}

function safeHost(): string {
  try {
    return hostname().replace(/[^A-Za-z0-9.-]/g, '') || 'localhost'
  } catch {
    return 'localhost'
  }
}

function gitEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {}
  for (const [k, v] of Object.entries(env)) if (!DROPPED_ENV.test(k)) out[k] = v
  // The global config is a file a model's tool call can change: its keys that may reach a remote come as -c (git-global.ts).
  out.GIT_CONFIG_GLOBAL = '/dev/null'
  out.GIT_TERMINAL_PROMPT = '0'
  out.GIT_OPTIONAL_LOCKS = '0'
  out.LC_ALL = 'C'
  return out
}

/**
 * The ssh git runs to reach a remote reads no config file. `~/.ssh/config` lies outside the store, where a
 * tool call can write, and a `ProxyCommand`, a `Match exec` or a `PKCS11Provider` there runs a command or a
 * library below the host's git, outside any window (decision 319). A GIT_SSH_COMMAND or GIT_SSH that DSH was
 * started with is the person's, which a tool call cannot change: it stays.
 */
function sshConfig(env: NodeJS.ProcessEnv): Record<string, string> {
  if ((env.GIT_SSH_COMMAND ?? '') !== '' || (env.GIT_SSH ?? '') !== '') return {}
  return { 'core.sshCommand': 'ssh -F /dev/null' }
}

export async function git(args: readonly string[], opts: GitOptions): Promise<GitResult> {
  const overrides = { ...safetyConfig(), ...sshConfig(opts.env ?? process.env), ...opts.config }
  // The person's global config is not read; what of it may reach a remote comes first, the overrides after (git-global.ts).
  const carried = carriedGlobalConfig(opts.env ?? process.env).flatMap(([k, v]) => ['-c', `${k}=${v}`])
  const full = [...carried, ...Object.entries(overrides).flatMap(([k, v]) => ['-c', `${k}=${v}`]), ...args]
  // What git changes in the store's .git/ meanwhile is the host's (guard/effects.ts).
  return await asHostFolderWork([join(opts.cwd, '.git')], async () => await runGit(full, args, opts))
}

function runGit(full: readonly string[], args: readonly string[], opts: GitOptions): Promise<GitResult> {
  return new Promise<GitResult>((resolve, reject) => {
    const env = gitEnv(opts.env ?? process.env)
    if (opts.indexFile !== undefined) env.GIT_INDEX_FILE = opts.indexFile
    const child = spawn('git', full, { cwd: opts.cwd, env, stdio: ['pipe', 'pipe', 'pipe'] })
    const undeclare = declareHostProcess(child.pid)
    const out: Buffer[] = []
    let err = ''
    child.stdout.on('data', (d: Buffer) => out.push(d))
    child.stderr.on('data', (d: Buffer) => {
      if (err.length < 64_000) err += d.toString('utf8')
    })
    child.on('error', (e: NodeJS.ErrnoException) => {
      undeclare()
      reject(e.code === 'ENOENT' ? new GitMissingError() : e)
    })
    child.on('close', (status) => {
      undeclare()
      const code = status ?? -1
      if (code === 0 || (opts.ok ?? []).includes(code)) resolve({ status: code, stdout: Buffer.concat(out), stderr: err })
      else reject(new GitError(args, status, err))
    })
    child.stdin.on('error', () => undefined)
    child.stdin.end(opts.input ?? '')
  })
}

/** Its standard output as text, without the last newline. */
export async function gitText(args: readonly string[], opts: GitOptions): Promise<string> {
  return (await git(args, opts)).stdout.toString('utf8').replace(/\n$/, '')
}

/** The null object id: how `catBlobs` is asked for "no file on this side" (absent, never damaged). */
export const NO_BLOB = '0000000000000000000000000000000000000000'

/**
 * Many objects in one git process (`cat-file --batch`): each spec (a sha or
 * `<commit>:<path>`) → its bytes, undefined when it is not there. One spawn
 * instead of one per file: the merge and the switch read tens of files.
 */
export async function catBlobs(specs: readonly string[], opts: GitOptions): Promise<Array<Buffer | undefined>> {
  if (specs.length === 0) return []
  if (specs.some((s) => s.includes('\n'))) throw new RangeError('a path with a newline cannot be read in a batch')
  const { stdout: out, stderr } = await git(['cat-file', '--batch'], { ...opts, input: specs.join('\n') + '\n' })
  // git names an unreadable object "missing" as it does a path no commit holds, and says why only on stderr.
  const damaged = /unable to unpack|inflate|corrupt|bad object|error: .*object/i.test(stderr) ? (/[0-9a-f]{40,64}/.exec(stderr)?.[0] ?? 'unknown') : undefined
  const result: Array<Buffer | undefined> = []
  let at = 0
  for (let i = 0; i < specs.length; i++) {
    const nl = out.indexOf(0x0a, at)
    const head = out.subarray(at, nl).toString('utf8')
    at = nl + 1
    if (head.endsWith(' missing') || head.endsWith(' ambiguous')) {
      // `<commit>:<path>` that names no file comes back under its own name; an object id the history points
      // at that cannot be read is damage, never an empty file (a merge would write that over the disk).
      // The null id (all zeros) is how a caller names "no file on that side": absent, not damaged.
      if (damaged !== undefined || (/^[0-9a-f]{40}(?:[0-9a-f]{24})? missing$/.test(head) && !/^0+ /.test(head)))
        throw new GitDamagedError(damaged ?? head.split(' ')[0]!)
      result.push(undefined)
      continue
    }
    const size = Number(head.slice(head.lastIndexOf(' ') + 1))
    const type = head.split(' ')[1]
    result.push(type === 'blob' ? out.subarray(at, at + size) : undefined)
    at += size + 1
  }
  return result
}
