import { lstatSync, readFileSync, statSync, type Stats } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { withoutTempSuffix } from '../durable/atomic-write.ts'

/**
 * Exit codes of the `cyrene` command line (CONTRACT#exit-codes).
 * 70 is sysexits' EX_SOFTWARE: an internal error must never read as
 * "a check found a problem" (1) to a script.
 */
export const EXIT = { ok: 0, problem: 1, refused: 2, system: 3, bug: 70 } as const

/** What the failing command was, so the message can say honestly what changed. */
export interface FailureContext {
  /** `memory write`, `restore`, `whale inbox`, … */
  command: string
  argv: readonly string[]
  /** The memory store root when it can be told (DSH_HOME / --root). */
  storeRoot?: string | undefined
  /** The failure happened before the command changed anything (reading its input). */
  nothingChanged?: boolean
}

type Errno = NodeJS.ErrnoException & { dest?: string }

const DISK_FULL = new Set(['ENOSPC', 'EDQUOT'])
const DENIED = new Set(['EACCES', 'EPERM'])
const CONFLICT = new Set(['EISDIR', 'ENOTDIR', 'ENOTEMPTY'])

/** Commands that only read, or change the store in one atomic step: a failure changed nothing. */
const ONE_STEP = new Set([
  'doctor',
  'backup',
  'volume',
  'volume show',
  'memory list',
  'memory show',
  'memory write',
  'memory search',
  'memory log',
  'memory export',
  'memory reindex',
  'memory untomb',
  'memory anchor show',
  'worldbook list',
])

function errnoOf(e: unknown): Errno | undefined {
  return e instanceof Error && typeof (e as Errno).code === 'string' ? (e as Errno) : undefined
}

/** What the command left behind when one of its steps failed — never claims more than is true. */
function changedNote(ctx: FailureContext): string {
  const { command, argv } = ctx
  if (ctx.nothingChanged === true) return 'Nothing was changed.'
  if (command === 'memory import' || command === 'migrate') {
    return 'Entries imported before the failure stay in the store; once it is fixed, run the same command again — what is already imported is recognised and skipped.'
  }
  if (command === 'restore') {
    return 'The restore may have stopped part-way: the store as it was before is in the newest pre-restore snapshot (`cyrene restore --list`); once it is fixed, run the same restore again.'
  }
  if (ONE_STEP.has(command) || (command === 'memory check' && !argv.includes('--fix')) || argv.includes('--list') || argv.includes('--dry-run'))
    return 'Nothing was changed.'
  return 'The step that failed changed nothing; earlier steps of this command may have finished — `cyrene memory check` shows the state of the store.'
}

function userName(uid: number): string | undefined {
  try {
    for (const line of readFileSync('/etc/passwd', 'utf8').split('\n')) {
      const f = line.split(':')
      if (f.length > 2 && Number(f[2]) === uid && f[2] !== '') return f[0]
    }
  } catch {
    /* no passwd file: numbers only */
  }
  return undefined
}

function who(uid: number): string {
  const name = userName(uid)
  return name === undefined ? `uid ${uid}` : `uid ${uid} (${name})`
}

/**
 * The path itself if it can be looked at, else its nearest parent that can:
 * `missing` when the path does not exist (its creation was refused), otherwise
 * the parent is the folder that keeps us out.
 */
function nearestVisible(path: string): { path: string; st: Stats; self: boolean; missing: boolean } | undefined {
  let p = resolve(path)
  let missing = false
  for (let self = true; ; self = false) {
    try {
      return { path: p, st: statSync(p), self, missing }
    } catch (e) {
      const code = errnoOf(e)?.code
      if (code !== 'ENOENT' && code !== 'ENOTDIR' && code !== 'EACCES') return undefined
      if (self && code === 'ENOENT') missing = true
    }
    const up = dirname(p)
    if (up === p) return undefined
    p = up
  }
}

function modeOf(st: Stats): string {
  return `0${(st.mode & 0o777).toString(8).padStart(3, '0')}`
}

