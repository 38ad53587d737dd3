import { promises as fs } from 'node:fs'
import { join, dirname, basename, relative, sep } from 'node:path'
import { appendEntriesText, type Entry, type EntryMeta, type ParseProblem } from './entry.ts'
import { FileCatalog, type CatalogFile } from './file-catalog.ts'
import { UsageMeter, type Usage } from './store-usage.ts'
import { gate } from './gate.ts'
import { newId } from './id.ts'
import { acquire, LockBusyError, LockLostError, type HeldLock, type LockOwner } from '../durable/lock.ts'
import { audit, auditLog } from './audit.ts'
import { engineStatus, releaseEngine } from './engine-lock.ts'
import { ensureDir, fsyncDir, inspectBelow, isTempName, linkRefusal, readUtf8Or, walkFiles, writeAtomic, readForRewrite } from './fsio.ts'
import {
  LAYOUT,
  LAYOUT_DIRS,
  dateOfEntryFile,
  dayFileRel,
  localDate,
  pendingFileRel,
  resolveRoot,
  snapshotsDirOf,
  safeJoin,
  isMetaPath,
  WRITE_LOCK,
  type RootOptions,
} from './paths.ts'
import { applySettingsPatch, parseSettingsText, readSettings, settingsTextForRewrite, type Settings, type SettingsChange } from './settings.ts'
import { recoverInterruptedRestore, recoverUnderLock } from './restore.ts'
import { journalPending, recoverGitSwitch } from './git-switch.ts'
import { buildMeta, RefusedError, type Limits, type NewEntry, type Writer, checkText, parseWhen, linksOf } from './validate.ts'
import { currentVolume } from './volumes.ts'
import type { Said } from './said.ts'
import { asHostWrite } from '../durable/host-writes.ts'
import { windowsClosed, windowsOpenElsewhere, type WindowMark } from '../durable/guard-window.ts'
import { readMarksSync, recordMarks, type MarksRead } from './person-marks.ts'
import { assertLinkTargets, updateEntry } from './entry-update.ts'
import type { StoreCore, StoredEntry } from './store-core.ts'

export interface OpenOptions extends RootOptions {
  /** Override quotas (tests); otherwise defaults ← 元/settings.json. */
  limits?: Partial<Limits>
  /** The loader row's settings layer (between the defaults and 元/settings.json). */
  settingsLayer?: Record<string, unknown>
  lockStaleMs?: number
  /** How long a write waits for a held write lock (tests); otherwise the setting `lock.waitSeconds`. */
  lockWaitMs?: number
  /**
   * Given (the command line): a write waits while another process's store guard has a tool call's window
   * open (decision 295), and this is told once when a write begins to wait. A DSH host's own store leaves
   * it out: its writes are its guard's own, and a mark a model forged must not stall its memory tools.
   */
  waitForGuardWindows?: (mark: WindowMark) => void
  now?: () => Date
  /**
   * `on-write`: lay the folders out at the first write, not at open (the command line: a read, or a
   * refusal, on a home without a store leaves it without one). Default `open`.
   */
  layOut?: 'open' | 'on-write'
}

export type { StoredEntry } from './store-core.ts'

export interface WriteResult {
  id: string
  gate: 'day' | 'pending'
  file: string
  reasons: string[]
  notes: string[]
  /** The notes as codes, for the person's language (decision 082); same order as `notes`. */
  saidNotes: Said[]
}

async function isFolder(path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).isDirectory()
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw e
  }
}

/** The store's folders and its snapshots' folder, 0700 (ensureDir), where they are missing. */
async function layOut(root: string): Promise<void> {
  await ensureDir(root)
  for (const d of LAYOUT_DIRS) await ensureDir(join(root, d))
  await ensureDir(snapshotsDirOf(root))
}

/** A sync still running in another process holds the lock: it finishes its own switch. */
function busyIsFine(error: unknown): void {
  if (!(error instanceof LockBusyError)) throw error
}

/**
 * The memory store: one root folder of markdown files. Every read-modify-write
 * runs under one cross-process lock (元/write.lock), and every file is replaced
 * atomically. Reads take no lock: they see either the old or the new file.
 */
