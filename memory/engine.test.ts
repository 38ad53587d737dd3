import { afterEach, beforeEach, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { startEngine } from './engine.ts'
import { EngineBusyError } from './engine-lock.ts'
import { listSnapshots } from './snapshots.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await fs.chmod(join(t.root, '元/卷/000/persona'), 0o700).catch(() => undefined)
  await t.cleanup()
})

it("starts once per DSH_HOME: volume 0, today's snapshot, problems collected; a second start is refused", async () => {
  const p = join(t.home, 'chat.md')
  await fs.writeFile(p, '我是昔涟。')
  await fs.mkdir(join(t.home, 'profiles/web/node_modules/dsh-cyrene'), { recursive: true })
  await fs.writeFile(join(t.home, 'profiles/web/node_modules/dsh-cyrene/package.json'), '{}')
  const e = await startEngine({ env: { DSH_HOME: t.home }, persona: [{ name: 'persona/chat.md', path: p }] })
  expect(e.volumes?.current).toBe(0)
  expect(e.snapshot).toBeDefined()
  expect(await listSnapshots(e.store)).toHaveLength(1)
  expect(e.problems.join()).toMatch(/retired plugin dsh-cyrene/)
  await expect(startEngine({ env: { DSH_HOME: t.home } })).rejects.toBeInstanceOf(EngineBusyError)
  await e.store.close()
})

it('fails open on a broken 卷.json: the engine starts and reports it', async () => {
  await fs.mkdir(join(t.root, '元'), { recursive: true })
  await fs.writeFile(join(t.root, '元/卷.json'), '{')
  const p = join(t.home, 'chat.md')
  await fs.writeFile(p, 'x')
  const e = await startEngine({ env: { DSH_HOME: t.home }, persona: [{ name: 'persona/chat.md', path: p }] })
  expect(e.problems.join()).toMatch(/卷\.json/)
  expect((await e.store.write({ text: 'still works' }, { by: 'model' })).gate).toBe('pending')
  await e.store.close()
})
