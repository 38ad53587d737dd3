import { lstatSync, readdirSync, statSync, watch, type FSWatcher } from 'node:fs'
import { isAbsolute, join, relative, sep } from 'node:path'
import { setImmediate as nextTurn } from 'node:timers/promises'
import { LAYOUT } from '../memory/paths.ts'
import { recallFileOf } from './sources.ts'

/** What changed since the last look: the files named, or "look at everything" (`all`). */
export interface Changes {
  all: boolean
  rels: string[]
  /** Why everything must be looked at, when it must (for the doctor). */
  why?: string
}

/** Year and month folders under the recall folders (日档/YYYY/MM, 梦境/YYYY/MM, 月响/YYYY): never deeper. */
const FOLDER_DEPTH = 2
const RECALL_FOLDERS = [LAYOUT.anchors, LAYOUT.days, LAYOUT.pending, LAYOUT.dreams, LAYOUT.months, LAYOUT.years]

interface Watched {
  watcher: FSWatcher
  /** The folder's inode when its watch was set: a folder removed and made again is a new one to watch. */
  ino: number
  depthLeft: number
}

/**
 * Which recall files changed, so the per-step refresh costs O(changes) and not
 * O(day files) (CONTRACT#never-stall). One `fs.watch` per recall folder and per
 * year/month folder under it.
 *
 * A folder is watched first and listed after (decision 106): whatever is
 * written into it after the watch is reported, whatever came before is covered
 * by the full look its appearance asks for. A watcher that lists first and
 * watches after (chokidar does) misses a month folder made just after its
 * year folder — the first write of a store or a year — and every later write
 * in it.
 *
 * It says "look at everything" — the full stamp sweep, always correct —
 * whenever it cannot vouch for the list: after a watch error (no more inotify
 * watches), when a folder appears or goes, while a recall folder is missing,
 * and when the root or the day folder is not the one it watched (a restore
 * that switches folders by rename).
 */
export class RecallWatch {
  private readonly root: string
  private readonly watched = new Map<string, Watched>()
  private broken: string | undefined
  private sweep = true
  private missing = false
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
    this.sweep = true
    this.missing = false
    for (const folder of RECALL_FOLDERS) if (!this.watchFolder(join(this.root, folder), FOLDER_DEPTH)) this.missing = true
  }

  /** Watch `dir`, then its subfolders: false when it is not a folder (gone, a link, a file). */
  private watchFolder(dir: string, depthLeft: number): boolean {
    const ino = inoOf(dir)
    if (ino === undefined) return false
    const kept = this.watched.get(dir)
    if (kept !== undefined && kept.ino === ino) return true
    if (kept !== undefined) this.unwatch(dir)
    try {
      // Not persistent: a watcher never keeps DSH (or a worker) alive.
      const watcher = watch(dir, { persistent: false }, (_event, name) => this.noted(dir, depthLeft, name))
      watcher.on('error', (error) => this.failed(dir, error))
      this.watched.set(dir, { watcher, ino, depthLeft })
    } catch (error) {
      this.broken = `file watching could not start (${(error as Error).message}); every step looks at every file instead`
      return true
    }
    if (depthLeft > 0) {
      try {
        for (const d of readdirSync(dir, { withFileTypes: true })) if (d.isDirectory()) this.watchFolder(join(dir, d.name), depthLeft - 1)
      } catch {
        // Gone again meanwhile: its parent's watch reports it, and the full look covers it.
        this.sweep = true
      }
    }
    return true
  }

  private unwatch(dir: string): void {
    const prefix = dir + sep
    for (const [path, w] of this.watched) {
      if (path !== dir && !path.startsWith(prefix)) continue
      w.watcher.close()
      this.watched.delete(path)
    }
  }

  private failed(dir: string, error: Error): void {
    this.unwatch(dir)
    // A folder that went away ends its own watch; the folder's parent reports it as well.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'EPERM') this.sweep = true
    else this.broken = `file watching failed (${error.message}); every step looks at every file instead`
  }

  /** What a folder's watch reported: a recall file by name, or a folder that came, went or was made again. */
  private noted(dir: string, depthLeft: number, name: string | Buffer | null): void {
    const own = this.watched.get(dir)
    if (own === undefined) return
    if (inoOf(dir) !== own.ino) {
      // The watched folder itself went or was replaced (the kernel names it by its own name then).
      this.unwatch(dir)
      this.sweep = true
      if (depthLeft === FOLDER_DEPTH) this.missing = true
      return
    }
    if (name === null || name === '') {
      this.sweep = true
      return
    }
    const path = join(dir, String(name))
    const rel = this.relOf(path)
    if (rel === undefined) return
    if (recallFileOf(rel) !== undefined) {
      this.pending.add(rel)
      return
    }
    if (depthLeft === 0) return
    // A folder watched already and still the same one: nothing came or went.
    const kept = this.watched.get(path)
    if (kept !== undefined && kept.ino === inoOf(path)) return
    if (kept !== undefined) this.unwatch(path)
    // Temp files of atomic writes and other files are not folders: watchFolder's one lstat tells.
    if (this.watchFolder(path, depthLeft - 1) || kept !== undefined) this.sweep = true
  }

  /** Why the watcher cannot be trusted, when it cannot (the doctor shows it). */
  get problem(): string | undefined {
    return this.broken
  }

  private relOf(path: string): string | undefined {
    const rel = relative(this.root, path)
    if (rel === '' || rel.startsWith('..') || isAbsolute(rel)) return undefined
    return rel.split(sep).join('/')
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
      this.unwatchAll()
      this.broken = undefined
      this.start()
    } else if (this.missing) {
      // Look again for the recall folders that were missing; those watched already are left as they are.
      this.start()
    }
    const rels = [...this.pending]
    this.pending = new Set()
    if (this.broken !== undefined) return { all: true, rels, why: this.broken }
    if (this.missing) return { all: true, rels, why: 'a recall folder is missing' }
    if (this.sweep) {
      // Every folder there now is watched: from here on every change is in `pending`.
      this.sweep = false
      return { all: true, rels, why: 'a folder appeared or went' }
    }
    return { all: false, rels }
  }

  private unwatchAll(): void {
    for (const w of this.watched.values()) w.watcher.close()
    this.watched.clear()
  }

  async close(): Promise<void> {
    this.unwatchAll()
  }
}

/** A real folder's inode; undefined for anything else (gone, a link, a file). */
function inoOf(path: string): number | undefined {
  try {
    const st = lstatSync(path)
    return st.isDirectory() ? st.ino : undefined
  } catch {
    return undefined
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
