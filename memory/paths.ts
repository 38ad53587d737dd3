import { homedir } from 'node:os'
import { isAbsolute, join, resolve, relative, sep, dirname, basename } from 'node:path'

/** Folder name of the store under DSH_HOME. */
export const ROOT_NAME = 'cyrene-philia093-0'

/** The layout of CONTRACT#layout, relative to the root. */
export const LAYOUT = {
  anchors: '锚',
  anchorHistory: '锚/历史',
  days: '岁月涟漪/日档',
  months: '岁月涟漪/月响',
  years: '岁月涟漪/年轮',
  dreams: '梦境',
  rolling: '档',
  margin: '余页',
  pending: '余页/待定',
  meta: '元',
} as const

/** The store's write lock, in `元/` (CONTRACT#locks): every read-modify-write of every process holds it. */
export const WRITE_LOCK = 'write.lock'

/** The night's journal of a date: 梦境/YYYY/MM/YYYY-MM-DD.md (written by night/journal.ts, read by recall and the page). */
export function journalRel(night: string): string {
  return `${LAYOUT.dreams}/${night.slice(0, 4)}/${night.slice(5, 7)}/${night}.md`
}

/** 岁月涟漪/月响/YYYY/YYYY-MM.md (a month's echo) or 岁月涟漪/年轮/YYYY.md (a year's ring). */
export function echoRel(kind: 'month' | 'year', period: string): string {
  return kind === 'month' ? `${LAYOUT.months}/${period.slice(0, 4)}/${period}.md` : `${LAYOUT.years}/${period}.md`
}

/** A journal section that says only this is a night that dreamt nothing: the night writes it, recall leaves it out. */
export const NO_OUTPUT = '本次未产出'

/** Every folder created when a store is opened (order: parents first). */
export const LAYOUT_DIRS: readonly string[] = [
  LAYOUT.anchors,
  LAYOUT.anchorHistory,
  '岁月涟漪',
  LAYOUT.days,
  LAYOUT.months,
  LAYOUT.years,
  LAYOUT.dreams,
  LAYOUT.rolling,
  LAYOUT.margin,
  LAYOUT.pending,
  LAYOUT.meta,
]

export class RootError extends Error {}

export interface RootOptions {
  rootDir?: string | undefined
  env?: NodeJS.ProcessEnv
  /** Injected for tests; defaults to os.homedir(). */
  home?: () => string
}

/**
 * Where the store lives. A blank DSH_HOME counts as unset; with neither DSH_HOME
 * nor a home directory the caller gets an error — never the working directory,
 * because a store scattered into whatever folder a process happened to start in
 * is a store the user will not find again.
 */
export function resolveRoot(opts: RootOptions = {}): string {
  if (opts.rootDir !== undefined && opts.rootDir.trim() !== '') {
    if (!isAbsolute(opts.rootDir)) throw new RootError(`rootDir must be an absolute path, got "${opts.rootDir}"`)
    return resolve(opts.rootDir)
  }
  return join(resolveDshHome(opts), ROOT_NAME)
}

export function resolveDshHome(opts: RootOptions = {}): string {
  const env = opts.env ?? process.env
  const fromEnv = (env.DSH_HOME ?? '').trim()
  if (fromEnv !== '') {
    if (!isAbsolute(fromEnv)) throw new RootError(`DSH_HOME must be an absolute path, got "${fromEnv}". Set it to a full path, or unset it to use ~/.dsh.`)
    return resolve(fromEnv)
  }
  let home = ''
  try {
    home = (opts.home ?? homedir)()
  } catch {
    home = ''
  }
  home = (home ?? '').trim()
  if (home === '' || !isAbsolute(home)) {
    throw new RootError(
      'cannot place the memory store: DSH_HOME is not set and there is no home directory. Set DSH_HOME to an absolute path (for example DSH_HOME=/home/you/.dsh).',
    )
  }
  return join(home, '.dsh')
}

/** The snapshots folder sits beside the root so snapshots never count toward the root's quota. */
export function snapshotsDirOf(root: string): string {
  return join(dirname(root), `${basename(root)}-snapshots`)
}

/**
 * Where the recall index is cached: beside the root (like the snapshots, outside the quota).
 * Derived data only: a restore drops the whole folder (recall/cache.ts writes and reads
 * what is inside).
 */
export function recallCacheDir(root: string): string {
  return join(dirname(root), `${basename(root)}-index`)
}

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/

export function isDateString(s: string): boolean {
  const m = DATE_RE.exec(s)
  if (m === null) return false
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
  return d.toISOString().slice(0, 10) === s
}

/** Local calendar day of an instant — the day the person lived it. */
export function localDate(at: Date): string {
  const y = at.getFullYear().toString().padStart(4, '0')
  const m = (at.getMonth() + 1).toString().padStart(2, '0')
  const d = at.getDate().toString().padStart(2, '0')
  return `${y}-${m}-${d}`
}

function splitDate(date: string): [string, string] {
  if (!isDateString(date)) throw new RangeError(`not a date (YYYY-MM-DD): ${JSON.stringify(date)}`)
  return [date.slice(0, 4), date.slice(5, 7)]
}

/** 岁月涟漪/日档/YYYY/MM/YYYY-MM-DD.md */
export function dayFileRel(date: string): string {
  const [y, m] = splitDate(date)
  return `${LAYOUT.days}/${y}/${m}/${date}.md`
}

/** 余页/待定/YYYY-MM-DD.md */
export function pendingFileRel(date: string): string {
  splitDate(date)
  return `${LAYOUT.pending}/${date}.md`
}

/** The date a day or pending file is for, from its relative path; undefined if it is neither. */
export function dateOfEntryFile(rel: string): { date: string; area: 'day' | 'pending' } | undefined {
  const p = rel.split(sep).join('/')
  let m = /^岁月涟漪\/日档\/(\d{4})\/(\d{2})\/(\d{4}-\d{2}-\d{2})\.md$/.exec(p)
  if (m !== null && isDateString(m[3]!) && m[3]!.startsWith(`${m[1]}-${m[2]}`)) return { date: m[3]!, area: 'day' }
  m = /^余页\/待定\/(\d{4}-\d{2}-\d{2})\.md$/.exec(p)
  if (m !== null && isDateString(m[1]!)) return { date: m[1]!, area: 'pending' }
  return undefined
}

/**
 * Resolve a person- or model-supplied relative path inside the root. Refuses
 * absolute paths, `..`, NUL, and anything that would land outside the root.
 */
export function safeJoin(root: string, rel: string): string {
  if (typeof rel !== 'string' || rel === '' || rel.includes('\0')) throw new RangeError('path is empty or contains NUL')
  if (isAbsolute(rel) || /^[a-zA-Z]:/.test(rel) || rel.startsWith('\\'))
    throw new RangeError(`path must be relative to the memory root: ${JSON.stringify(rel)}`)
  const parts = rel.split(/[\\/]+/)
  if (parts.some((p) => p === '..')) throw new RangeError(`path may not contain "..": ${JSON.stringify(rel)}`)
  const full = resolve(root, rel)
  const back = relative(root, full)
  if (back === '' || back.startsWith('..') || isAbsolute(back)) throw new RangeError(`path escapes the memory root: ${JSON.stringify(rel)}`)
  return full
}

/** Is this relative path inside 元/ (the area only a person may write)? */
export function isMetaPath(rel: string): boolean {
  const p = rel.split(/[\\/]+/).filter((s) => s !== '' && s !== '.')
  return p[0] === LAYOUT.meta
}
