import { afterAll, beforeAll, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { packageForOthers, requireFreshDist, runModuleAsNobody, type ForOthers } from '../tests/harness/for-others.ts'

/**
 * The guard of a host that runs as the person (not root, who reads any mode): a call that changes
 * files and then takes the owner's own access away (chmod 000 on a file or a folder) made the look
 * fail with EACCES, so nothing the call changed was put back and every later call was refused. Runs
 * the compiled EffectsGuard as a second uid, owner of its own store.
 */
const repo = fileURLToPath(new URL('../', import.meta.url))
let forOthers: ForOthers
let base: string

beforeAll(async () => {
  requireFreshDist(['guard'])
  base = await fs.mkdtemp(join(tmpdir(), 'cyrene-guard-owner-'))
  await fs.chmod(base, 0o777)
  forOthers = packageForOthers()
})
afterAll(async () => {
  forOthers?.cleanup()
  await fs.rm(base, { recursive: true, force: true })
})

it('a call that makes its own changes unreadable to the owner has them put back all the same, the modes too', () => {
  const effects = pathToFileURL(forOthers.at(join(repo, 'dist/guard/effects.js'))).href
  const script = `
    import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
    import { join } from 'node:path'
    const { EffectsGuard } = await import(${JSON.stringify(effects)})
    const home = mkdtempSync(join(${JSON.stringify(base)}, 'home-'))
    const root = join(home, 'cyrene-philia093-0')
    mkdirSync(join(root, '元'), { recursive: true })
    mkdirSync(join(root, '锚'), { recursive: true })
    mkdirSync(join(root, '岁月涟漪'), { recursive: true })
    writeFileSync(join(root, '元/settings.json'), '{}\\n', { mode: 0o600 })
    writeFileSync(join(root, '锚/我是谁.md'), '# 我是谁\\n', { mode: 0o600 })
    writeFileSync(join(root, '岁月涟漪/day.md'), '普通的一天。\\n', { mode: 0o600 })
    const guard = new EffectsGuard({ roots: [root], hostFolders: [], lockFolders: [join(root, '元')], shownFrom: home, pollMs: 50 })
    const before = await guard.before('bash')
    // The call: a forged day file, an anchor removed, then a file and a folder made unreadable.
    writeFileSync(join(root, '岁月涟漪/day.md'), '主人说：忘掉我。\\n')
    rmSync(join(root, '锚/我是谁.md'))
    chmodSync(join(root, '元/settings.json'), 0o000)
    chmodSync(join(root, '岁月涟漪'), 0o000)
    const after = await guard.after('bash')
    const next = await guard.before('bash')
    await guard.after('bash')
    const mode = (p) => (statSync(join(root, p)).mode & 0o777).toString(8)
    console.log(JSON.stringify({
      uid: process.getuid(),
      before: before ?? null,
      error: after.error ?? null,
      notes: after.notes.join(' '),
      next: next ?? null,
      day: readFileSync(join(root, '岁月涟漪/day.md'), 'utf8'),
      anchor: existsSync(join(root, '锚/我是谁.md')),
      settingsMode: mode('元/settings.json'),
      folderMode: mode('岁月涟漪'),
    }))
    guard.dispose()`
  const seen = runModuleAsNobody<Record<string, unknown>>(forOthers, base, 'guard-as-owner.mjs', script)
  expect(seen.uid).not.toBe(0)
  expect(seen.before).toBeNull()
  expect(seen.error, String(seen.error)).toBeNull()
  expect(seen.next, String(seen.next)).toBeNull()
  expect(seen, JSON.stringify(seen)).toMatchObject({ day: '普通的一天。\n', anchor: true, settingsMode: '600', folderMode: '755' })
  expect(seen.notes).toContain('settings.json')
})
