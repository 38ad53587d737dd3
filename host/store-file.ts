import { join } from 'node:path'
import { fileStampSync, insideReader } from '../memory/index.ts'

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
