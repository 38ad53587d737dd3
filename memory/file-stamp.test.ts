import { afterEach, beforeEach, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { fileStamp, fileStampSync, stampOf } from './file-stamp.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

it('one stamp for every cache: it changes with the size or the mtime, not otherwise; a missing file has none (issue 8)', async () => {
  const f = join(t.home, 'a.md')
  expect(await fileStamp(f)).toBeUndefined()
  expect(fileStampSync(f)).toBeUndefined()
  await fs.writeFile(f, 'one')
  const first = await fileStamp(f)
  expect(first).toBe(stampOf(await fs.stat(f)))
  expect(fileStampSync(f)).toBe(first)
  expect(await fileStamp(f)).toBe(first)
  const then = new Date('2026-01-01T00:00:00Z')
  await fs.utimes(f, then, then)
  const touched = await fileStamp(f)
  expect(touched).not.toBe(first)
  await fs.writeFile(f, 'two!')
  await fs.utimes(f, then, then)
  expect(await fileStamp(f)).not.toBe(touched)
})