export class MemoryStore implements StoreCore {
  readonly root: string
  readonly snapshotsDir: string
  settings: Settings
  readonly settingsProblems: string[]
  /** `settingsProblems` as codes, for the person's language (decision 082); same order. */
  readonly settingsSaid: Said[]
  private readonly settingsLayer: Record<string, unknown>
  private readonly limitsOverride: Partial<Limits> | undefined
  private recoveredSwitch: Awaited<ReturnType<typeof recoverGitSwitch>>
  readonly now: () => Date
  /** How long a lock holder on another host may go quiet (tests shorten it); the locks' default when undefined. */
  readonly lockStaleMs: number | undefined
  private readonly lockWaitMs: number | undefined
  private readonly waitForGuardWindows: ((mark: WindowMark) => void) | undefined
  private readonly catalog: FileCatalog
  private readonly usage: UsageMeter
  /** The folders are made (at open, or by this object's first write): a write need not look again. */
  private laidOut = false

  private constructor(root: string, settings: Settings, problems: { en: string[]; said: Said[] }, opts: OpenOptions) {
    this.root = root
    this.snapshotsDir = snapshotsDirOf(root)
    this.settings = settings
    this.settingsProblems = problems.en
    this.settingsSaid = problems.said
    this.settingsLayer = opts.settingsLayer ?? {}
    this.limitsOverride = opts.limits
    this.now = opts.now ?? (() => new Date())
    this.lockStaleMs = opts.lockStaleMs
    this.lockWaitMs = opts.lockWaitMs
    this.waitForGuardWindows = opts.waitForGuardWindows
    this.catalog = new FileCatalog(root, (rel) => this.path(rel))
    this.usage = new UsageMeter(root)
  }

  /** Opens (and lays out, 0700) the store. Takes no engine lock: see `openEngine` (engine.ts). */
  static async open(opts: OpenOptions = {}): Promise<MemoryStore> {
    const root = resolveRoot(opts)
    const laidOut = opts.layOut !== 'on-write'
    if (laidOut) await layOut(root)
    const { settings, problems, problemsSaid } = await readSettings(root, opts.settingsLayer)
    if (opts.limits !== undefined) settings.limits = { ...settings.limits, ...opts.limits }
    const store = new MemoryStore(root, settings, { en: problems, said: problemsSaid }, opts)
    store.laidOut = laidOut
    // No store there yet (opened for a read or a refusal): nothing was cut off, and nothing is made.
    if (opts.layOut === 'on-write' && !(await isFolder(root))) return store
    // A restore cut off by a crash is finished or undone before anyone reads the store.
    await recoverInterruptedRestore(store)
    if (await journalPending(store)) await store.withWriteLock(async () => undefined).catch(busyIsFine)
    return store
  }

  /** Re-reads the layered settings (after 元/settings.json changed); returns the problems, also kept for the doctor. */
  async reloadSettings(): Promise<string[]> {
    const { settings, problems, problemsSaid } = await readSettings(this.root, this.settingsLayer)
    if (this.limitsOverride !== undefined) settings.limits = { ...settings.limits, ...this.limitsOverride }
    this.settings = settings
    this.settingsProblems.splice(0, this.settingsProblems.length, ...problems)
    this.settingsSaid.splice(0, this.settingsSaid.length, ...problemsSaid)
    return problems
  }

  /**
   * Lays a patch over 元/settings.json under the write lock (panel, CLI) and
   * applies it to this store at once. A wrong value or a broken file refuses
   * the whole patch and writes nothing.
   */
  /** What `saveSettings` would change, and the values it would lead to; writes nothing. */
  async previewSettings(patch: unknown, opts: { from?: 'panel' | 'person' } = {}): Promise<SettingsChange & { values: Settings['values'] }> {
    const change = applySettingsPatch(await settingsTextForRewrite(this.root), patch, this.settingsLayer, opts)
    return { ...change, values: parseSettingsText(JSON.stringify(change.layer), this.settingsLayer).settings.values }
  }

