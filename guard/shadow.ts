import { createHash, randomBytes } from 'node:crypto'
import {
  chmodSync,
  closeSync,
  constants as C,
  fchmodSync,
  fchownSync,
  fstatSync,
  fsyncSync,
  futimesSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  type Stats,
} from 'node:fs'
import { basename, dirname, join, sep } from 'node:path'
import { readRegularFileSync } from '../durable/read-regular.ts'
import { writeAllSync } from '../durable/lock.ts'

/**
 * What the protected folders held, kept in the host's memory so a tool call's
 * effects can be put back byte for byte (CONTRACT#store-guard, docs/decisions/010).
 * Every file's bytes are kept once per distinct content (a snapshot is a copy
 * of the store, so its files cost nothing more); folders, modes, times and
 * links are kept as records. Comparing is a walk of `lstat` calls: a file is
 * read again only when its size is the same and its stamp (inode, ctime,
 * mtime, mode, link count) is not — ctime cannot be set back by a process, so a
 * change cannot hide behind a forged mtime.
 */

type Kind = 'file' | 'dir' | 'link' | 'other'

interface Rec {
  kind: Kind
  mode: number
  uid: number
  gid: number
  ino: number
  size: number
  mtimeMs: number
  atimeMs: number
  ctimeMs: number
  nlink: number
  hash?: string
  target?: string
}

type ChangeWhat = 'added' | 'removed' | 'replaced' | 'content' | 'mode' | 'owner' | 'time' | 'hard link'

export interface Change {
  path: string
  what: ChangeWhat
  /** The path's bytes, for a name that is not UTF-8 (`path` then holds U+FFFD where a byte was, and names nothing on disk). */
  raw?: Buffer
}

/** A folder's entries as bytes: a name that is not UTF-8 comes back from a string listing altered, and unreachable by it. */
function listRaw(path: string): { name: string; raw: Buffer; utf8: boolean }[] {
  return readdirSync(path, { encoding: 'buffer' }).map((raw) => {
    const name = raw.toString('utf8')
    return { name, raw, utf8: Buffer.from(name, 'utf8').equals(raw) }
  })
}

const rawPath = (dir: string, raw: Buffer) => Buffer.concat([Buffer.from(dir + sep, 'utf8'), raw])

/**
 * A lock folder and its records (durable/lock.ts: `<lock>`, `.owner`, `.intent.<pid>`, `.reaping`) belong
 * to their holders; the guard leaves them alone, but only where the host keeps locks (`lockFolders`, and
 * git's own inside `.git/`). Anywhere else such a name is a file like any other: 世界书/x.lock.md is an entry.
 */
const LOCK_FILE = /\.lock(?:\.owner|\.intent\.\d+|\.reaping)?$/

function kindOf(st: Stats): Kind {
  if (st.isFile()) return 'file'
  if (st.isDirectory()) return 'dir'
  if (st.isSymbolicLink()) return 'link'
  return 'other'
}

function lstatOr(path: string): Stats | undefined {
  try {
    return lstatSync(path)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    // ELOOP: a folder above was swapped for a link to itself; what was recorded here is gone all the same.
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return undefined
    throw error
  }
}

const isAccessError = (error: unknown) => ['EACCES', 'EPERM'].includes((error as NodeJS.ErrnoException).code ?? '')

/** The path's lstat, or undefined when even that is refused or it is gone. */
function statIfAny(path: string): Stats | undefined {
  try {
    return lstatSync(path)
  } catch {
    return undefined
  }
}

const sameOwner = (st: Stats, rec: Rec) => st.uid === rec.uid && st.gid === rec.gid

/**
 * The mode set on the folder itself: a call's process may have swapped it for a link since the guard
 * looked, and `chmod` would follow that link (into the store, or anywhere the person can write).
 */
