import { lstatSync, readdirSync, realpathSync, statSync, type Stats } from 'node:fs'
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path'
import { LAYOUT, ROOT_NAME } from '../memory/paths.ts'
import { PERSON_FOLDER as WORLDBOOK_FOLDER } from '../worldbook/index.ts'
import { RUNTIME_PART, type PathRef } from './shell.ts'
import { readRegularFileSync } from '../durable/read-regular.ts'

/**
 * Where a path lands, physically, and whether the model's generic tools may
 * change it (CONTRACT#store-guard): `元/`, the anchor files `锚/` and day files holding a
 * `base: true` entry are the person's; so is every folder above them (removing or moving the
 * folder removes them). Paths are resolved the way the kernel will: `..`
 * after the links before it, each existing component through its link, the
 * missing rest appended.
 */

/** Why a path is closed to the model. */
export type Protection =
  | { kind: 'meta' | 'anchor' | 'worldbook'; path: string }
  | { kind: 'base-day'; path: string }
  | { kind: 'holds'; path: string; what: string }
  | { kind: 'named'; path: string }

/** The file-system reads the guard needs (the real ones by default; the tests use real folders too). */
export interface GuardFs {
  lstat(path: string): Stats | undefined
  stat(path: string): Stats | undefined
  realpath(path: string): string
  readdir(path: string): string[]
  readText(path: string, maxBytes: number): string | undefined
}

const REAL_FS: GuardFs = {
  // A path with a NUL, or a name longer than the kernel takes, names nothing on disk and no call can make it: no entry, not an error.
  lstat: (p) => {
    if (p.includes('\u0000')) return undefined
    try {
      return lstatSync(p, { throwIfNoEntry: false })
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENAMETOOLONG') return undefined
      throw error
    }
  },
  stat: (p) => {
    try {
      return statSync(p, { throwIfNoEntry: false })
    } catch {
      return undefined
    }
  },
  realpath: (p) => {
    if (p.includes('\u0000')) throw Object.assign(new Error(`no such file: ${p}`), { code: 'ENOENT' })
    return realpathSync.native(p)
  },
  readdir: (p) => {
    try {
      return readdirSync(p)
    } catch {
      return []
    }
  },
  readText: (p, max) => {
    try {
      return readRegularFileSync(p, true, max).toString('utf8')
    } catch (error) {
      return (error as NodeJS.ErrnoException).code === 'EFBIG' ? undefined : ''
    }
  },
}

/** Day files are small; a bigger one is not read and counts as holding a base entry. */
const MAX_DAY_FILE_BYTES = 8 * 1024 * 1024
/** Folder walks (a folder above day files, a glob) stop here and count as protected. */
const MAX_WALK = 20_000

export interface StoreProtectionOptions {
  fs?: GuardFs
  /** Fold case when comparing (a case-insensitive file system); detected from the root when not given. */
  caseInsensitive?: boolean
}

/** The store's protected paths, checked against the disk at every call (the store changes while DSH runs). */
export class StoreProtection {
  readonly root: string
  private readonly fs: GuardFs
  private readonly fold: boolean
  /** Base-entry answer per day file, kept while its size, time and inode stay the same. */
  private readonly baseCache = new Map<string, { stamp: string; base: boolean }>()

  constructor(root: string, opts: StoreProtectionOptions = {}) {
    this.root = resolve(root)
    this.fs = opts.fs ?? REAL_FS
    this.fold = opts.caseInsensitive ?? detectCaseInsensitive(this.root, this.fs)
  }

  /** The physical path a tool would reach: links followed for every existing component, `..` applied after them. */
  canonical(abs: string): string {
    const parts = abs.split('/').filter((p) => p !== '' && p !== '.')
    let current = '/'
    for (let i = 0; i < parts.length; i++) {
      const part = parts[i]!
      if (part === '..') {
        current = dirname(current)
        continue
      }
      const next = join(current, part)
      if (this.fs.lstat(next) === undefined) {
        // The rest does not exist yet: applied as text, as the kernel would once it is created.
        return resolve(next, ...parts.slice(i + 1))
      }
      try {
        current = this.fs.realpath(next)
      } catch {
        // A dangling link: where it points is where a write would create the file.
        return resolve(next, ...parts.slice(i + 1))
      }
    }
    return current
  }

  private realRoot(): string {
    return this.canonical(this.root)
  }