  async saveSettings(patch: unknown, opts: { from?: 'panel' | 'person' } = {}): Promise<SettingsChange> {
    const change = await this.withWriteLock(async (lock) => {
      const change = applySettingsPatch(await settingsTextForRewrite(this.root), patch, this.settingsLayer, opts)
      if (change.changed.length > 0) await this.writeMetaJson('settings.json', change.layer, lock)
      return change
    })
    await this.reloadSettings()
    return change
  }

  get limits(): Limits {
    return this.settings.limits
  }

  path(rel: string): string {
    return safeJoin(this.root, rel)
  }

  // ── locking ────────────────────────────────────────────────────────────

  async withWriteLock<T>(fn: (lock: HeldLock) => Promise<T>): Promise<T> {
    // The store guard waits for a write of this process to end before it compares the disk (durable/host-writes.ts).
    return await asHostWrite(async () => await this.withWriteLockUnmarked(fn))
  }

  private async withWriteLockUnmarked<T>(fn: (lock: HeldLock) => Promise<T>): Promise<T> {
    // Opened with `layOut: 'on-write'`: the first write makes the folders; later writes find them made.
    if (!this.laidOut) {
      await layOut(this.root)
      this.laidOut = true
    }
    // The lock is made where 元/ is: never through a link to somewhere else (every write below refuses one too).
    const at = await inspectBelow(this.root, join(this.root, LAYOUT.meta, WRITE_LOCK))
    if (at.kind === 'link') throw linkRefusal(at.rel)
    const lock = await this.acquireOutsideWindows()
    try {
      // A process that opened the store before a restore was killed must not write into the half-switched store.
      await recoverUnderLock(this, lock)
      // Likewise a git sync killed while it switched the files (one stat when there is none); the next sync reports it.
      const recovered = await recoverGitSwitch(this, lock)
      if (recovered !== undefined) this.recoveredSwitch = recovered
      return await fn(lock)
    } finally {
      await lock.release()
    }
  }

  /**
   * The write lock, taken when no other process's store guard has a tool call's window open (decision 295):
   * what changed in the store meanwhile would be put back, this write too. Waits for one as it waits for
   * the lock, then refuses having changed nothing.
   */
  private async acquireOutsideWindows(): Promise<HeldLock> {
    const waitMs = this.lockWaitMs ?? this.settings.values.lock.waitSeconds * 1000
    const began = Date.now()
    const tell = this.waitForGuardWindows
    let told = false
    const waiting = (mark: WindowMark): void => {
      if (!told) tell?.(mark)
      told = true
    }
    for (;;) {
      const lock = refusingWhenLost(
        await acquire({
          path: join(this.root, LAYOUT.meta, WRITE_LOCK),
          purpose: 'write',
          staleMs: this.lockStaleMs,
          waitMs: Math.max(0, waitMs - (Date.now() - began)),
        }),
      )
      // Read after the lock is held: a guard marks before it looks whether the lock is held (guard/effects.ts), so one of the two sees the other.
      if (tell === undefined || windowsOpenElsewhere(join(this.root, LAYOUT.meta)).length === 0) return lock
      await lock.release()
      await windowsClosed(join(this.root, LAYOUT.meta), { began, waitMs, waiting })
    }
  }

  /**
   * Replace a file atomically. Right before the rename the lock's ownership is
   * read from the disk (synchronously): if another process holds it by then,
   * the write is refused with 'lock-lost' and the file stays as it was. A
   * symbolic link anywhere below the root is refused, never followed.
   */
  /** What the last lock's recovery of a git switch did, once (the sync's report takes it). */
  takeRecoveredSwitch(): Awaited<ReturnType<typeof recoverGitSwitch>> {
    const r = this.recoveredSwitch
    this.recoveredSwitch = undefined
    return r
  }

  async replaceFile(rel: string, text: string | Buffer, lock: HeldLock, unchanged?: () => void): Promise<void> {
    const full = this.path(rel)
    await writeAtomic(full, text, {
      root: this.root,
      beforeRename: () => {
        lock.assertOwned()
        unchanged?.()
      },
    })
    await this.removeTempsBeside(full)
  }

  /**
   * Current text of a file about to be rewritten; refuses non-UTF-8 files (a
   * rewrite would change their bytes) and links below the root (never read through).
   */
  async readForRewrite(rel: string): Promise<string> {
    try {
      return await readForRewrite(this.path(rel), rel, this.root)
    } catch (e) {
      if ((e as Error).name === 'NotUtf8') throw new RefusedError('not-utf8', (e as Error).message, { file: rel })
      throw e
    }
  }