function chmodFolder(path: string, mode: number): void {
  let fd: number
  try {
    fd = openSync(path, C.O_RDONLY | C.O_DIRECTORY | C.O_NOFOLLOW)
  } catch (error) {
    // A folder this user may not read (a call set it to 0000) cannot be opened, only named.
    if (!isAccessError(error) || !lstatSync(path).isDirectory()) throw error
    return chmodSync(path, mode)
  }
  try {
    fchmodSync(fd, mode)
  } finally {
    closeSync(fd)
  }
}

/** The recorded owner, where what was made has another (a host running as root puts back a person's file). */
function ownAs(path: string, rec: Rec): void {
  if (!sameOwner(lstatSync(path), rec)) lchownSync(path, rec.uid, rec.gid)
}

const sha = (buf: Buffer) => createHash('sha1').update(buf).digest('base64')

export class Shadow {
  readonly roots: readonly string[]
  private readonly recs = new Map<string, Rec>()
  private readonly children = new Map<string, Set<string>>()
  private readonly blobs = new Map<string, { buf: Buffer; refs: number }>()
  /**
   * Files compared by their bytes, not their stamps, until `forgetRewrites`: found written again with the same bytes
   * (a shared mapping), or put back here (a process may have written the temporary file through a descriptor it
   * opened by name before the rename, and the stamp taken after the rename is then the forgery's, decision 305).
   */
  private readonly rewrittenUnchanged = new Set<string>()

  private readonly lockFolders: ReadonlySet<string>
  /** While `diffWhole` runs: folders it does not walk into. */
  private notDeep: Set<string> | undefined
  /** Entries whose names are not UTF-8 that were there at start or kept as the person's, by their whole path's bytes (hex): left alone. */
  private readonly rawNames = new Set<string>()

  constructor(roots: readonly string[], lockFolders: readonly string[] = []) {
    this.roots = roots
    this.lockFolders = new Set(lockFolders)
    for (const root of roots) this.take(root)
  }

  /** A lock of the host's, or what lies in one: never compared. */
  private isLock(path: string): boolean {
    if (!LOCK_FILE.test(basename(path))) return false
    const parent = dirname(path)
    return this.lockFolders.has(parent) || parent.split(sep).includes('.git')
  }

  private underLock(path: string): boolean {
    for (let p = path; p !== dirname(p); p = dirname(p)) if (this.isLock(p)) return true
    return false
  }

  /** Files, folders and distinct contents kept, and their bytes (the doctor and the bench show them). */
  stats(): { paths: number; blobs: number; bytes: number } {
    let bytes = 0
    for (const b of this.blobs.values()) bytes += b.buf.byteLength
    return { paths: this.recs.size, blobs: this.blobs.size, bytes }
  }

  /** The disk against the records, every root. */
  diff(): Change[] {
    const out: Change[] = []
    for (const root of this.roots) this.compare(root, out)
    return out
  }

  /**
   * The disk against the records under these roots, whole (every file's stamp) but for the folders in
   * `besides` (left to what the watches name), and at the other paths named, as `diffAt`.
   */
  diffWhole(roots: readonly string[], named: Iterable<string>, besides: readonly string[] = []): Change[] {
    const out: Change[] = []
    const under = (p: string, folders: readonly string[]) => folders.some((f) => p === f || p.startsWith(f + sep))
    this.notDeep = new Set(besides)
    try {
      for (const root of roots) this.compare(root, out)
    } finally {
      this.notDeep = undefined
    }
    // What was put back is read again wherever it lies (a snapshot's file too): the look that closes a window is the one no process of the call can race.
    const rest = [...named, ...this.rewrittenUnchanged].filter((p) => !under(p, roots) || under(p, besides))
    out.push(...this.diffAt(rest))
    return out
  }

  /** The disk against the records at these paths only (what the watches named): a folder's own entries, a file's bytes. */
  diffAt(paths: Iterable<string>): Change[] {
    const out: Change[] = []
    const all = new Set(paths)
    for (const path of all) {
      // A lock and what its holder keeps in it are never compared (nor what lies below one).
      if (this.underLock(path)) continue
      // A change at a folder above already covers this path.
      let covered = false
      for (let d = dirname(path); d !== dirname(d); d = dirname(d)) if (all.has(d) && !this.recs.has(d)) covered = true
      if (!covered) this.compare(path, out, false)
    }
    return out
  }

