import { execFile, execFileSync } from 'node:child_process'
import { promises as fs } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { fillDisk } from '../durable/testing/tmpfs.ts'
import { useTmpfs } from '../durable/testing/use-tmpfs.ts'
import { requireFreshDist } from '../tests/harness/for-others.ts'

/**
 * A full disk on the machine that fetches (a 3 MB tmpfs as its DSH_HOME, tests run as root): the sync is
 * the system refusing (exit 3), not the remote being away (exit 1), and nothing of the store changes.
 * Through the compiled bin (decision 287).
 */
const BIN = fileURLToPath(new URL('../bin/cyrene.js', import.meta.url))
const run = promisify(execFile)
const ENGLISH = { LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8', LC_MESSAGES: 'en_US.UTF-8' }

async function cyrene(home: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, ...ENGLISH, DSH_HOME: home, HOME: home } })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const x = e as { code?: unknown; stdout?: string; stderr?: string }
    return { code: typeof x.code === 'number' ? x.code : -1, stdout: x.stdout ?? '', stderr: x.stderr ?? '' }
  }
}

const fsys = useTmpfs('3m')

describe('git sync on a full disk', () => {
  it('a fetch the local disk cannot hold is exit 3 naming the disk, and the store is as it was', async () => {
    requireFreshDist(['memory', 'cli'])
    const a = await fs.mkdtemp(join(tmpdir(), 'cyrene-full-a-'))
    const bare = join(a, 'remote.git')
    try {
      execFileSync('git', ['init', '--bare', '--quiet', '-b', 'main', bare])
      const b = fsys.dir
      expect((await cyrene(a, 'memory', 'write', '第一条', '--axis', '智', '--reason', 'r', '--at', '2026-01-01')).code).toBe(0)
      expect((await cyrene(a, 'sync', 'git', '--remote', bare)).code).toBe(0)
      expect((await cyrene(b, 'sync', 'git', '--remote', bare)).code).toBe(0)
      const before = (await cyrene(b, 'memory', 'list', '--json')).stdout
      // A writes a lot the other machine has no room for (random text does not pack away).
      const big = join(a, 'cyrene-philia093-0/余页/随笔')
      await fs.mkdir(big, { recursive: true })
      await fs.writeFile(join(big, 'long.md'), (await import('node:crypto')).randomBytes(1_500_000).toString('base64'))
      expect((await cyrene(a, 'sync', 'git')).code).toBe(0)
      await fillDisk(join(b, 'filler'), 64 * 1024)
      const r = await cyrene(b, 'sync', 'git')
      expect(r.code, r.stderr + r.stdout).toBe(3)
      expect(r.stderr).toMatch(/No space left on device/)
      await fs.rm(join(b, 'filler'), { force: true })
      expect((await cyrene(b, 'memory', 'list', '--json')).stdout).toBe(before)
    } finally {
      await fs.rm(a, { recursive: true, force: true })
    }
  })
})
