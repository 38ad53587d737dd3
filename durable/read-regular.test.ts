import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { readRecordSync } from './lock-owner.ts'
import { readRegularFileSync } from './read-regular.ts'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cyrene-read-regular-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

it('reads a regular file; refuses a FIFO at once, a link, and a file past the bound unread', () => {
  writeFileSync(join(dir, 'a'), 'bytes')
  expect(readRegularFileSync(join(dir, 'a')).toString()).toBe('bytes')
  execFileSync('mkfifo', [join(dir, 'fifo')])
  expect(() => readRegularFileSync(join(dir, 'fifo'))).toThrow(expect.objectContaining({ code: 'EINVAL' }))
  symlinkSync(join(dir, 'a'), join(dir, 'link'))
  expect(() => readRegularFileSync(join(dir, 'link'))).toThrow(expect.objectContaining({ code: 'ELOOP' }))
  expect(readRegularFileSync(join(dir, 'link'), true).toString()).toBe('bytes')
  expect(() => readRegularFileSync(join(dir, 'a'), false, 4)).toThrow(expect.objectContaining({ code: 'EFBIG' }))
  expect(readRegularFileSync(join(dir, 'a'), false, 5).toString()).toBe('bytes')
})

it('a lock record larger than a record can be is not read', () => {
  writeFileSync(join(dir, 'owner'), '{"pid":1}')
  expect(readRecordSync(join(dir, 'owner'))).toBe('{"pid":1}')
  writeFileSync(join(dir, 'big'), Buffer.alloc(64 * 1024 + 1, 0x20))
  expect(() => readRecordSync(join(dir, 'big'))).toThrow(/larger than/)
  execFileSync('mkfifo', [join(dir, 'fifo')])
  expect(() => readRecordSync(join(dir, 'fifo'))).toThrow(/not a regular file/)
})
