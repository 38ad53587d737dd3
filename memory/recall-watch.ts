import { statSync } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { watch, type FSWatcher } from 'chokidar'
import { LAYOUT } from './paths.ts'
import { recallFileOf } from './recall-sources.ts'

/** What changed since the last look: the files named, or "look at everything" (`all`). */
export interface Changes {
  all: boolean
  rels: string[]
  /** Why everything must be looked at, when it must (for the doctor). */
  why?: string
}

/**
 * Which recall files changed, so the per-step refresh costs O(changes) and not
 * O(day files) (CONTRACT#never-stall). It watches the store's
 * recall folders with chokidar and collects the paths its raw events name
 * (raw events arrive the moment the kernel reports them; chokidar's own
 * add/change/unlink come after a stat and are collected too).
 *
 * It says "look at everything" — the old full stamp sweep, always correct —
 * whenever it cannot vouch for the list: before the watcher is ready, after a
 * watcher error (no more inotify watches, a folder that vanished), when a
 * folder appears or goes (its files may have been written before it was
 * watched), and when the root or the day folder is not the one it watched
 * (a restore switches folders by rename; watches follow the old ones).
 */
export class RecallWatch {
  private readonly root: string
  private watcher: FSWatcher | undefined
  private ready = false
  private broken: string | undefined
  private sweep = true
  private pending = new Set<string>()
  private identity: string

  private constructor(root: string) {
    this.root = root
    this.identity = identityOf(root)
    this.start()
  }

  static start(root: string): RecallWatch {
    return new RecallWatch(root)
  }

  private start(): void {
    this.ready = false
    this.sweep = true
    const dirs = [LAYOUT.anchors, LAYOUT.days, LAYOUT.pending, LAYOUT.dreams, LAYOUT.months, LAYOUT.years].map((d) => join(this.root, d))
    try {
      // Not persistent: a watcher never keeps DSH (or a worker) alive.
      const w = watch(dirs, { ignoreInitial: true, persistent: false, followSymlinks: false, depth: 3 })
      this.watcher = w
      w.on('ready', () => {
        this.ready = true
      })
      w.on('error', (error) => {
        this.broken = `file watching failed (${(error as Error).message}); every step looks at every file instead`
      })
      w.on('raw', (_event, name, details) => this.noteRaw(name, (details as { watchedPath?: string }).watchedPath))
      for (const ev of ['add', 'change', 'unlink'] as const) w.on(ev, (path: string) => this.note(path))
      for (const ev of ['addDir', 'unlinkDir'] as const) w.on(ev, () => (this.sweep = true))
    } catch (error) {
      this.broken = `file watching could not start (${(error as Error).message}); every step looks at every file instead`
    }
  }

  /** Why the watcher cannot be trusted, when it cannot (the doctor shows it). */
  get problem(): string | undefined {
    return this.broken
  }

  private noteRaw(name: string | null, watched: string | undefined): void {
    if (watched === undefined) {
      this.sweep = true
      return
    }
    // A file's own watcher names the file itself; a folder's names an entry in it.
    const rel = this.relOf(watched)
    if (rel !== undefined && recallFileOf(rel) !== undefined) this.pending.add(rel)
    else if (name === null || name === '') this.sweep = true
    else this.note(join(watched, name))
  }

  private relOf(path: string): string | undefined {
    const rel = relative(this.root, path)
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined
    return rel.split(sep).join('/')
  }

  private note(path: string): void {
    const rel = this.relOf(path)
    if (rel === undefined) return
    if (recallFileOf(rel) !== undefined) this.pending.add(rel)
    // A new year or month folder (YYYY, MM): its files may predate the watch on it. Temp files of writes are not.
    else if (/^\d{2}(\d{2})?$/.test(rel.split('/').at(-1)!)) this.sweep = true
  }

  /**
   * What changed since the last call. Lets one turn of the event loop pass
   * first, so what the kernel already reported (a write finished before the
   * message was sent) is in the list.
   */
  async take(): Promise<Changes> {
    await nextTurn()
    const identity = identityOf(this.root)
    if (identity !== this.identity) {
      // The folders were switched (a restore): watch the new ones.
      this.identity = identity
      await this.watcher?.close().catch(() => undefined)
      this.broken = undefined
      this.start()
    }
    const rels = [...this.pending]
    this.pending = new Set()
    if (this.broken !== undefined) return { all: true, rels, why: this.broken }
    if (!this.ready || this.sweep) {
      // Cleared only once the watcher is ready: from then on every change is in `pending`.
      if (this.ready) this.sweep = false
      return { all: true, rels, why: this.ready ? 'a folder appeared or went' : 'the watcher is starting' }
    }
    return { all: false, rels }
  }

  async close(): Promise<void> {
    await this.watcher?.close().catch(() => undefined)
    this.watcher = undefined
  }
}

/** The root's and the day folder's inodes: they change when a restore switches the folders. */
function identityOf(root: string): string {
  try {
    return `${statSync(root).ino}:${statSync(join(root, LAYOUT.days)).ino}`
  } catch {
    return 'missing'
  }
}
