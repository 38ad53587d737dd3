import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { atomicWrite } from '../durable/atomic-write.ts'
import { EffectsGuard } from './effects.ts'

const made: { dir: string; guard: EffectsGuard }[] = []
afterEach(() => {
  for (const { dir, guard } of made.splice(0)) {
    guard.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
})

function guarded(): { root: string; guard: EffectsGuard } {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-effects-'))
  const root = join(dir, 'store')
  mkdirSync(join(root, '元'), { recursive: true })
  writeFileSync(join(root, '元', 'kept.json'), 'before\n')
  const guard = new EffectsGuard({ roots: [root], hostFolders: [], shownFrom: dir, pollMs: 50 })
  made.push({ dir, guard })
  return { root, guard }
}

it("a write of the host's own that starts while a call's window opens is the host's, not the call's", async () => {
  const { root, guard } = guarded()
  const seal = join(root, '元', 'recall-seal.json')
  // The recall worker's seal lands on DSH's thread at any moment: here, just after the guard has
  // found the host idle and while it lets the person's last changes reach its watches.
  let written: Promise<void> | undefined
  setImmediate(() => (written = atomicWrite(seal, '{"size":1}\n')))
  expect(await guard.before('bash')).toBeUndefined()
  await written
  const { notes, error } = await guard.after('bash')
  expect(error).toBeUndefined()
  expect(notes).toEqual([])
  expect(readFileSync(seal, 'utf8')).toBe('{"size":1}\n')
})

it('a file a call writes is still put back', async () => {
  const { root, guard } = guarded()
  expect(await guard.before('bash')).toBeUndefined()
  writeFileSync(join(root, '元', 'kept.json'), 'changed by the call\n')
  const { notes } = await guard.after('bash')
  expect(notes.join(' ')).toContain('kept.json')
  expect(readFileSync(join(root, '元', 'kept.json'), 'utf8')).toBe('before\n')
})
