import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { isStoreFile, walkFiles } from './fsio.ts'
import { LAYOUT } from './paths.ts'
import { RefusedError, type Limits } from './validate.ts'

const USAGE_TTL_MS = 60_000

export interface Usage {
  total: number
  margin: number
}

/**
 * How many bytes the store and its 余页/ hold. Walking the root is the cost of a
 * quota check, so a measure is kept for a minute and moved by the store's own
 * writes; other writers are caught at the next measure.
 */
export class UsageMeter {
  private readonly root: string
  private usage: (Usage & { at: number }) | undefined

  constructor(root: string) {
    this.root = root
  }

  async measure(force: boolean): Promise<Usage> {
    const t = Date.now()
    if (!force && this.usage !== undefined && t - this.usage.at < USAGE_TTL_MS) return this.usage
    const total = await storeBytes(this.root)
    const margin = await storeBytes(this.root, LAYOUT.margin)
    this.usage = { total, margin, at: t }
    return this.usage
  }

  /** Refuses a write that would cross a quota, saying what to do. */
  async check(addBytes: number, intoMargin: boolean, limits: Limits): Promise<void> {
    const u = await this.measure(false)
    if (u.total + addBytes > limits.totalBytes) {
      throw new RefusedError(
        'quota',
        `the memory store is full (${mb(u.total)} of ${mb(limits.totalBytes)}). Nothing was written. Move old 余页/ writing elsewhere, or raise quota.totalMB in 元/settings.json.`,
        { variant: 'total', used: mb(u.total), limit: mb(limits.totalBytes) },
      )
    }
    if (intoMargin && u.margin + addBytes > limits.marginBytes) {
      throw new RefusedError(
        'quota',
        `余页/ is full (${mb(u.margin)} of ${mb(limits.marginBytes)}). Nothing was written. Move or delete old free writing in 余页/, or raise quota.marginMB in 元/settings.json.`,
        { variant: 'margin', used: mb(u.margin), limit: mb(limits.marginBytes) },
      )
    }
  }

  written(deltaBytes: number, intoMargin: boolean): void {
    if (this.usage === undefined) return
    this.usage.total += deltaBytes
    if (intoMargin) this.usage.margin += deltaBytes
  }
}

/**
 * The bytes of the store's own files under `rel`: what a snapshot copies. A lock's files are their holder's, and the
 * store guard leaves a lock-shaped name in 元/ to its holder: a tool call's process could leave a sparse one there
 * whose size alone (100 GiB, no disk used) refused every write as "the store is full" (decision 305).
 */
async function storeBytes(root: string, rel = ''): Promise<number> {
  let total = 0
  for (const f of (await walkFiles(root, rel)).filter(isStoreFile)) {
    try {
      total += (await fs.stat(join(root, f))).size
    } catch {
      /* removed meanwhile */
    }
  }
  return total
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}
