import { lstatSync, readFileSync, statSync, type Stats } from 'node:fs'
import { basename, dirname, resolve } from 'node:path'
import { withoutTempSuffix } from '../durable/atomic-write.ts'
import { t, type Lang } from '../i18n/index.ts'

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
  /** The invocation's language (cli/lang.ts); English when not told. */
  lang?: Lang
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
  // One atomic replace of 元/settings.json under the write lock.
  'settings set',
  'settings unset',
])

function errnoOf(e: unknown): Errno | undefined {
  return e instanceof Error && typeof (e as Errno).code === 'string' ? (e as Errno) : undefined
}

/** What the command left behind when one of its steps failed — never claims more than is true. */
function changedNote(ctx: FailureContext): string {
  const { command, argv } = ctx
  const lang = langOf(ctx)
  if (ctx.nothingChanged === true) return t('failure.changed.nothing', lang)
  if (command === 'memory import' || command === 'migrate') return t('failure.changed.import', lang)
  if (command === 'restore') return t('failure.changed.restore', lang)
  if (command === 'whale') return t('failure.changed.whale', lang)
  if (ONE_STEP.has(command) || (command === 'memory check' && !argv.includes('--fix')) || argv.includes('--list') || argv.includes('--dry-run'))
    return t('failure.changed.nothing', lang)
  return t('failure.changed.step', lang)
}

function langOf(ctx: FailureContext): Lang {
  return ctx.lang ?? 'en'
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
  const lang = langOf(ctx)
  const changed = changedNote(ctx)
  if (raw === undefined)
    return t('failure.perm.noPath', lang, {
      syscall: e.syscall ?? t('failure.fileOp', lang),
      changed,
      where: ctx.storeRoot === undefined ? '' : ` (ls -ld '${ctx.storeRoot}')`,
    })
  const path = withoutTempSuffix(raw)
  // A temp file of an atomic write was refused: the folder is what forbids writing the file.
  const found = nearestVisible(raw === path ? path : dirname(path))
  const me = process.getuid?.()
  const head =
    found !== undefined && found.missing && raw === path
      ? t('failure.perm.create', lang, { name: basename(path), folder: found.path })
      : t('failure.perm.path', lang, { path })
  if (found === undefined || me === undefined) return t('failure.perm.unknown', lang, { head, changed })
  const folder = found.st.isDirectory()
  const state = t('failure.perm.state', lang, {
    kind: t(folder ? 'failure.kind.folder' : 'failure.kind.file', lang),
    path: found.path,
    owner: who(found.st.uid),
    mode: modeOf(found.st),
    me: who(me),
  })
  let fix: string
  if (found.st.uid !== me) {
    const target = ctx.storeRoot !== undefined && found.path.startsWith(ctx.storeRoot) ? ctx.storeRoot : found.path
    fix = t('failure.fix.owner', lang, {
      owner: userName(found.st.uid) ?? `uid ${found.st.uid}`,
      uid: String(me),
      gid: String(process.getgid?.() ?? me),
      target,
    })
  } else {
    fix = me === 0 ? t('failure.fix.root', lang, { path: found.path }) : t('failure.fix.mode', lang, { x: folder ? 'x' : '', path: found.path })
  }
  return t('failure.perm.full', lang, { head, state, changed, fix })
}

/** A folder made (`mkdir -p`) where a file, a FIFO or a link already stands: EEXIST, the same conflict as ENOTDIR. */
function fileWhereFolderIsMade(e: Errno): boolean {
  if (e.code !== 'EEXIST' || e.syscall !== 'mkdir' || e.path === undefined) return false
  try {
    return !lstatSync(e.path).isDirectory()
  } catch {
    return false
  }
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
  const lang = langOf(ctx)
  let what: string
  let p: string
  if (e.code === 'ENOTDIR' || e.code === 'EEXIST') {
    p = fileInTheWay(e.dest ?? e.path ?? '') ?? e.path ?? '(unknown path)'
    what = t('failure.conflict.fileNeedsFolder', lang, { path: p })
  } else {
    p = withoutTempSuffix(e.dest ?? e.path ?? '(unknown path)')
    what = t('failure.conflict.folderNeedsFile', lang, { path: p })
  }
  return t('failure.conflict', lang, { what, changed: changedNote(ctx), path: p })
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
  const lang = langOf(ctx)
  if (DISK_FULL.has(code)) {
    const what = t(code === 'EDQUOT' ? 'failure.diskQuota' : 'failure.diskFull', lang)
    return { exit: EXIT.system, message: t('failure.noSpace', lang, { what, where, changed: changedNote(ctx), dir: dirname(where) }) }
  }
  if (DENIED.has(code)) return { exit: EXIT.system, message: permissionMessage(e, ctx) }
  if (code === 'EROFS') return { exit: EXIT.system, message: t('failure.readOnly', lang, { where, changed: changedNote(ctx) }) }
  // RLIMIT_FSIZE (ulimit -f) or the file system's own largest file: the write stopped short (a short write).
  if (code === 'EFBIG') return { exit: EXIT.system, message: t('failure.tooBig', lang, { where, changed: changedNote(ctx) }) }
  if (code === 'EIO') return { exit: EXIT.system, message: t('failure.io', lang, { where, changed: changedNote(ctx) }) }
  // A folder swapped for a link that leads back to itself (or round in a circle): no path through it resolves.
  if (code === 'ELOOP') return { exit: EXIT.system, message: t('failure.loop', lang, { where, changed: changedNote(ctx) }) }
  if (CONFLICT.has(code) || fileWhereFolderIsMade(e)) return { exit: EXIT.system, message: conflictMessage(e, ctx) }
  return undefined
}

/** One line for an error nobody expected; the stack only on request. */
export function describeBug(error: unknown, debug: boolean, lang: Lang = 'en'): string {
  const e = error instanceof Error ? error : new Error(String(error))
  const code = typeof (e as Errno).code === 'string' ? ` [${(e as Errno).code}]` : ''
  // The error's own name and first line are the program's words, shown as written.
  const line = t('failure.bug', lang, { error: `${e.name}: ${e.message.split('\n')[0]}`, code })
  return debug ? `${line}\n${e.stack ?? ''}` : `${line} ${t('failure.bug.debug', lang)}`
}

/** Standard output or error was closed by the reader (`cyrene … | head -1`): not a failure. */
export function isClosedPipe(error: unknown): boolean {
  const code = errnoOf(error)?.code
  return code === 'EPIPE' || code === 'ERR_STREAM_DESTROYED'
}
