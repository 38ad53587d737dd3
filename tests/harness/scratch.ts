import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { onTestFinished } from 'vitest'

const CACHE = fileURLToPath(new URL('../../.cache/', import.meta.url))

/** A fresh folder under .cache/ for the running test, removed when it finishes. */
export function scratchDir(prefix: string): string {
  mkdirSync(CACHE, { recursive: true })
  const dir = mkdtempSync(join(CACHE, `${prefix}-`))
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }))
  return dir
}
