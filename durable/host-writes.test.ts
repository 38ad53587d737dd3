import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { atomicWrite } from './atomic-write.ts'
import { declareHostWrite, keepBytesFrom, openCallWindow, takeHostWrites, vouchedBytes, vouchedFilesUnder } from './host-writes.ts'

const dirs: string[] = []
afterEach(() => {
  takeHostWrites()
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

it('a whole-file replace is declared with its bytes, the latest two; a path declared without bytes vouches for any', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-host-writes-'))
  dirs.push(dir)
  await atomicWrite(join(dir, 'a'), 'zero')
  await atomicWrite(join(dir, 'a'), 'one')
  await atomicWrite(join(dir, 'a'), 'two')
  declareHostWrite(join(dir, 'b'), Buffer.from('x'))
  declareHostWrite(join(dir, 'b'))
  const taken = takeHostWrites()
  expect(taken.paths).toEqual(new Set([join(dir, 'a'), join(dir, 'b')]))
  expect([...taken.contents.keys()]).toEqual([join(dir, 'a')])
  expect(taken.contents.get(join(dir, 'a'))!.map((b) => Buffer.from(b).toString())).toEqual(['one', 'two'])
})

it('a replace that fails before its rename takes its bytes back', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-host-writes-'))
  dirs.push(dir)
  // No such folder: the temp file cannot be made, the rename never happens.
  await expect(atomicWrite(join(dir, 'none', 'a'), 'lost')).rejects.toThrow()
  expect(takeHostWrites().contents.get(join(dir, 'none', 'a')) ?? []).toEqual([])
})

it('a replace that fails after one that landed leaves the one that landed as what a rewrite starts from', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-host-writes-'))
  dirs.push(dir)
  const file = join(dir, 'a')
  await atomicWrite(file, 'landed')
  const failing = () => Promise.reject(Object.assign(new Error('injected'), { code: 'EIO' }))
  await expect(atomicWrite(file, 'failed', { open: failing })).rejects.toThrow()
  const stop = keepBytesFrom(() => Buffer.from('the guard copy from before both'))
  const close = openCallWindow()
  try {
    expect(Buffer.from(vouchedBytes(file)!).toString()).toBe('landed')
  } finally {
    close()
    stop()
  }
})

it('only while a window is open does a rewrite start from what the guard keeps; the host’s own latest write of the path comes first', () => {
  const stop = keepBytesFrom((path) => (path.endsWith('kept') ? Buffer.from('kept bytes') : null))
  try {
    expect(vouchedBytes('/s/kept')).toBeUndefined()
    const close = openCallWindow()
    try {
      expect(Buffer.from(vouchedBytes('/s/kept')!).toString()).toBe('kept bytes')
      expect(vouchedBytes('/s/planted')).toBeNull()
      declareHostWrite('/s/kept', Buffer.from('the host wrote this'))
      expect(Buffer.from(vouchedBytes('/s/kept')!).toString()).toBe('the host wrote this')
    } finally {
      close()
    }
    expect(vouchedBytes('/s/kept')).toBeUndefined()
  } finally {
    stop()
  }
})

it('the files counted in an open window below a folder: what the guard keeps there and what the host last wrote there, nothing outside it', () => {
  const stop = keepBytesFrom(
    () => null,
    () => ['/v/store/a.md', '/v/store-other/b.md'],
  )
  try {
    expect(vouchedFilesUnder('/v/store')).toEqual([])
    const close = openCallWindow()
    try {
      declareHostWrite('/v/store/new.md', Buffer.from('the host wrote this'))
      declareHostWrite('/v/store/folder-only')
      expect(vouchedFilesUnder('/v/store').sort()).toEqual(['/v/store/a.md', '/v/store/new.md'])
    } finally {
      close()
    }
    expect(vouchedFilesUnder('/v/store')).toEqual([])
  } finally {
    stop()
    takeHostWrites()
  }
})
