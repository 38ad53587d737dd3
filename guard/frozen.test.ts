import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { tmpdir } from 'node:os'
import { frozenIn, frozenUnder } from './frozen.ts'
import { frozenLine } from './doctor.ts'

// lsattr's own output (e2fsprogs 1.47) for a folder with an append-only subfolder and an immutable file in it.
const LSATTR = `--------------e------- /s/.
-----------I--e------- /s/..
--------------e------- /s/g.md
-----a--------e------- /s/a

/s/a:
--------------e------- /s/a/.
----i---------e------- /s/a/f.md
-----a--------e------- /s/a/..
`

it('reads the immutable and append-only entries out of lsattr, not its . and .. lines', () => {
  expect(frozenIn(LSATTR)).toEqual(['/s/a', '/s/a/f.md'])
  expect(frozenIn('')).toEqual([])
})

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) {
    spawnSync('chattr', ['-R', '-i', '-a', dir])
    rmSync(dir, { recursive: true, force: true })
  }
})

it('the doctor names a store file a call running as root made immutable, and says how to clear it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-frozen-'))
  made.push(dir)
  mkdirSync(join(dir, '锚'))
  const anchor = join(dir, '锚', '我是谁.md')
  writeFileSync(anchor, '# 我是谁\n')
  expect(frozenLine(dir, 'en')).toBeUndefined()
  const set = spawnSync('chattr', ['+i', anchor], { encoding: 'utf8' })
  if (set.status !== 0) {
    // A file system that keeps no such flags (a tmpfs): then nothing is frozen, and nothing is said.
    expect(set.stderr).toMatch(/not supported|Inappropriate ioctl/i)
    expect(frozenLine(dir, 'en')).toBeUndefined()
    return
  }
  expect(frozenUnder(dir)).toEqual([anchor])
  expect(frozenLine(dir, 'en')).toMatchObject({ area: 'memory', status: 'warn', detail: expect.stringContaining(`chattr -i -a '${anchor}'`) })
})