/** Who owns the refused path, who we are, and the one command that would fix it. */
function permissionMessage(e: Errno, ctx: FailureContext): string {
  // The atomic writer names its target; the path the system refused (its temp file, so its folder) is in the cause.
  const cause = errnoOf((e as { cause?: unknown }).cause)
  const raw = cause?.dest ?? cause?.path ?? e.dest ?? e.path
  if (raw === undefined)
    return `permission denied (${e.syscall ?? 'a file operation'}). ${changedNote(ctx)} Check who owns the memory store${ctx.storeRoot === undefined ? '' : ` (ls -ld '${ctx.storeRoot}')`}.`
  const path = withoutTempSuffix(raw)
  // A temp file of an atomic write was refused: the folder is what forbids writing the file.
  const found = nearestVisible(raw === path ? path : dirname(path))
  const me = process.getuid?.()
  const head =
    found !== undefined && found.missing && raw === path ? `permission denied: cannot create ${basename(path)} in ${found.path}` : `permission denied: ${path}`
  if (found === undefined || me === undefined) return `${head}. ${changedNote(ctx)} Check the owner and mode of that path and its folders (ls -ld).`
  const kind = found.st.isDirectory() ? 'folder' : 'file'
  const state = `the ${kind} ${found.path} belongs to ${who(found.st.uid)} with mode ${modeOf(found.st)}; cyrene runs as ${who(me)}`
  let fix: string
  if (found.st.uid !== me) {
    const target = ctx.storeRoot !== undefined && found.path.startsWith(ctx.storeRoot) ? ctx.storeRoot : found.path
    fix = `Run cyrene as ${userName(found.st.uid) ?? `uid ${found.st.uid}`} (the owner), or have root give it to you: chown -R ${me}:${process.getgid?.() ?? me} '${target}'.`
  } else {
    fix =
      me === 0
        ? `Root is refused here, so the file system forbids it (an immutable attribute or a protected mount?): check lsattr '${found.path}' and the mount options.`
        : `It is yours but its mode forbids this; give yourself access back: chmod u+rw${kind === 'folder' ? 'x' : ''} '${found.path}'.`
  }
  return `${head} (${state}). ${changedNote(ctx)} ${fix}`
}

/** The first component of `path` that exists and is not a folder (where a folder is needed). */
function fileInTheWay(path: string): string | undefined {
  const parts = resolve(path).split('/')
  for (let i = 2; i <= parts.length; i++) {
    const p = parts.slice(0, i).join('/')
    try {
      if (!lstatSync(p).isDirectory()) return p
    } catch {
      return undefined
    }
  }
  return undefined
}

function conflictMessage(e: Errno, ctx: FailureContext): string {
  let what: string
  let p: string
  if (e.code === 'ENOTDIR') {
    p = fileInTheWay(e.dest ?? e.path ?? '') ?? e.path ?? '(unknown path)'
    what = `${p} is a file where the store needs a folder`
  } else {
    p = withoutTempSuffix(e.dest ?? e.path ?? '(unknown path)')
    what = `${p} is a folder where the store keeps a file`
  }
  return `path conflict: ${what}. ${changedNote(ctx)} Move it aside (mv '${p}' '${p}.aside'), look inside, then run the command again.`
}

/**
 * A failure the command line expects (the system refused: disk full,
 * permission, read-only file system, a path conflict) → exit 3 and a message
 * that names the path and what to do. Anything else → undefined (a bug).
 */
export function describeSystemFailure(error: unknown, ctx: FailureContext): { exit: number; message: string } | undefined {
  const e = errnoOf(error)
  if (e === undefined) return undefined
  const code = e.code!
  const where = withoutTempSuffix(e.dest ?? e.path ?? ctx.storeRoot ?? 'the memory store')
  if (DISK_FULL.has(code)) {
    const what = code === 'EDQUOT' ? 'disk quota exceeded' : 'disk full'
    return {
      exit: EXIT.system,
      message: `${what}: no space left for ${where}. ${changedNote(ctx)} Free some space on that disk (df -h '${dirname(where)}' shows it) and try again.`,
    }
  }
  if (DENIED.has(code)) return { exit: EXIT.system, message: permissionMessage(e, ctx) }
  if (code === 'EROFS') {
    return {
      exit: EXIT.system,
      message: `read-only file system: ${where}. ${changedNote(ctx)} Remount it read-write, or point DSH_HOME (or --root) at a writable place.`,
    }
  }
  if (code === 'EIO')
    return { exit: EXIT.system, message: `the disk reported an input/output error at ${where}. ${changedNote(ctx)} Check the disk (dmesg), then try again.` }
  if (CONFLICT.has(code)) return { exit: EXIT.system, message: conflictMessage(e, ctx) }
  return undefined
}

/** One line for an error nobody expected; the stack only on request. */
export function describeBug(error: unknown, debug: boolean): string {
  const e = error instanceof Error ? error : new Error(String(error))
  const code = typeof (e as Errno).code === 'string' ? ` [${(e as Errno).code}]` : ''
  const line = `unexpected error: ${e.name}: ${e.message.split('\n')[0]}${code} — this is a bug in cyrene; please report it with the command you ran.`
  return debug ? `${line}\n${e.stack ?? ''}` : `${line} Run again with CYRENE_DEBUG=1 to see where it happened.`
}

/** Standard output or error was closed by the reader (`cyrene … | head -1`): not a failure. */
export function isClosedPipe(error: unknown): boolean {
  const code = errnoOf(error)?.code
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED'
}
