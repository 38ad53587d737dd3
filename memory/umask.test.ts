import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { chownSync, promises as fs } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { tempHome } from './testing/tmp.ts'
import { walkFiles } from './fsio.ts'
import { AS_NOBODY, packageForOthers, type ForOthers } from '../tests/harness/for-others.ts'

/**
 * Issue 7 item 12 (umask part): the compiled `cyrene` bin run under
 * `umask 0777`. mkdir and open alone would make 000 folders and files; the
 * store sets 0700/0600 itself. `npm run compile` first.
 */
// As the second uid only a copy may be reachable (a clone in a 0700 folder); as root the checkout itself.
const BIN = fileURLToPath(new URL('../bin/cyrene.js', import.meta.url))
let forOthers: ForOthers
beforeAll(() => {
  forOthers = packageForOthers()
})
afterAll(() => forOthers.cleanup())

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

/** Runs the bin under umask 0777, optionally as the second uid; returns stdout (throws on a non-zero exit). */
function underUmask0777(asNobody: boolean, ...args: string[]): string {
  const sh = ['sh', '-c', 'umask 0777; exec "$0" "$@"', ...(asNobody ? [forOthers.node, forOthers.bin] : [process.execPath, BIN]), ...args]
  const argv = asNobody ? ['setpriv', ...AS_NOBODY, ...sh] : sh
  // The English words are what these checks read (the command line speaks LANG's language, zh by default).
  return execFileSync(argv[0]!, argv.slice(1), {
    env: { ...process.env, DSH_HOME: t.home, LANG: 'en_US.UTF-8', LC_ALL: '' },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  })
}

async function modesUnder(dir: string): Promise<Map<string, number>> {
  const out = new Map<string, number>()
  async function walk(rel: string): Promise<void> {
    const full = rel === '' ? dir : join(dir, rel)
    const st = await fs.lstat(full)
    out.set(rel === '' ? '.' : rel, st.mode & 0o777)
    if (st.isDirectory()) for (const n of await fs.readdir(full)) await walk(rel === '' ? n : `${rel}/${n}`)
  }
  await walk('')
  return out
}

describe('umask 0777 (issue 7 item 12)', () => {
  it('umask 0777: the store is created 0700/0600, not 000, and every command works (as root)', async () => {
    expect(underUmask0777(false, 'memory', 'write', '伞忘在门口了。', '--kind', 'fact', '--axis', '智', '--reason', '记性')).toMatch(/^written /)
    underUmask0777(false, 'memory', 'anchor', 'write', 'user', '你是阿远。', '--core')
    const modes = await modesUnder(t.root)
    expect(modes.size).toBeGreaterThan(10)
    for (const [rel, mode] of modes) {
      const st = await fs.lstat(rel === '.' ? t.root : join(t.root, rel))
      expect([rel, mode]).toEqual([rel, st.isDirectory() ? 0o700 : 0o600])
    }
    expect(underUmask0777(false, 'memory', 'list')).toContain('伞忘在门口了。')
  })

  it('umask 0777 as an ordinary user (second uid; root ignores modes): write, anchor, list, check and backup work, no crash', async () => {
    chownSync(t.home, 65534, 65534)
    expect(underUmask0777(true, 'memory', 'write', '伞忘在门口了。', '--kind', 'fact', '--axis', '智', '--reason', '记性')).toMatch(/^written /)
    underUmask0777(true, 'memory', 'anchor', 'write', 'user', '你是阿远。', '--core')
    expect(underUmask0777(true, 'memory', 'list')).toContain('伞忘在门口了。')
    expect(underUmask0777(true, 'memory', 'check')).toMatch(/checks clean/)
    expect(underUmask0777(true, 'backup')).toMatch(/^snapshot /)
    const files = await walkFiles(t.root)
    expect(files).toContain('锚/你是谁.md')
  })
})
