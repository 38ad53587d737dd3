import { afterEach, beforeEach, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { main } from './main.ts'
import { memoryIO } from './io.ts'
import { tempHome } from '../memory/testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ DSH_HOME: t.home, LANG: 'en_US.UTF-8' }, t.home)
  const code = await main(args, io)
  return { code, out: io.out(), err: io.err() }
}

async function listing(dir: string): Promise<string[]> {
  return (await fs.readdir(dir, { recursive: true })).map(String).sort()
}

it('cyrene restore: a snapshot file turned into a folder is refused with exit 2 and a message, no stack trace, nothing changed (issue 7 item 4d)', async () => {
  expect((await run(['memory', 'write', '她喜欢抹茶', '--axis', '美', '--reason', 'r', '--at', '2026-01-02T12:00:00'])).code).toBe(0)
  const b = await run(['backup', '--json'])
  expect(b.code).toBe(0)
  const { name, path } = JSON.parse(b.out) as { name: string; path: string }
  expect((await run(['memory', 'write', '后来', '--axis', '美', '--reason', 'r', '--at', '2026-01-03T12:00:00'])).code).toBe(0)
  const day = join(path, '岁月涟漪/日档/2026/01/2026-01-02.md')
  await fs.rm(day)
  await fs.mkdir(day)
  await fs.writeFile(join(day, 'inside.md'), 'x\n')
  const storeBefore = await listing(t.root)
  const snapsBefore = await fs.readdir(`${t.root}-snapshots`)
  const r = await run(['restore', name])
  expect(r.code).toBe(2)
  expect(r.err).toMatch(/cyrene restore: snapshot .* cannot be restored; nothing was changed/)
  expect(r.err).toContain('岁月涟漪/日档/2026/01/2026-01-02.md is a folder where a file should be')
  expect(r.err).toMatch(/cyrene restore --list/)
  expect(r.err).not.toMatch(/\n\s+at /)
  expect(await listing(t.root)).toEqual(storeBefore)
  expect(await fs.readdir(`${t.root}-snapshots`)).toEqual(snapsBefore)
  expect((await run(['memory', 'list'])).out).toContain('后来')
})

it('cyrene restore --list and backup --list mark snapshots taken before checksums as unverified; restoring one says so', async () => {
  await run(['memory', 'write', '一件事', '--axis', '美', '--reason', 'r'])
  const old = JSON.parse((await run(['backup', '--json'])).out) as { name: string; path: string }
  await fs.rm(join(old.path, '.manifest.json'))
  const l = await run(['restore', '--list'])
  expect(l.code).toBe(0)
  expect(l.out).toMatch(new RegExp(`${old.name}\\s+\\(unverified`))
  expect(JSON.parse((await run(['backup', '--list', '--json'])).out)).toMatchObject({ snapshots: [old.name], unverified: [old.name] })
  const r = await run(['restore', old.name])
  expect(r.code).toBe(0)
  expect(r.out).toMatch(/restored \d+ files from .*To undo: cyrene restore .*pre-restore/)
  expect(r.out).toMatch(/no checksums .* checked by format only/)
  const after = await run(['restore', '--list'])
  expect(after.out.split('\n').filter((x) => x.includes('unverified'))).toHaveLength(1)
})