  /** The recorded paths at and below `path` (for the watches). */
  recordedUnder(paths: ReadonlySet<string>): { path: string; dir: boolean }[] {
    const out: { path: string; dir: boolean }[] = []
    // Most looks change nothing: no walk over every record for them (it was most of a quiet look's cost).
    if (paths.size === 0) return out
    for (const [p, rec] of this.recs) if (rec.kind !== 'link' && atOrUnderAny(p, paths)) out.push({ path: p, dir: rec.kind === 'dir' })
    return out
  }

  /** No process of a call is left that could hold a mapping of a file: stamps are trusted again. */
  forgetRewrites(): void {
    this.rewrittenUnchanged.clear()
  }

  /** Keep what the disk holds now at these paths (a legitimate write). */
  adopt(changes: Iterable<Change>): void {
    for (const c of changes) {
      if (c.raw !== undefined) {
        this.rawNames.add(c.raw.toString('hex'))
        continue
      }
      this.forget(c.path)
      this.take(c.path)
    }
  }

  /**
   * A folder now on disk at `path` kept as it is, but not what lies in it: returns its entries, each
   * an addition to judge on its own (a folder the host made, into which another process may have put
   * files before the look). Undefined when `path` is not a folder.
   */
  adoptFolderOnly(path: string): Change[] | undefined {
    if (lstatOr(path)?.isDirectory() !== true) return undefined
    this.forget(path)
    this.take(path, false)
    const out: Change[] = []
    this.compare(path, out, false)
    return out
  }

  /**
   * What is kept at `path` for a host about to read and write it back: a file's bytes, null when
   * nothing is kept there inside the roots, undefined for a folder, a link or a path outside them.
   */
  keptFile(path: string): Buffer | null | undefined {
    if (!this.roots.some((r) => path.startsWith(r + sep))) return undefined
    const rec = this.recs.get(path)
    if (rec === undefined) return null
    return rec.kind === 'file' ? this.blobs.get(rec.hash!)!.buf : undefined
  }

  /**
   * The host wrote these bytes at each path and a call's process replaced them before the look:
   * they are kept, and written back. Returns what could not be written.
   */
  keepWritten(writes: readonly { path: string; bytes: Uint8Array }[]): { path: string; error: string }[] {
    const failed: { path: string; error: string }[] = []
    for (const { path, bytes } of writes) {
      try {
        // Mode and owner as the file had them before (what the process put there says nothing).
        const before = this.recs.get(path)
        const was = before?.kind === 'file' ? before : undefined
        this.forget(path)
        const now = Date.now()
        const rec: Rec = {
          kind: 'file',
          mode: was?.mode ?? 0o600,
          uid: was?.uid ?? process.getuid?.() ?? 0,
          gid: was?.gid ?? process.getgid?.() ?? 0,
          ino: 0,
          size: bytes.byteLength,
          mtimeMs: now,
          atimeMs: now,
          ctimeMs: now,
          nlink: 1,
          hash: this.keep(Buffer.from(bytes)),
        }
        this.recs.set(path, rec)
        const parent = dirname(path)
        if (this.recs.has(parent)) this.childrenOf(parent).add(path.slice(parent.length + 1))
        rmSync(path, { recursive: true, force: true })
        this.rebuild(path)
      } catch (error) {
        failed.push({ path, error: (error as Error).message })
      }
    }
    return failed
  }

  /** Put back what the records hold at each changed path; returns the changes it could not undo. */
  restore(changes: readonly Change[]): { path: string; error: string }[] {
    const failed: { path: string; error: string }[] = []
    // Shallow first: a removed folder is rebuilt whole before its files are looked at.
    for (const c of [...changes].sort((a, b) => a.path.length - b.path.length)) {
      try {
        this.putBack(c)
      } catch (error) {
        failed.push({ path: c.path, error: (error as Error).message })
      }
    }
    return failed
  }