  /** Leftovers of writers killed mid-write. Only called under the write lock, when no writer is mid-write. */
  private async removeTempsBeside(full: string): Promise<void> {
    const dir = dirname(full)
    const base = basename(full)
    let names: string[] = []
    try {
      names = await fs.readdir(dir)
    } catch {
      return
    }
    for (const n of names) if (n.startsWith(`${base}.`) && isTempName(n)) await fs.unlink(join(dir, n)).catch(() => undefined)
  }

  /** Lets go of the engine lock, if this store holds it (engine-lock.ts). */
  async close(): Promise<void> {
    await releaseEngine(this)
  }

  /** Who holds the engine lock (engine-lock.ts). */
  async engineStatus(): Promise<{ held: boolean; owner?: LockOwner | undefined; alive?: boolean; mine: boolean }> {
    return await engineStatus(this)
  }

  // ── reading ────────────────────────────────────────────────────────────

  /** Day and pending files (relative paths), sorted (= by date). */
  async entryFiles(): Promise<string[]> {
    const days = (await walkFiles(this.root, LAYOUT.days)).filter((f) => dateOfEntryFile(f)?.area === 'day')
    const pend = (await walkFiles(this.root, LAYOUT.pending)).filter((f) => dateOfEntryFile(f)?.area === 'pending')
    return [...days.sort(), ...pend.sort()]
  }

  /**
   * The entries of one file, from a cache checked by its stamp (file-catalog.ts). The cache
   * keeps only the parsed entries (not the file's bytes): rewrites always read
   * the file again.
   */
  async catalogFile(rel: string): Promise<CatalogFile> {
    return this.catalog.of(rel, false)
  }

  /** Every entry in day and pending files, oldest file first, plus what could not be read. */
  async scan(onFile?: (done: number, total: number) => void): Promise<{ entries: StoredEntry[]; problems: ParseProblem[]; files: CatalogFile[] }> {
    const rels = await this.entryFiles()
    const entries: StoredEntry[] = []
    const problems: ParseProblem[] = []
    const files: CatalogFile[] = []
    let done = 0
    for (const rel of rels) {
      const area = dateOfEntryFile(rel)!.area
      const cat = await this.catalog.of(rel, true)
      files.push(cat)
      problems.push(...cat.problems)
      for (const { entry, line } of cat.entries) entries.push({ ...entry, id: entry.meta.id, file: rel, line, area })
      onFile?.(++done, rels.length)
    }
    return { entries, problems, files }
  }

