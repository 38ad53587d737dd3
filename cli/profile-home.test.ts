import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { existsSync, promises as fs } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { profileContaining, withProfileHome } from './profile-home.ts'

/**
 * Issue 13 item 4: run from inside a DSH profile (`<DSH_HOME>/profiles/<name>/`,
 * the folder `dsh plugin --profile web add` installs into), the command line
 * uses that profile's DSH_HOME; precedence --root > DSH_HOME > the profile of
 * the working directory > the profile the package is installed in > ~/.dsh.
 */
const repo = fileURLToPath(new URL('../', import.meta.url))
const PACKAGE = 'dsh-cyrene-philia093-0'

let base: string
let home: string
let profile: string
let userHome: string
beforeEach(async () => {
  base = await fs.mkdtemp(join(tmpdir(), 'cyrene-profile-'))
  home = join(base, 'other-dsh-home')
  profile = join(home, 'profiles', 'web')
  userHome = join(base, 'user')
  await fs.mkdir(join(profile, 'node_modules'), { recursive: true })
  await fs.mkdir(userHome)
  // What DSH 0.1.0-rc.8 writes when it initialises a profile (dsh-app-boot initProfile).
  await fs.writeFile(
    join(profile, 'package.json'),
    JSON.stringify({ name: 'dsh-profile-web', private: true, dependencies: {}, dsh: { profile: { bundles: ['@deepseek-ai/dsh-base'] } } }),
  )
})
afterEach(async () => {
  await fs.rm(base, { recursive: true, force: true })
})

describe('profileContaining (issue 13 item 4)', () => {
  it('finds the DSH home from the profile folder and from anything below it', () => {
    expect(profileContaining(profile)).toEqual({ home, profile: 'web' })
    expect(profileContaining(join(profile, 'node_modules', PACKAGE, 'bin'))).toEqual({ home, profile: 'web' })
  })

  it('a folder named profiles without a DSH profile manifest is not a DSH home', async () => {
    const plain = join(base, 'projects', 'profiles', 'mine')
    await fs.mkdir(plain, { recursive: true })
    await fs.writeFile(join(plain, 'package.json'), '{"name":"mine"}')
    expect(profileContaining(plain)).toBeUndefined()
    expect(profileContaining(join(base, 'projects'))).toBeUndefined()
    expect(profileContaining('relative/path')).toBeUndefined()
  })

  it('DSH_HOME wins; else the working directory; else where the package is installed', async () => {
    const second = join(base, 'second', 'profiles', 'headless')
    await fs.mkdir(second, { recursive: true })
    await fs.writeFile(join(second, 'package.json'), '{"dsh":{"profile":{"bundles":[]}}}')
    expect(withProfileHome({ DSH_HOME: '/set/by/you' }, profile, second).DSH_HOME).toBe('/set/by/you')
    expect(withProfileHome({ DSH_HOME: '  ' }, profile, second).DSH_HOME).toBe(home)
    expect(withProfileHome({}, '/', second).DSH_HOME).toBe(join(base, 'second'))
    expect(withProfileHome({ HOME: userHome }, '/', undefined)).toEqual({ HOME: userHome })
  })
})

describe('the compiled cyrene finds its home (issue 13 item 4)', () => {
  const storeOf = (h: string) => join(h, 'cyrene-philia093-0')
  const cyrene = (binFile: string, args: string[], cwd: string, extra: NodeJS.ProcessEnv = {}) =>
    spawnSync(process.execPath, [binFile, ...args], { cwd, env: { PATH: process.env.PATH, HOME: userHome, ...extra }, encoding: 'utf8' })
  const write = ['memory', 'write', '在别的家里', '--axis', '美', '--reason', 'r']

  it('run inside a profile of another DSH_HOME, it writes there and not to ~/.dsh', () => {
    const r = cyrene(join(repo, 'bin/cyrene.js'), write, join(profile, 'node_modules'))
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(existsSync(storeOf(home))).toBe(true)
    expect(existsSync(join(userHome, '.dsh'))).toBe(false)
    expect(cyrene(join(repo, 'bin/cyrene.js'), ['memory', 'list'], profile).stdout).toContain('在别的家里')
  })

  it('installed in a profile (npx cyrene, or its bin on PATH), it uses that home from any folder', async () => {
    // The package as `dsh plugin add` leaves it: a real copy in the profile's hoisted node_modules.
    const installed = join(profile, 'node_modules', PACKAGE)
    await fs.mkdir(installed)
    for (const part of ['bin', 'dist', 'package.json']) await fs.cp(join(repo, part), join(installed, part), { recursive: true })
    for (const dep of await fs.readdir(join(repo, 'node_modules'))) {
      if (!dep.startsWith('.') && dep !== PACKAGE) await fs.symlink(join(repo, 'node_modules', dep), join(profile, 'node_modules', dep))
    }
    const r = cyrene(join(installed, 'bin/cyrene.js'), write, base)
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(existsSync(storeOf(home))).toBe(true)
    expect(existsSync(join(userHome, '.dsh'))).toBe(false)
  })

  it('DSH_HOME and --root still win over the profile', async () => {
    const mine = join(base, 'mine')
    expect(cyrene(join(repo, 'bin/cyrene.js'), write, profile, { DSH_HOME: mine }).status).toBe(0)
    expect(existsSync(storeOf(mine))).toBe(true)
    const root = join(base, 'root-store')
    expect(cyrene(join(repo, 'bin/cyrene.js'), [...write, '--root', root], profile).status).toBe(0)
    expect(existsSync(root)).toBe(true)
    expect(existsSync(storeOf(home))).toBe(false)
  })

  it('outside any profile and without DSH_HOME it is still ~/.dsh', () => {
    expect(cyrene(join(repo, 'bin/cyrene.js'), write, base).status).toBe(0)
    expect(existsSync(storeOf(join(userHome, '.dsh')))).toBe(true)
    expect(existsSync(storeOf(home))).toBe(false)
  })
})
