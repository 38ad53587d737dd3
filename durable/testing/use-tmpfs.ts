import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { mountTmpfs } from './tmpfs.ts'

/**
 * A real small tmpfs for the tests of the calling `describe` (or file): mounted
 * before them, emptied after each, unmounted after all. A failed mount fails
 * the tests — they are never skipped. `dir` is read inside the tests.
 */
export function useTmpfs(size: string): { readonly dir: string } {
  let mounted: ReturnType<typeof mountTmpfs> | undefined
  beforeAll(() => {
    mounted = mountTmpfs(size)
  })
  afterAll(() => {
    mounted?.unmount()
  })
  afterEach(async () => {
    if (mounted === undefined) return
    for (const n of await fs.readdir(mounted.dir)) await fs.rm(join(mounted.dir, n), { recursive: true, force: true })
  })
  return {
    get dir(): string {
      if (mounted === undefined) throw new Error('the tmpfs is mounted in beforeAll: read dir inside a test')
      return mounted.dir
    },
  }
}
