import { watch, type FSWatcher } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { atOrUnderAny } from './shadow.ts'

/**
 * Which protected paths the kernel said changed since the last look, so a
 * look costs O(changes) and not O(files) (docs/decisions/010). One inotify
 * watch per folder (its entries coming and going) and one per file: a watch
 * on the file itself follows its inode, so a write through a hard link made
 * elsewhere, or the link itself (its count), is seen too. The parent of each
 * protected root is watched for that root's name only (moved away, removed,
 * replaced). When a watch cannot be made (the system's watch limit), the
 * guard looks at every file every time instead, and the doctor says so.
 */
export class Watches {
  private readonly watchers = new Map<string, FSWatcher>()
  private readonly rootParents = new Map<string, FSWatcher>()
  private dirty = new Set<string>()
  broken: string | undefined

  constructor(roots: readonly string[]) {
    for (const root of roots) {
      const parent = dirname(root)
      if (this.rootParents.has(parent)) continue
      const names = new Set(roots.filter((r) => dirname(r) === parent).map((r) => basename(r)))
      try {
        const w = watch(parent, { persistent: false }, (_e, name) => {
          if (name === null || names.has(String(name))) for (const n of names) this.dirty.add(join(parent, n))
        })
        w.on('error', () => this.fail(`the watch on ${parent} stopped`))
        this.rootParents.set(parent, w)
      } catch (error) {
        // No parent folder yet (a fresh DSH_HOME): the look at each root's own stamp covers it.
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.fail((error as Error).message)
      }
    }
  }

  /** What changed since the last call. */
  take(): Set<string> {
    const out = this.dirty
    this.dirty = new Set()
    return out
  }

  /**
   * Watch exactly `paths` at and below each of `under` (what the records hold there now). What changed
   * between the look that put them back and the new watches no watch saw: the folders there and the
   * paths of `under` are named for the next look (decision 332).
   */
  sync(under: ReadonlySet<string>, paths: Iterable<{ path: string; dir: boolean }>): void {
    if (under.size === 0) return
    for (const [p, w] of this.watchers) {
      if (atOrUnderAny(p, under)) {
        w.close()
        this.watchers.delete(p)
      }
    }
    for (const { path, dir } of paths) {
      this.add(path, dir)
      if (dir) this.dirty.add(path)
    }
    for (const path of under) this.dirty.add(path)
  }

  close(): void {
    for (const w of [...this.watchers.values(), ...this.rootParents.values()]) w.close()
    this.watchers.clear()
    this.rootParents.clear()
  }

  private add(path: string, dir: boolean): void {
    try {
      const w = watch(path, { persistent: false }, (_e, name) => {
        this.dirty.add(dir && name !== null ? join(path, String(name)) : path)
        // A name that is not UTF-8 arrives altered (U+FFFD) and names nothing: the folder is listed instead.
        if (dir && name !== null && String(name).includes('\uFFFD')) this.dirty.add(path)
      })
      w.on('error', () => {
        this.dirty.add(path)
        this.watchers.delete(path)
      })
      this.watchers.set(path, w)
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code
      // Gone since it was recorded: the next look finds out what happened there.
      if (code === 'ENOENT' || code === 'ENOTDIR') this.dirty.add(path)
      else this.fail(`a file watch could not be made (${(error as Error).message})`)
    }
  }

  private fail(why: string): void {
    this.broken ??= `${why}; every look compares every file`
  }
}
