import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { checkStore } from './check.ts'
import { MemoryStore } from './store.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

it('git’s own files under .git/ are not the store’s: their modes are no finding, and --fix leaves them; the store’s own still are (decision 287)', async () => {
  const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  await store.write({ text: '一条', kind: 'fact', axis: '智', reason: 'r' }, { by: 'person' })
  // What git leaves: a read-only pack, an executable sample hook.
  await fs.mkdir(join(t.root, '.git/objects/pack'), { recursive: true })
  await fs.writeFile(join(t.root, '.git/objects/pack/pack-1.pack'), 'x', { mode: 0o444 })
  await fs.chmod(join(t.root, '.git'), 0o755)
  const settings = join(t.root, '元/settings.json')
  await fs.writeFile(settings, '{}\n')
  await fs.chmod(settings, 0o644)
  const report = await checkStore(store, { fix: true })
  const modes = [...report.errors, ...report.warnings].filter((f) => f.code === 'mode')
  expect(modes.map((f) => f.file)).toEqual([])
  expect(report.fixed.join('\n')).not.toContain('.git')
  expect(report.fixed.join('\n')).toContain('元/settings.json')
  expect((await fs.stat(join(t.root, '.git/objects/pack/pack-1.pack'))).mode & 0o777).toBe(0o444)
  await store.close()
})
