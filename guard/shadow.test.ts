import { chmodSync, chownSync, lstatSync, mkdirSync, mkdtempSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { spawn } from 'node:child_process'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { atOrUnderAny, Shadow } from './shadow.ts'

// A call's process can swap a path between the guard's look and its put back. These tests make that swap
// happen at exactly that point (the changes are handed to `restore` after the disk moved on).

let top: string
let root: string
let elsewhere: string
const modeOf = (p: string) => lstatSync(p).mode & 0o7777

beforeEach(() => {
  top = mkdtempSync(join(tmpdir(), 'cyrene-shadow-'))
  root = join(top, 'root')
  elsewhere = join(top, 'elsewhere')
  mkdirSync(join(root, 'look'), { recursive: true, mode: 0o700 })
  chmodSync(join(root, 'look'), 0o700)
  writeFileSync(join(root, 'look/a.md'), 'kept\n', { mode: 0o600 })
  mkdirSync(elsewhere, { mode: 0o700 })
  chmodSync(elsewhere, 0o750)
})
afterEach(() => rmSync(top, { recursive: true, force: true }))

it('a folder swapped for a link after the look is never given the link’s mode, and its target is not touched', () => {
  const shadow = new Shadow([root])
  const look = join(root, 'look')
  chmodSync(look, 0o755)
  const changes = shadow.diff()
  expect(changes).toEqual([{ path: look, what: 'mode' }])
  // The swap, between the look and the put back.
  renameSync(look, `${look}.moved`)
  symlinkSync(elsewhere, look)
  const failed = shadow.restore(changes)
  expect(failed.map((f) => f.path)).toEqual([look])
  expect(modeOf(elsewhere)).toBe(0o750)
  // The process swaps it back; the next looks put the folder's own mode back, not 0777.
  unlinkSync(look)
  renameSync(`${look}.moved`, look)
  shadow.restore(shadow.diff())
  expect(shadow.diff()).toEqual([])
  expect(modeOf(look)).toBe(0o700)
})

// As root, as the tests run here: only root can give a folder to another owner.
it.runIf(process.getuid?.() === 0)('a folder swapped for a link between its put back and the record is not recorded as the link', () => {
  const shadow = new Shadow([root])
  const look = join(root, 'look')
  chownSync(look, 65534, 65534)
  const changes = shadow.diff()
  expect(changes).toEqual([{ path: look, what: 'owner' }])
  renameSync(look, `${look}.moved`)
  symlinkSync(elsewhere, look)
  // lchown meets the link itself; what is recorded afterwards must still be the folder's mode.
  shadow.restore(changes)
  unlinkSync(look)
  renameSync(`${look}.moved`, look)
  shadow.restore(shadow.diff())
  expect(shadow.diff()).toEqual([])
  expect(modeOf(look)).toBe(0o700)
  expect(lstatSync(look).uid).toBe(0)
})

it('a file written again with its own bytes through a shared mapping is compared by its bytes from then on: a later write through the mapping moves no time', async () => {
  const file = join(root, 'look/a.md')
  const shadow = new Shadow([root])
  const mapper = spawn('python3', ['-c', MAP_AND_WAIT, file], { stdio: ['pipe', 'pipe', 'inherit'] })
  const said = (word: string) => new Promise<void>((resolve) => mapper.stdout.on('data', (d: Buffer) => d.toString().includes(word) && resolve()))
  try {
    await said('ready')
    // Same bytes, same mtime, a new ctime: written again unchanged.
    expect(shadow.diff()).toEqual([])
    mapper.stdin.write('go\n')
    await said('done')
    expect(shadow.diff()).toEqual([{ path: file, what: 'content' }])
    shadow.forgetRewrites()
  } finally {
    mapper.kill('SIGKILL')
  }
})

/** Maps argv[1] shared, dirties its first byte with itself, sets its times back; on a line from stdin writes "K" through the mapping. */
const MAP_AND_WAIT = String.raw`import mmap, os, sys
f = sys.argv[1]
st = os.stat(f)
fd = os.open(f, os.O_RDWR)
m = mmap.mmap(fd, 0)
m[0:1] = m[0:1]
os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
print('ready', flush=True)
sys.stdin.readline()
m[0:1] = b'K'
print('done', flush=True)
sys.stdin.readline()
`

it('a path is at or under a set of paths by its own folders, not by a shared prefix', () => {
  const roots = new Set(['/h/cyrene/锚', '/h/cyrene/余页/a.md'])
  expect(atOrUnderAny('/h/cyrene/锚', roots)).toBe(true)
  expect(atOrUnderAny('/h/cyrene/锚/历史/x.md', roots)).toBe(true)
  expect(atOrUnderAny('/h/cyrene/余页/a.md', roots)).toBe(true)
  expect(atOrUnderAny('/h/cyrene/锚锚/x.md', roots)).toBe(false)
  expect(atOrUnderAny('/h/cyrene/余页/a.md.bak', roots)).toBe(false)
  expect(atOrUnderAny('/h/cyrene', roots)).toBe(false)
  expect(atOrUnderAny('/h/cyrene/锚', new Set())).toBe(false)
})
