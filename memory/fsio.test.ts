import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { readForRewrite, readNoFollow, readNoFollowSync } from './fsio.ts'

let dir: string | undefined
afterEach(() => dir !== undefined && rmSync(dir, { recursive: true, force: true }))

it('a FIFO under a store file’s name is refused at once, never waited on (a call’s process can rename one in after a check)', async () => {
  dir = mkdtempSync(join(tmpdir(), 'cyrene-fsio-'))
  const fifo = join(dir, '2026-12-07.md')
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
  await expect(readNoFollow(fifo)).rejects.toMatchObject({ code: 'EINVAL' })
  expect(() => readNoFollowSync(fifo)).toThrow(/not a regular file/)
  await expect(readForRewrite(fifo, '2026-12-07.md')).rejects.toMatchObject({ code: 'EINVAL' })
  const plain = join(dir, 'plain.md')
  writeFileSync(plain, '正文\n')
  expect((await readNoFollow(plain)).toString()).toBe('正文\n')
  expect(readNoFollowSync(plain).toString()).toBe('正文\n')
})
