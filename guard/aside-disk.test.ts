import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { fillDisk, freeBytes } from '../durable/testing/tmpfs.ts'
import { useTmpfs } from '../durable/testing/use-tmpfs.ts'
import { putBackDirOf } from './aside.ts'
import { EffectsGuard } from './effects.ts'

/** A real 1 MiB tmpfs (the tests run as root): the store, its put-back folder and nothing else on it. */
const disk = useTmpfs('1m')
let guard: EffectsGuard | undefined
afterEach(() => {
  guard?.dispose()
  guard = undefined
})

it('on a nearly full disk the put back comes before the copy aside: the store is whole again, the copy kept when room is left', async () => {
  const home = join(disk.dir, 'home')
  const root = join(home, 'cyrene-philia093-0')
  const putBack = putBackDirOf(root)
  mkdirSync(join(root, '锚'), { recursive: true })
  writeFileSync(join(root, '锚/我是谁.md'), 'the person’s own words\n')
  guard = new EffectsGuard({ roots: [root, putBack], hostFolders: [], shownFrom: home, pollMs: 50, putBack })
  expect(await guard.before('bash')).toBeUndefined()
  // The call rewrites the file with 200 KiB and leaves the disk with room for no more than that copy.
  const big = Buffer.alloc(200 * 1024, 0x62)
  writeFileSync(join(root, '锚/我是谁.md'), big)
  await fillDisk(join(disk.dir, 'filler'), big.length)
  expect(await freeBytes(disk.dir)).toBeLessThanOrEqual(big.length + 4096)
  const { notes, error } = await guard.after('bash')
  expect(error).toBeUndefined()
  // Put back first: the old bytes are there, whatever became of the copy.
  expect(readFileSync(join(root, '锚/我是谁.md'), 'utf8')).toBe('the person’s own words\n')
  expect(notes.join('')).not.toContain('could not be put back')
  // The put back freed the call's 200 KiB: the copy fit after it.
  const looks = readdirSync(putBack)
  expect(looks).toHaveLength(1)
  expect(readFileSync(join(putBack, looks[0]!, 'cyrene-philia093-0/锚/我是谁.md')).equals(big)).toBe(true)
})