  private compare(path: string, out: Change[], deep = true): void {
    try {
      this.compareOnce(path, out, deep)
    } catch (error) {
      // A call took this user's own access away (chmod 000 on a file or a folder above it): give it back and look again.
      if (!isAccessError(error) || !this.regainAccess(path, out)) throw error
      this.compareOnce(path, out, deep)
    }
  }

  /**
   * The recorded mode put back on `path` and the recorded folders above it that this user owns but
   * may no longer read (a host running as the person cannot read its own file at mode 0000, and its
   * look would fail with everything the call changed kept). Each is named as a mode change, which
   * the window puts back or keeps like any other. False when nothing could be given back.
   */
  private regainAccess(path: string, out: Change[]): boolean {
    const me = process.getuid?.()
    let regained = false
    for (let p = path; ; p = dirname(p)) {
      const rec = this.recs.get(p)
      const st = rec === undefined || rec.kind === 'link' ? undefined : statIfAny(p)
      if (rec !== undefined && st !== undefined && kindOf(st) === rec.kind && (st.mode & 0o7777) !== rec.mode && st.uid === me) {
        chmodSync(p, rec.mode)
        if (!out.some((c) => c.path === p && c.what === 'mode')) out.push({ path: p, what: 'mode' })
        regained = true
      }
      if (this.roots.includes(p) || dirname(p) === p) return regained
    }
  }

  private compareOnce(path: string, out: Change[], deep: boolean): void {
    const rec = this.recs.get(path)
    const st = lstatOr(path)
    if (rec === undefined) {
      if (st !== undefined) out.push({ path, what: 'added' })
      return
    }
    if (st === undefined) return void out.push({ path, what: 'removed' })
    const kind = kindOf(st)
    if (kind !== rec.kind || (kind === 'dir' && st.ino !== rec.ino)) return void out.push({ path, what: 'replaced' })
    if (kind === 'file') return this.compareFile(path, rec, st, out)
    if (kind === 'link') {
      if (readlinkSync(path) !== rec.target) out.push({ path, what: 'content' })
      else if (!sameOwner(st, rec)) out.push({ path, what: 'owner' })
      return
    }
    if (kind !== 'dir') return
    if ((st.mode & 0o7777) !== rec.mode) out.push({ path, what: 'mode' })
    else if (!sameOwner(st, rec)) out.push({ path, what: 'owner' })
    const kept = this.children.get(path) ?? new Set<string>()
    const names: string[] = []
    for (const entry of listRaw(path)) {
      if (entry.utf8) {
        if (!this.isLock(join(path, entry.name))) names.push(entry.name)
      } else {
        const raw = rawPath(path, entry.raw)
        if (!this.rawNames.has(raw.toString('hex'))) out.push({ path: join(path, entry.name), what: 'added', raw })
      }
    }
    for (const name of names) if (!kept.has(name)) out.push({ path: join(path, name), what: 'added' })
    if (!deep) {
      const present = new Set(names)
      for (const name of kept) if (!present.has(name)) out.push({ path: join(path, name), what: 'removed' })
      return
    }
    // `diffWhole` leaves the folders it was told to (the snapshots, .git/) to what the watches name.
    for (const name of kept) if (this.notDeep?.has(join(path, name)) !== true) this.compare(join(path, name), out)
  }