  async get(id: string): Promise<StoredEntry | undefined> {
    if (typeof id !== 'string' || id === '') return undefined
    // Fast path: an id minted here carries its write time, and most entries are
    // about the day they were written, so look in that day's files first.
    const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z-/.exec(id)
    if (m !== null) {
      const minted = new Date(Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +m[4]!, +m[5]!, +m[6]!, +m[7]!))
      if (!Number.isNaN(minted.getTime())) {
        const date = localDate(minted)
        try {
          for (const area of ['day', 'pending'] as const) {
            const hit = (await this.entriesOfDate(date, area)).find((e) => e.id === id)
            if (hit !== undefined) return hit
          }
        } catch {
          /* out of range: fall back to the full read */
        }
      }
    }
    const { entries } = await this.scan()
    return entries.find((e) => e.id === id)
  }

  async entriesOfDate(date: string, area: 'day' | 'pending' = 'day'): Promise<StoredEntry[]> {
    const rel = area === 'day' ? dayFileRel(date) : pendingFileRel(date)
    const cat = await this.catalogFile(rel)
    return cat.entries.map(({ entry, line }) => ({ ...entry, id: entry.meta.id, file: rel, line, area }))
  }

  // ── quotas ─────────────────────────────────────────────────────────────

  async measureUsage(force = false): Promise<Usage> {
    return await this.usage.measure(force)
  }

  /** Refuses a write that would cross a quota, saying what to do. */
  async checkQuota(addBytes: number, intoMargin: boolean): Promise<void> {
    await this.usage.check(addBytes, intoMargin, this.limits)
  }

  // ── writing ────────────────────────────────────────────────────────────

  /**
   * Write one new memory. The gate decides day file or 余页/待定/; refusals
   * (size, characters, `base` by the model, quota) throw RefusedError and
   * write nothing. Returns once the file is durably on disk.
   */
  async write(input: NewEntry, ctx: { by: Writer }): Promise<WriteResult> {
    const { text, meta, notes, saidNotes } = buildMeta(input, ctx.by, this.limits)
    await assertLinkTargets(this, linksOf(meta.links))
    const written = this.now()
    const at = input.at !== undefined ? parseWhen(input.at) : written
    const full: EntryMeta = { id: newId(written), ...meta, at: at.toISOString(), by: ctx.by }
    const vol = await currentVolume(this)
    if (vol !== undefined) full.vol = vol
    const verdict = gate({ text, meta: full })
    full.gate = verdict.gate
    if (verdict.gate === 'pending') full.pending_reasons = verdict.reasons
    const date = localDate(at)
    const rel = verdict.gate === 'day' ? dayFileRel(date) : pendingFileRel(date)
    const entry: Entry = { text, meta: full }
    // The person's write is recorded in 元/person-marks.json under the same lock, before the entry lands.
    await this.appendEntries(rel, [entry], ctx.by === 'person' ? [entry] : [])
    return { id: full.id, gate: verdict.gate, file: rel, reasons: verdict.reasons, notes, saidNotes }
  }

  /**
   * Appends ready-made entries to one file under the write lock (write, import, promote). `stillNew`, when given, is asked under the
   * lock with the file as it is then and keeps only the entries it returns (an import drops what
   * another import appended since it looked). Returns the entries appended.
   */
  async appendEntries(rel: string, entries: Entry[], personMarks: readonly Entry[] = [], stillNew?: (current: string) => Entry[]): Promise<Entry[]> {
    const intoMargin = rel.startsWith(`${LAYOUT.margin}/`)
    return await this.withWriteLock(async (lock) => {
      const current = await this.readForRewrite(rel)
      const fresh = stillNew === undefined ? entries : stillNew(current)
      if (fresh.length === 0) return fresh
      const next = appendEntriesText(current, fresh)
      const delta = Buffer.byteLength(next) - Buffer.byteLength(current)
      await this.checkQuota(delta, intoMargin)
      // Marked first: a mark without its entry names nothing; an entry without its mark would read as the model's.
      if (personMarks.length > 0) await recordMarks(this, lock, personMarks)
      try {
        await this.replaceFile(rel, next, lock)
      } catch (error) {
        // Refused, not killed (a permission, a full disk): the marks of entries that did not land go again, best effort.
        if (personMarks.length > 0)
          await recordMarks(
            this,
            lock,
            [],
            personMarks.map((e) => e.meta.id),
          ).catch(() => undefined)
        throw error
      }
      this.usage.written(delta, intoMargin)
      return fresh
    })
  }

  /**
   * Change an existing day entry. Pending entries are read-only (they are
   * only ever promoted into a new day entry). `base` entries: person only.
   */
  async update(id: string, patch: Partial<NewEntry>, ctx: { by: Writer }): Promise<StoredEntry> {
    return await updateEntry(this, id, patch, ctx.by)
  }

  /**
   * Free writing in 余页/ (never gated, never injected, only counted against the
   * quota). Not in 余页/待定/, which belongs to the gate.
   */
  async writeMargin(rel: string, text: string, ctx: { by: Writer; mode?: 'append' | 'replace' }): Promise<string> {
    // Judged by where it lands, not by how it is spelled: ./待定/x.md is 余页/待定/x.md.
    const p = relative(this.root, this.path(`${LAYOUT.margin}/${rel}`))
      .split(sep)
      .join('/')
    if (!p.startsWith(`${LAYOUT.margin}/`) || p.startsWith(`${LAYOUT.pending}/`) || !p.endsWith('.md'))
      throw new RefusedError('bad-path', '余页 free writing goes into a .md file outside 余页/待定/', { variant: 'margin' })
    if (typeof text !== 'string') throw new RefusedError('bad-input', 'text must be a string', { variant: 'text-type' })
    // Free writing has no per-entry size limit (only the 余页 quota), but the same character rules.
    checkText(text, { ...this.limits, entryChars: Number.POSITIVE_INFINITY }, { en: '余页 text', said: { code: 'part.margin-text' } })
    await this.withWriteLock(async (lock) => {
      const current = await this.readForRewrite(p)
      const next = ctx.mode === 'replace' ? text : current === '' ? text : `${current.replace(/\n*$/, '\n\n')}${text}`
      const delta = Buffer.byteLength(next) - Buffer.byteLength(current)
      await this.checkQuota(delta, true)
      await this.replaceFile(p, next.endsWith('\n') ? next : `${next}\n`, lock)
      this.usage.written(delta, true)
    })
    await audit(this, { op: 'margin', file: p, by: ctx.by })
    return p
  }

  /** The person-marks record (CONTRACT#person-marks): who really wrote an entry, read fresh when the file changed. */
  marks(): MarksRead {
    return readMarksSync(this.root)
  }

  /** Any write into 元/ by the model is refused here, whatever the caller. */
  assertWritable(rel: string, by: Writer): void {
    if (by !== 'person' && isMetaPath(rel))
      throw new RefusedError('person-only', "元/ holds the store's own records and settings; only the person may change them", { variant: 'meta' })
  }

  // ── small records in 元/ ──────────────────────────────────────────────

  /** Read a JSON file in 元/; invalid JSON is reported, never overwritten silently. */
  async readMetaJson<T>(name: string, fallback: T, opts: { forRewrite?: boolean } = {}): Promise<{ value: T; problem?: string; problemSaid?: Said }> {
    const { text, valid } = await readUtf8Or(this.root, join(this.root, LAYOUT.meta, name), '')
    // Read to be written back: bytes that are not UTF-8 would come back as replacement characters.
    if (!valid && opts.forRewrite === true)
      return {
        value: fallback,
        problem: `元/${name} is not valid UTF-8 (edited with another encoding?)`,
        problemSaid: { code: 'part.meta-not-utf8', params: { file: `元/${name}` } },
      }
    if (text.trim() === '') return { value: fallback }
    try {
      return { value: JSON.parse(text) as T }
    } catch (e) {
      const error = (e as Error).message
      return {
        value: fallback,
        problem: `元/${name} is not valid JSON (${error})`,
        problemSaid: { code: 'part.meta-json', params: { file: `元/${name}`, error } },
      }
    }
  }

  /** Write a JSON record in 元/ (caller holds the write lock). Person or engine only. */
  async writeMetaJson(name: string, value: unknown, lock: HeldLock): Promise<void> {
    await this.replaceFile(`${LAYOUT.meta}/${name}`, `${JSON.stringify(value, null, 2)}\n`, lock)
  }

  /** The next write of a broken record must not replace the only copy of what the person may want back. */
  async keepMetaAside(name: string, lock: HeldLock): Promise<string> {
    lock.assertOwned()
    const aside = `${name}.corrupt-${this.now().toISOString().replace(/[:.]/g, '')}`
    const meta = join(this.root, LAYOUT.meta)
    await fs.rename(join(meta, name), join(meta, aside))
    await fsyncDir(meta)
    return aside
  }

  /** Audit records, oldest first (audit.ts; `fromMonth` YYYY-MM skips older month files). */
  async auditLog(fromMonth = ''): Promise<Array<Record<string, unknown>>> {
    return await auditLog(this, fromMonth)
  }

  async fsyncRoot(): Promise<void> {
    await fsyncDir(this.root)
  }
}

/**
 * The write lock as the store's callers see it: losing it is one more refusal
 * of the store (RefusedError 'lock-lost', same message), so the command line
 * and the host treat it like every other refusal.
 */
function refusingWhenLost(held: HeldLock): HeldLock {
  return {
    release: held.release,
    compromised: held.compromised,
    assertOwned: () => {
      try {
        held.assertOwned()
      } catch (e) {
        throw e instanceof LockLostError ? new RefusedError(e.code, e.message, e.path === undefined ? {} : { lock: e.path }) : e
      }
    },
  }
}