  private key(p: string): string {
    const n = p.normalize('NFC')
    return this.fold ? n.toLowerCase() : n
  }

  /** `inner` is `outer` or below it (compared after normalisation). */
  private within(inner: string, outer: string): boolean {
    const rel = relative(this.key(outer), this.key(inner))
    return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel))
  }

  /** The path as a tool would change it (write, move, remove): protected, or undefined when it is the model's to change. */
  classify(abs: string): Protection | undefined {
    const path = this.canonical(abs)
    const root = this.realRoot()
    if (this.within(root, path)) return { kind: 'holds', path, what: path === root ? 'the memory store itself' : 'a folder that holds the memory store' }
    if (!this.within(path, root)) return this.hardLinkAlias(path, root)
    const rel = relative(this.key(root), this.key(path)).split(sep)
    if (rel[0] === this.key(LAYOUT.meta)) return { kind: 'meta', path }
    // The anchors' cores are the person's too (CONTRACT#anchors); the model adds sections with memory_anchor.
    if (rel[0] === this.key(LAYOUT.anchors)) return { kind: 'anchor', path }
    // The person's worldbook: a model-written constant entry would steer every later session.
    if (rel[0] === this.key(WORLDBOOK_FOLDER)) return { kind: 'worldbook', path }
    const days = LAYOUT.days.split('/').map((s) => this.key(s))
    // A folder on the way to the day files, or a day file itself.
    if (days.slice(0, rel.length).every((s, i) => s === rel[i]) || days.every((s, i) => s === rel[i])) {
      const st = this.fs.stat(path)
      if (st === undefined) return undefined
      if (st.isFile()) return this.holdsBase(path, st) ? { kind: 'base-day', path } : undefined
      if (st.isDirectory()) {
        const found = this.findBaseBelow(path)
        if (found !== undefined) return { kind: 'holds', path, what: `a folder with day files holding base entries (${relative(root, found)})` }
      }
    }
    return undefined
  }

  /** A reference with no resolved path: protected when its literal text names the store. */
  classifyText(text: string): Protection | undefined {
    const segments = text.split('/')
    const named = segments.some((s) => this.key(s) === this.key(ROOT_NAME) || this.key(s) === this.key(basename(this.root)))
    if (named) return { kind: 'named', path: text.replaceAll(RUNTIME_PART, '…') }
    const meta = segments.indexOf(LAYOUT.meta)
    if (meta >= 0 && (meta === 0 || segments[meta - 1]!.includes(RUNTIME_PART) || segments[meta - 1] === '..'))
      return { kind: 'named', path: text.replaceAll(RUNTIME_PART, '…') }
    const day = /(\d{4}-\d{2}-\d{2})\.md$/.exec(text)
    if (day !== null && text.includes('日档')) {
      const file = join(this.realRoot(), LAYOUT.days, day[1]!.slice(0, 4), day[1]!.slice(5, 7), `${day[1]}.md`)
      const st = this.fs.stat(file)
      if (st?.isFile() === true && this.holdsBase(file, st)) return { kind: 'base-day', path: file }
    }
    return undefined
  }

  /** A reference from the shell reader: its path (globs expanded against the disk), or its text. */
  classifyRef(ref: PathRef): Protection | undefined {
    if (ref.abs === undefined) return this.classifyText(ref.text)
    const paths = ref.glob === true ? this.expandGlob(ref.abs) : [ref.abs]
    for (const p of paths) {
      const found = this.classify(p)
      if (found !== undefined) return found
    }
    return undefined
  }

  /** The path is the store root or inside it: a program started there may change anything in it. */
  insideStore(abs: string): boolean {
    return this.within(this.canonical(abs), this.realRoot())
  }

  /** The path is below the day files' folder (`岁月涟漪/日档/`). */
  inDays(abs: string): boolean {
    const days = join(this.realRoot(), LAYOUT.days)
    const path = this.canonical(abs)
    return path !== days && this.within(path, days)
  }

  /** Whether a day file holds an entry with `base: true` (a file too big to read counts as yes). */
  holdsBase(path: string, st: Stats): boolean {
    const stamp = `${st.size}:${st.mtimeMs}:${st.ino}`
    const cached = this.baseCache.get(path)
    if (cached?.stamp === stamp) return cached.base
    const text = this.fs.readText(path, MAX_DAY_FILE_BYTES)
    const base = text === undefined ? true : textHoldsBase(text)
    this.baseCache.set(path, { stamp, base })
    return base
  }

  private findBaseBelow(dir: string): string | undefined {
    let seen = 0
    const walk = (d: string): string | undefined => {
      for (const name of this.fs.readdir(d).sort()) {
        if (++seen > MAX_WALK) return d
        const p = join(d, name)
        const st = this.fs.lstat(p)
        if (st === undefined) continue
        if (st.isDirectory()) {
          const found = walk(p)
          if (found !== undefined) return found
        } else if (st.isFile() && name.endsWith('.md') && this.holdsBase(p, st)) return p
      }
      return undefined
    }
    return walk(dir)
  }

  /**
   * A second name (hard link) of a protected file outside the store: changing it changes
   * the file. Only looked for when the file has more than one name.
   */
  private hardLinkAlias(path: string, root: string): Protection | undefined {
    const st = this.fs.lstat(path)
    if (st === undefined || !st.isFile() || st.nlink < 2) return undefined
    let seen = 0
    const walk = (d: string, inDays: boolean, kind: 'meta' | 'anchor' = 'meta'): Protection | undefined => {
      for (const name of this.fs.readdir(d)) {
        if (++seen > MAX_WALK) return undefined
        const p = join(d, name)
        const s = this.fs.lstat(p)
        if (s === undefined) continue
        if (s.isDirectory()) {
          const found = walk(p, inDays, kind)
          if (found !== undefined) return found
        } else if (s.ino === st.ino && s.dev === st.dev) {
          if (!inDays) return { kind, path: p }
          if (this.holdsBase(p, s)) return { kind: 'base-day', path: p }
        }
      }
      return undefined
    }
    return walk(join(root, LAYOUT.meta), false) ?? walk(join(root, LAYOUT.anchors), false, 'anchor') ?? walk(join(root, LAYOUT.days), true)
  }

  /** Expand `*`, `?` and `[…]` the way bash will, against the disk now; a pattern that matches nothing stays itself. */
  expandGlob(abs: string): string[] {
    const parts = abs.split('/').filter((p) => p !== '')
    let paths = ['/']
    let seen = 0
    for (const part of parts) {
      if (!/[*?[]/.test(part)) {
        paths = paths.map((p) => join(p, part))
        continue
      }
      const re = globRegExp(part)
      const next: string[] = []
      for (const p of paths) {
        for (const name of this.fs.readdir(p)) {
          if (++seen > MAX_WALK) return [...next, ...paths]
          if ((name.startsWith('.') && !part.startsWith('.')) || !re.test(name)) continue
          next.push(join(p, name))
        }
      }
      if (next.length === 0) return [abs]
      paths = next
    }
    return paths
  }
}