  private compareFile(path: string, rec: Rec, st: Stats, out: Change[]): void {
    const same = st.ino === rec.ino && st.ctimeMs === rec.ctimeMs && st.mtimeMs === rec.mtimeMs && st.size === rec.size && st.nlink === rec.nlink
    if (same && (st.mode & 0o7777) === rec.mode && !this.rewrittenUnchanged.has(path)) return
    if (st.size !== rec.size || sha(readRegularFileSync(path)) !== rec.hash) return void out.push({ path, what: 'content' })
    if ((st.mode & 0o7777) !== rec.mode) return void out.push({ path, what: 'mode' })
    // A new name for the file is a way to write it from elsewhere; a name going away is none (decision 336).
    if (st.nlink > rec.nlink) return void out.push({ path, what: 'hard link' })
    if (st.mtimeMs !== rec.mtimeMs) return void out.push({ path, what: 'time' })
    // chown moves only the ctime: the same bytes under another owner are still a change.
    if (!sameOwner(st, rec)) return void out.push({ path, what: 'owner' })
    // Same bytes, mode, time and links (written again unchanged): only the stamp moves on. But a page of a shared
    // mapping dirtied with its own bytes stays writable, and what is written through it later moves no time and
    // raises no watch: its bytes are read at every look until the window closes (`forgetRewrites`).
    this.rewrittenUnchanged.add(path)
    this.stamp(path, rec, st)
  }

  /**
   * What was just put back (or found unchanged) is recorded as it stands now: its inode and times move on.
   * Its kind and mode stay the record's. A call's process may swap the path between the put back and this
   * look: a link's 0777 taken as the folder's mode would be "put back" onto the real folder at the next look.
   * Something of another kind is left unrecorded, so the next look finds it replaced.
   */
  private stamp(path: string, rec: Rec, st: Stats): void {
    if (kindOf(st) !== rec.kind) return
    this.recs.set(path, { ...rec, ino: st.ino, ctimeMs: st.ctimeMs, mtimeMs: st.mtimeMs, atimeMs: st.atimeMs, nlink: st.nlink })
  }

  /** Record the disk at `path` and below (or the folder alone, its entries left unrecorded). */
  private take(path: string, below = true): void {
    const st = lstatOr(path)
    if (st === undefined) return
    const kind = kindOf(st)
    const rec: Rec = {
      kind,
      mode: st.mode & 0o7777,
      uid: st.uid,
      gid: st.gid,
      ino: st.ino,
      size: st.size,
      mtimeMs: st.mtimeMs,
      atimeMs: st.atimeMs,
      ctimeMs: st.ctimeMs,
      nlink: st.nlink,
    }
    if (kind === 'file') rec.hash = this.keep(readRegularFileSync(path))
    if (kind === 'link') rec.target = readlinkSync(path)
    this.recs.set(path, rec)
    const parent = dirname(path)
    if (parent !== path && this.recs.has(parent)) this.childrenOf(parent).add(path.slice(parent.length + (parent.endsWith(sep) ? 0 : 1)))
    if (kind !== 'dir') return
    if (!below) return void this.childrenOf(path)
    const kids = this.childrenOf(path)
    for (const { name, raw, utf8 } of listRaw(path)) {
      if (!utf8) {
        this.rawNames.add(rawPath(path, raw).toString('hex'))
        continue
      }
      if (this.isLock(join(path, name))) continue
      kids.add(name)
      this.take(join(path, name))
    }
  }

  private childrenOf(dir: string): Set<string> {
    let set = this.children.get(dir)
    if (set === undefined) this.children.set(dir, (set = new Set()))
    return set
  }

  private keep(buf: Buffer): string {
    const hash = sha(buf)
    const blob = this.blobs.get(hash)
    if (blob === undefined) this.blobs.set(hash, { buf, refs: 1 })
    else blob.refs++
    return hash
  }

  private forget(path: string): void {
    const rec = this.recs.get(path)
    if (rec === undefined) return
    for (const name of this.children.get(path) ?? []) this.forget(join(path, name))
    this.children.delete(path)
    this.recs.delete(path)
    this.children.get(dirname(path))?.delete(path.slice(dirname(path).length + 1))
    if (rec.hash === undefined) return
    const blob = this.blobs.get(rec.hash)
    if (blob !== undefined && --blob.refs === 0) this.blobs.delete(rec.hash)
  }

