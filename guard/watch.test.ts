import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { Watches } from './watch.ts'

const made: { dir: string; watches: Watches }[] = []
afterEach(() => {
  for (const { dir, watches } of made.splice(0)) {
    watches.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

it('after the watches at a changed place are set anew, its folders and the place itself are named for the next look (decision 332)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-watch-'))
  const root = join(dir, 'store')
  mkdirSync(join(root, 'a', 'b'), { recursive: true })
  writeFileSync(join(root, 'a', 'b', 'f.md'), 'x\n')
  writeFileSync(join(root, 'g.md'), 'y\n')
  const watches = new Watches([root])
  made.push({ dir, watches })
  watches.take()
  // What a look put back at `a`: a change between that put back and these watches was seen by none.
  watches.sync(new Set([join(root, 'a')]), [
    { path: join(root, 'a'), dir: true },
    { path: join(root, 'a', 'b'), dir: true },
    { path: join(root, 'a', 'b', 'f.md'), dir: false },
  ])
  expect([...watches.take()].sort()).toEqual([join(root, 'a'), join(root, 'a', 'b')])
  // Nothing changed since: the look after that names nothing.
  expect([...watches.take()]).toEqual([])
})
