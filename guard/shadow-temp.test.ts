import { mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync, closeSync, constants as C } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import { Shadow } from './shadow.ts'

/**
 * The put back writes the kept bytes to a temporary file in the file's own folder, syncs it and renames it into
 * place. A call's process that lists the folder can open that temporary file by its name while it is synced and
 * write a forgery of the same size into it: the inode renamed into place is then the one the guard made (its check
 * after the rename passes) and the stamp taken after it is the forgery's. Found on the real host (decision 305,
 * the corpus entry "… written into the guard's temp file …"). Here the write lands at exactly that point: just
 * before the guard's rename.
 */
const hook = vi.hoisted(() => ({ beforeRename: undefined as ((from: string) => void) | undefined }))
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  return {
    ...fs,
    renameSync: (from: import('node:fs').PathLike, to: import('node:fs').PathLike) => {
      hook.beforeRename?.(String(from))
      fs.renameSync(from, to)
    },
  }
})

let top: string
const KEPT = '普通的一天。\n<!--cyrene:{"id":"12","by":"model"}-->\n'
const FORGED = '伪造的一天。\n<!--cyrene:{"id":"1","by":"person"}-->\n'

beforeEach(() => {
  top = mkdtempSync(join(tmpdir(), 'cyrene-shadow-temp-'))
  expect(Buffer.byteLength(FORGED)).toBe(Buffer.byteLength(KEPT))
})
afterEach(() => {
  hook.beforeRename = undefined
  rmSync(top, { recursive: true, force: true })
})

/** Once: the forgery written into the guard's temporary file through its name, as a call's process would. */
function forgeTheTempOnce(): void {
  hook.beforeRename = (from) => {
    if (!basename(from).startsWith('.guard.tmp-')) return
    hook.beforeRename = undefined
    const fd = openSync(from, C.O_WRONLY)
    writeSync(fd, FORGED, 0)
    closeSync(fd)
  }
}

function storeWithADay(name: string): { root: string; day: string } {
  const root = join(top, name)
  mkdirSync(join(root, 'days'), { recursive: true })
  const day = join(root, 'days/2026-11-28.md')
  writeFileSync(day, KEPT, { mode: 0o600 })
  return { root, day }
}

it("a forgery written into the guard's temporary file before its rename is found by the next look that walks the store, and put back", () => {
  const { root, day } = storeWithADay('store')
  const shadow = new Shadow([root])
  writeFileSync(day, `${KEPT}x`)
  forgeTheTempOnce()
  expect(shadow.restore(shadow.diff())).toEqual([])
  expect(readFileSync(day, 'utf8')).toBe(FORGED)
  // The look that closes the window (no process of the call left to race it) reads the bytes, not the stamp.
  const closing = shadow.diffWhole([root], [])
  expect(closing).toEqual([{ path: day, what: 'content' }])
  expect(shadow.restore(closing)).toEqual([])
  expect(readFileSync(day, 'utf8')).toBe(KEPT)
  expect(shadow.diffWhole([root], [])).toEqual([])
})

it('the same in a folder the closing look does not walk (the snapshots): what was put back there is read again', () => {
  const { root } = storeWithADay('store')
  const { root: snaps, day: snapDay } = storeWithADay('snapshots')
  const shadow = new Shadow([root, snaps])
  writeFileSync(snapDay, `${KEPT}x`)
  forgeTheTempOnce()
  expect(shadow.restore(shadow.diff())).toEqual([])
  expect(readFileSync(snapDay, 'utf8')).toBe(FORGED)
  const closing = shadow.diffWhole([root], [], [snaps])
  expect(closing).toEqual([{ path: snapDay, what: 'content' }])
  expect(shadow.restore(closing)).toEqual([])
  expect(readFileSync(snapDay, 'utf8')).toBe(KEPT)
})