  private putBack(c: Change): void {
    if (c.raw !== undefined) return void rmSync(c.raw, { recursive: true, force: true })
    const rec = this.recs.get(c.path)
    if (rec === undefined) {
      rmSync(c.path, { recursive: true, force: true })
      return
    }
    if (c.what === 'removed' || c.what === 'replaced') {
      rmSync(c.path, { recursive: true, force: true })
      this.rebuild(c.path)
      return
    }
    if (c.what === 'owner') lchownSync(c.path, rec.uid, rec.gid)
    else if (rec.kind === 'dir') chmodFolder(c.path, rec.mode)
    else if (rec.kind === 'link') {
      rmSync(c.path, { force: true })
      symlinkSync(rec.target!, c.path)
    } else if (rec.kind === 'file') return this.stamp(c.path, rec, this.writeBack(c.path, rec))
    const st = lstatOr(c.path)
    if (st !== undefined) this.stamp(c.path, rec, st)
  }

  /** Make `path` and everything recorded below it again. */
  private rebuild(path: string): void {
    const rec = this.recs.get(path)!
    mkdirSync(dirname(path), { recursive: true })
    if (rec.kind === 'dir') {
      mkdirSync(path, { mode: rec.mode })
      for (const name of this.children.get(path) ?? []) this.rebuild(join(path, name))
      chmodFolder(path, rec.mode)
    } else if (rec.kind === 'link') symlinkSync(rec.target!, path)
    // Recorded as the file written, never as what a process may have renamed over it since.
    else if (rec.kind === 'file') return this.stamp(path, rec, this.writeBack(path, rec))
    else return
    ownAs(path, rec)
    this.stamp(path, rec, lstatSync(path))
  }

  /**
   * A fresh file (a new inode: a hard link made to the old one no longer reaches it), its mode, owner and times
   * put back. The temporary file has a short name of its own, never the file's name with a suffix (that could pass
   * the 255 bytes a name may hold), shaped as the atomic writer's so that a left-over one is never taken for memory.
   * A call's process may rename a file of its own over the temporary name before it is renamed into place: what
   * then stands at the path is checked to be the file written here, else the put back failed (and is tried again).
   */
  private writeBack(path: string, rec: Rec): Stats {
    const buf = this.blobs.get(rec.hash!)!.buf
    const temp = join(dirname(path), `.guard.tmp-${process.pid}-${randomBytes(4).toString('hex')}`)
    const fd = openSync(temp, C.O_WRONLY | C.O_CREAT | C.O_EXCL | C.O_NOFOLLOW, rec.mode)
    try {
      writeAllSync(fd, buf, temp)
      // On the open file, not its name: the name is in a folder a call's process can write.
      fchmodSync(fd, rec.mode)
      const made = fstatSync(fd)
      if (!sameOwner(made, rec)) fchownSync(fd, rec.uid, rec.gid)
      futimesSync(fd, rec.atimeMs / 1000, rec.mtimeMs / 1000)
      fsyncSync(fd)
      rmSync(path, { recursive: true, force: true })
      renameSync(temp, path)
      const there = lstatSync(path)
      if (there.ino !== made.ino || there.dev !== made.dev) throw new Error(`${path} was swapped for another file while it was put back`)
      // The temporary file's name was in a folder a call's process can list and open: its bytes are checked again, not its stamp.
      this.rewrittenUnchanged.add(path)
      return there
    } finally {
      closeSync(fd)
    }
  }
}

/**
 * Whether `path` is one of `roots` or lies below one: a walk up its own folders, so a look that
 * changed thousands of paths asks once per record, not once per record per change.
 */
export function atOrUnderAny(path: string, roots: ReadonlySet<string>): boolean {
  for (let p = path; ;) {
    if (roots.has(p)) return true
    const cut = p.lastIndexOf(sep)
    if (cut <= 0) return false
    p = p.slice(0, cut)
  }
}