/** An entry comment line with `"base": true` in its JSON. */
export function textHoldsBase(text: string): boolean {
  if (!text.includes('"base"')) return false
  for (const line of text.split(/\r?\n/)) {
    const m = /^<!--cyrene:(.*)-->\s*$/.exec(line)
    if (m === null) continue
    try {
      const meta = JSON.parse(m[1]!) as { base?: unknown }
      if (meta.base === true) return true
    } catch {
      // Not an entry (the store reports it); nothing to protect on this line.
    }
  }
  return false
}

/**
 * Text a tool would write into a day file that could make an entry a base entry (the model may
 * not create one): any `"base": true`, also one edited into an existing comment line.
 */
export function textCarriesBase(text: string): boolean {
  return /"base"\s*:\s*true/.test(text)
}

function globRegExp(pattern: string): RegExp {
  let re = ''
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!
    if (c === '*') re += '.*'
    else if (c === '?') re += '.'
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2)
      if (end < 0) re += '\\['
      else {
        const body = pattern
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')
        re += `[${body}]`
        i = end
      }
    } else re += c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  }
  return new RegExp(`^${re}$`, 's')
}

/** A root whose name changes case and still resolves to the same folder lives on a case-insensitive file system. */
function detectCaseInsensitive(root: string, fs: GuardFs): boolean {
  let probe = root
  while (probe !== '/' && fs.lstat(probe) === undefined) probe = dirname(probe)
  const flipped = probe.replace(/[a-zA-Z]/g, (c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
  if (flipped === probe) return false
  const a = fs.lstat(probe)
  const b = fs.lstat(flipped)
  return a !== undefined && b !== undefined && a.ino === b.ino && a.dev === b.dev
}
