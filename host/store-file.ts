import { join } from 'node:path'
import { fileStampSync } from '../memory/files.ts'
import { insideReader } from '../memory/index.ts'

/**
 * One small store file read synchronously while DSH assembles a step (DSH reads
 * prompt variables and contexts synchronously), re-read only when its stamp
 * changed: a file a person edits by hand or through the CLI is in the next
 * request. Missing, unreadable or reached through a link = ''.
 */
export class StoreFile {
  private readonly root: string
  private readonly path: string
  private stamp: string | undefined = '(unread)'
  private text = ''

  constructor(root: string, rel: string) {
    this.root = root
    this.path = join(root, rel)
  }

  read(): string {
    const stamp = fileStampSync(this.path)
    if (stamp === this.stamp) return this.text
    this.text = stamp === undefined ? '' : insideReader(this.root)(this.path)
    this.stamp = stamp
    return this.text
  }
}

/**
 * The small store files the rails read at assembly (元/settings.json, 元/forms.md, 元/styles.md),
 * one `StoreFile` each under the store root the engine knows. The root is asked for at each read:
 * it is known once the engine started, or found held by another process (whose files are still
 * the person's to read).
 */
export class StoreTexts {
  private readonly files = new Map<string, StoreFile>()
  private readonly rootNow: () => string | undefined
  private filesRoot: string | undefined

  constructor(rootNow: () => string | undefined) {
    this.rootNow = rootNow
  }

  /** A small store file's text now ('' when missing), or undefined when no store root is known or the file cannot be read. */
  read(rel: string): string | undefined {
    const root = this.rootNow()
    if (root === undefined || root === '') return undefined
    if (root !== this.filesRoot) {
      this.files.clear()
      this.filesRoot = root
    }
    let file = this.files.get(rel)
    if (file === undefined) {
      file = new StoreFile(root, rel)
      this.files.set(rel, file)
    }
    try {
      return file.read()
    } catch {
      return undefined
    }
  }
}
