import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, promises as fs, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MemoryStore } from '../memory/index.ts'
import { importItems } from '../memory/upkeep.ts'
import { AS_NOBODY, packageForOthers, requireFreshDist, type ForOthers } from '../tests/harness/for-others.ts'

/**
 * Issue 7 item 12: what the compiled `cyrene` prints when the system refuses —
 * a real second user (root ignores file modes), a real full tmpfs, a real
 * read-only mount, a real closed pipe. Every case: one message naming the
 * path and what to do, no stack trace, the exit code of CONTRACT#exit-codes,
 * and the store exactly as it was.
 */
const repo = fileURLToPath(new URL('../', import.meta.url))
const bin = join(repo, 'bin/cyrene.js')
const NOBODY = 65534
// The second uid runs a copy when the checkout is out of its reach (a clone in a 0700 folder).
let forOthers: ForOthers
const STACK = /\n\s+at |node:internal|triggerUncaughtException/

interface Run {
  status: number | null
  stdout: string
  stderr: string
}

function cyrene(args: string[], home: string, opts: { asNobody?: boolean } = {}): Run {
  const argv = [bin, ...args]
  const r =
    opts.asNobody === true
      ? spawnSync('setpriv', [...AS_NOBODY, forOthers.node, forOthers.bin, ...args], {
          env: { PATH: process.env.PATH, DSH_HOME: home, LANG: 'en_US.UTF-8' },
          encoding: 'utf8',
          cwd: '/',
        })
      : spawnSync(process.execPath, argv, { env: { PATH: process.env.PATH, DSH_HOME: home, LANG: 'en_US.UTF-8' }, encoding: 'utf8', cwd: '/' })
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const dayDir = (home: string) => join(home, 'cyrene-philia093-0/岁月涟漪/日档/2026/01')
const dayFile = (home: string) => join(dayDir(home), '2026-01-01.md')
const write2 = ['memory', 'write', '第二条', '--axis', '德', '--reason', 'r', '--at', '2026-01-01']

/** A DSH_HOME any user may enter, holding a store (made by root) with one entry on 2026-01-01. */
async function homeWithStore(base: string, name: string): Promise<string> {
  const home = join(base, name)
  await fs.mkdir(home, { mode: 0o755 })
  await fs.chmod(home, 0o755)
  const s = await MemoryStore.open({ env: { DSH_HOME: home } })
  await s.write({ text: '第一条', axis: '德', reason: 'r', at: '2026-01-01' }, { by: 'person' })
  return home
}

function expectSystemRefusal(r: Run, message: RegExp): void {
  expect(r.stderr, r.stderr).toMatch(message)
  expect(r.stderr).not.toMatch(STACK)
  expect(r.stderr.trim().split('\n')).toHaveLength(1)
  expect(r.status, r.stderr).toBe(3)
}

let base: string
beforeAll(async () => {
  // The bin runs dist/; a stale build would test old code. Compile first (npm test does).
  requireFreshDist(['cli', 'memory'])
  base = await fs.mkdtemp(join(tmpdir(), 'cyrene-syserr-'))
  await fs.chmod(base, 0o755)
  forOthers = packageForOthers()
  // The second user must be able to run node and read the compiled package; never skip if not — fail.
  const probe = cyrene(['--help'], base, { asNobody: true })
  if (probe.status !== 0)
    throw new Error(
      `uid ${NOBODY} cannot run ${forOthers.node} ${forOthers.bin} (status ${probe.status}): ${probe.stderr}. Make the package and node readable by others.`,
    )
})
afterAll(async () => {
  forOthers?.cleanup()
  await fs.rm(base, { recursive: true, force: true })
})

describe('permission denied (EACCES) as a second user: exit 3, who owns what, nothing changed (issue 7 item 12)', () => {
  it('home not writable: the store cannot be created', async () => {
    const home = join(base, 'home-root-owned')
    await fs.mkdir(home, { mode: 0o755 })
    await fs.chmod(home, 0o755)
    const r = cyrene(['memory', 'write', '你好', '--axis', '德', '--reason', 'r'], home, { asNobody: true })
    expectSystemRefusal(
      r,
      new RegExp(
        `^cyrene memory: permission denied: cannot create cyrene-philia093-0 in ${home} \\(the folder ${home} belongs to uid 0 \\(root\\) with mode 0755; cyrene runs as uid ${NOBODY}\\b.*\\)\\. Nothing was changed\\. .*chown -R ${NOBODY}:${NOBODY}`,
      ),
    )
    expect(await fs.readdir(home)).toEqual([])
  })

  it('a read-only day folder: the write is refused, the day file unchanged', async () => {
    const home = await homeWithStore(base, 'ro-day')
    execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, home])
    await fs.chmod(dayDir(home), 0o500)
    const before = await fs.readFile(dayFile(home))
    const r = cyrene(write2, home, { asNobody: true })
    expectSystemRefusal(
      r,
      new RegExp(
        `permission denied: ${dayFile(home)} \\(the folder ${dayDir(home)} belongs to uid ${NOBODY}.* with mode 0500; .*\\)\\. Nothing was changed\\. .*chmod u\\+rwx '${dayDir(home)}'`,
      ),
    )
    expect(Buffer.compare(await fs.readFile(dayFile(home)), before)).toBe(0)
    expect(await fs.readdir(dayDir(home))).toEqual(['2026-01-01.md'])
    // Reading still works for that user.
    expect(cyrene(['memory', 'list'], home, { asNobody: true }).stdout).toMatch(/第一条/)
  })

  it('a read-only 元/: the write lock cannot be taken, nothing written', async () => {
    const home = await homeWithStore(base, 'ro-meta')
    execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, home])
    const meta = join(home, 'cyrene-philia093-0/元')
    const metaBefore = (await fs.readdir(meta)).sort()
    await fs.chmod(meta, 0o500)
    const before = await fs.readFile(dayFile(home))
    const r = cyrene(write2, home, { asNobody: true })
    expectSystemRefusal(
      r,
      new RegExp(
        `permission denied: .*in ${meta} \\(the folder ${meta} belongs to uid ${NOBODY}.* mode 0500.*Nothing was changed\\. .*chmod u\\+rwx '${meta}'`,
      ),
    )
    expect(Buffer.compare(await fs.readFile(dayFile(home)), before)).toBe(0)
    expect((await fs.readdir(meta)).sort()).toEqual(metaBefore)
  })

  it('a store owned by another user: list and write refused, with the owner and the chown that fixes it', async () => {
    const home = await homeWithStore(base, 'other-owner')
    const root = join(home, 'cyrene-philia093-0')
    const before = await fs.readFile(dayFile(home))
    for (const args of [['memory', 'list'], write2]) {
      const r = cyrene(args, home, { asNobody: true })
      expectSystemRefusal(
        r,
        new RegExp(
          `permission denied: ${root}/\\S+ \\(the folder ${root} belongs to uid 0 \\(root\\) with mode 0700; cyrene runs as uid ${NOBODY}.*Nothing was changed\\. Run cyrene as root \\(the owner\\), or have root give it to you: chown -R ${NOBODY}:${NOBODY} '${root}'`,
        ),
      )
    }
    expect(Buffer.compare(await fs.readFile(dayFile(home)), before)).toBe(0)
  })

  it('元/person-marks.json with mode 0000: every write refuses, and the doctor says so with the chmod (it said all well)', async () => {
    const home = await homeWithStore(base, 'marks-0000')
    const marks = join(home, 'cyrene-philia093-0', '元', 'person-marks.json')
    expect(existsSync(marks)).toBe(true)
    execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, home])
    await fs.chmod(marks, 0o000)
    expect(cyrene(write2, home, { asNobody: true }).status).toBe(3)
    const doctor = cyrene(['doctor'], home, { asNobody: true })
    expect(doctor.status).toBe(1)
    expect(doctor.stdout).toContain(`✗ Memory: ${marks} (mode 0000, owner uid ${NOBODY}) may not be read and written by this user`)
    expect(doctor.stdout).toContain(`chmod u+rw '${marks}'`)
  })

  it('元/ with mode 0500 (its owner may not write): an error in memory check as in the doctor, and check --fix gives it back (decision 290)', async () => {
    const home = await homeWithStore(base, 'meta-0500')
    const meta = join(home, 'cyrene-philia093-0', '元')
    execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, home])
    await fs.chmod(meta, 0o500)
    expect(cyrene(write2, home, { asNobody: true }).status).toBe(3)
    const check = cyrene(['memory', 'check'], home, { asNobody: true })
    expect(check.status, check.stdout).toBe(1)
    expect(check.stdout).toContain(`error   元: ${meta} (mode 0500, owner uid ${NOBODY}) may not be read and written by this user`)
    expect(check.stdout).not.toContain('warning 元: mode 500')
    const doctor = cyrene(['doctor'], home, { asNobody: true })
    expect(doctor.status).toBe(1)
    expect(doctor.stdout).toContain(`✗ Memory: ${meta} (mode 0500, owner uid ${NOBODY}) may not be read and written by this user`)
    const fixed = cyrene(['memory', 'check', '--fix'], home, { asNobody: true })
    expect(fixed.status, fixed.stdout).toBe(0)
    expect((await fs.stat(meta)).mode & 0o777).toBe(0o700)
    expect(cyrene(['doctor'], home, { asNobody: true }).stdout).not.toContain('may not be read and written')
  })

  it('a day file with mode 0000: list and a write to that day refused, the file unchanged', async () => {
    const home = await homeWithStore(base, 'mode-0000')
    execFileSync('chown', ['-R', `${NOBODY}:${NOBODY}`, home])
    const before = await fs.readFile(dayFile(home))
    await fs.chmod(dayFile(home), 0o000)
    for (const args of [['memory', 'list'], write2]) {
      const r = cyrene(args, home, { asNobody: true })
      expectSystemRefusal(
        r,
        new RegExp(
          `permission denied: ${dayFile(home)} \\(the file ${dayFile(home)} belongs to uid ${NOBODY}.* mode 0000.*Nothing was changed\\. .*chmod u\\+rw '${dayFile(home)}'`,
        ),
      )
    }
    expect(Buffer.compare(await fs.readFile(dayFile(home)), before)).toBe(0)
  })
})

describe('a full disk and a read-only file system through the command line (issue 7 item 12)', () => {
  const mounts: string[] = []
  async function tmpfs(name: string): Promise<string> {
    const dir = join(base, name)
    await fs.mkdir(dir)
    // A failed mount fails the test: the fault is never simulated.
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', dir])
    mounts.push(dir)
    await fs.chmod(dir, 0o755)
    return dir
  }
  afterAll(() => {
    for (const m of mounts) spawnSync('umount', [m])
  })

  it('ENOSPC: "disk full", exit 3, the day file byte-identical; after freeing space the next write works', async () => {
    const mnt = await tmpfs('full')
    const home = await homeWithStore(mnt, 'home')
    const before = await fs.readFile(dayFile(home))
    const filler = join(mnt, 'filler')
    await expect(fs.writeFile(filler, Buffer.alloc(4 * 1024 * 1024, 1))).rejects.toMatchObject({ code: 'ENOSPC' })
    const r = cyrene(write2, home)
    expectSystemRefusal(r, /^cyrene memory: disk full: no space left for .*\. Nothing was changed\. Free some space on that disk/)
    expect(Buffer.compare(await fs.readFile(dayFile(home)), before)).toBe(0)
    await fs.rm(filler)
    const again = cyrene(write2, home)
    expect(again.stderr).toBe('')
    expect(again.status).toBe(0)
    expect(await fs.readFile(dayFile(home), 'utf8')).toMatch(/第一条[\s\S]*第二条/)
  })

  it('ENOSPC under a whale lock: the refusal names the whale folder and its disk, not "the memory store" and the working directory', async () => {
    const mnt = await tmpfs('whale-full')
    const home = join(mnt, 'home')
    const whale = join(home, 'whale-persona')
    await fs.mkdir(join(whale, 'presets'), { recursive: true })
    const config = JSON.stringify({ persona: { enabled: true, character: '旧正文' } }, null, 2) + '\n'
    await fs.writeFile(join(whale, 'config.json'), config)
    await fs.writeFile(join(whale, 'presets', 'mine.json'), JSON.stringify({ spec: 'whale-persona/1', id: 'mine', persona: { character: '新正文' } }))
    const filler = join(mnt, 'filler')
    await expect(fs.writeFile(filler, Buffer.alloc(4 * 1024 * 1024, 1))).rejects.toMatchObject({ code: 'ENOSPC' })
    // The lock's owner record is what the full disk refuses first: a write on a descriptor, which names no path.
    const r = cyrene(['whale', 'presets', 'apply', 'mine'], home)
    expectSystemRefusal(r, /^cyrene whale: disk full: no space left for \S*whale-persona\/config\.json\.lock\.owner\./)
    expect(r.stderr).toContain(`df -h '${whale}'`)
    expect(r.stderr).not.toContain('the memory store')
    expect(await fs.readFile(join(whale, 'config.json'), 'utf8')).toBe(config)
    expect((await fs.readdir(whale)).sort()).toEqual(['config.json', 'presets'])
    await fs.rm(filler)
    const again = cyrene(['whale', 'presets', 'apply', 'mine'], home)
    expect(again.status, again.stderr).toBe(0)
    expect(await fs.readFile(join(whale, 'config.json'), 'utf8')).toContain('新正文')
  })

  it('ELOOP: a folder of the store swapped for a link to itself: a clear message, exit 3, and the doctor still reports', async () => {
    const home = await homeWithStore(base, 'loop')
    const anchors = join(home, 'cyrene-philia093-0', '锚')
    await fs.rm(anchors, { recursive: true })
    await fs.symlink('锚', anchors)
    const before = await fs.readFile(dayFile(home))
    expectSystemRefusal(cyrene(write2, home), /^cyrene memory: a link in the store leads round in a circle: .*锚\. Nothing was changed\. Find it/)
    expect(Buffer.compare(await fs.readFile(dayFile(home)), before)).toBe(0)
    const doctor = cyrene(['doctor'], home)
    expect(doctor.status).toBe(1)
    expect(doctor.stdout).toMatch(/✗ Memory: the store at .* cannot be read: ELOOP/)
    expect(doctor.stdout).toMatch(/✓ Worldbook: /)
  })

  it('EROFS: "read-only file system", exit 3, nothing changed', async () => {
    const mnt = await tmpfs('ro')
    const home = await homeWithStore(mnt, 'home')
    expect(cyrene(['backup'], home).status).toBe(0)
    const snapshot = readdirSync(join(home, 'cyrene-philia093-0-snapshots')).find((n) => !n.startsWith('.'))!
    const before = await fs.readFile(dayFile(home))
    execFileSync('mount', ['-o', 'remount,ro', mnt])
    try {
      const r = cyrene(write2, home)
      expectSystemRefusal(r, /^cyrene memory: read-only file system: .*cyrene-philia093-0.*\. Nothing was changed\. Remount it read-write/)
      expect(Buffer.compare(await fs.readFile(dayFile(home)), before)).toBe(0)
      // A restore that cannot even start says nothing changed; it used to point at an older pre-restore snapshot.
      const restore = cyrene(['restore', snapshot], home)
      expectSystemRefusal(restore, /^cyrene restore: read-only file system: .*\. Nothing was changed\. Remount it read-write/)
      expect(Buffer.compare(await fs.readFile(dayFile(home)), before)).toBe(0)
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mnt])
    }
  })
})

describe('a reader that closes the pipe early (issue 7 item 12)', () => {
  it('`cyrene memory export | head -1` and `cyrene memory list | head -1`: no stack, exit 0', async () => {
    const home = join(base, 'pipe')
    const s = await MemoryStore.open({ env: { DSH_HOME: home } })
    // Well over a pipe buffer (64 KB), so the writer is still writing when head exits.
    const items = Array.from({ length: 1200 }, (_, i) => ({
      text: `第${i}条 ${'长'.repeat(100)}`,
      at: `2026-02-${String((i % 28) + 1).padStart(2, '0')}`,
      origin: `i${i}`,
    }))
    expect((await importItems(s, items)).imported).toBe(1200)
    for (const cmd of ['memory export', 'memory list --limit 1200']) {
      const r = spawnSync(
        'bash',
        ['--norc', '--noprofile', '-c', `"$0" "$1" ${cmd} | head -1 >/dev/null; echo "exit=\${PIPESTATUS[0]}" >&2`, process.execPath, bin],
        { env: { PATH: process.env.PATH, DSH_HOME: home, LANG: 'en_US.UTF-8' }, encoding: 'utf8' },
      )
      expect(r.stderr, cmd).toBe('exit=0\n')
    }
  })
})

describe('a file-size limit (EFBIG, RLIMIT_FSIZE) stops a write short', () => {
  it('exit 3 with the limit and what to do; the day file as it was', async () => {
    const home = await homeWithStore(base, 'efbig')
    const s = await MemoryStore.open({ env: { DSH_HOME: home } })
    // A day file over 1 KiB, which `ulimit -f 1` no longer lets anyone rewrite.
    for (let n = 0; n < 8; n++)
      await s.write({ text: `第${n}条，写得长一些好让文件超过一千字节。`, axis: '德', reason: 'r', at: '2026-01-01' }, { by: 'person' })
    const before = await fs.readFile(dayFile(home))
    expect(before.length).toBeGreaterThan(1024)
    const r = spawnSync('bash', ['--norc', '--noprofile', '-c', 'ulimit -f 1; exec "$0" "$@"', process.execPath, bin, ...write2], {
      env: { PATH: process.env.PATH, DSH_HOME: home, LANG: 'en_US.UTF-8' },
      encoding: 'utf8',
      cwd: '/',
    })
    expectSystemRefusal({ status: r.status, stdout: r.stdout, stderr: r.stderr }, /^cyrene memory: file too large: .*cyrene-philia093-0.*ulimit -f unlimited/)
    expect(Buffer.compare(await fs.readFile(dayFile(home)), before)).toBe(0)
  })
})

describe('the whale commands when the system refuses', () => {
  it('a file where the presets folder goes: exit 3, a path conflict with the mv that fixes it (it was exit 1, "check the permissions"), the file as it was', async () => {
    const home = join(base, 'whale-presets-file')
    await fs.mkdir(join(home, 'whale-persona'), { recursive: true })
    const presets = join(home, 'whale-persona', 'presets')
    await fs.writeFile(presets, 'a note of mine\n')
    const r = cyrene(['whale', 'presets', 'save', 'p1'], home)
    expectSystemRefusal(r, /^cyrene whale: path conflict: \S*whale-persona\/presets is a file where the store needs a folder\./)
    expect(r.stderr).toContain(`mv '${presets}' '${presets}.aside'`)
    expect(await fs.readFile(presets, 'utf8')).toBe('a note of mine\n')
    await fs.rename(presets, `${presets}.aside`)
    const again = cyrene(['whale', 'presets', 'save', 'p1'], home)
    expect(again.status, again.stderr).toBe(0)
  })

  it('a file-size limit is exit 3 with what to do, as for every command (it was exit 1), the inbox as it was', async () => {
    const home = join(base, 'whale-efbig')
    await fs.mkdir(join(home, 'whale-persona'), { recursive: true })
    const inbox = join(home, 'whale-persona', 'memory-inbox.jsonl')
    const lines = Array.from({ length: 40 }, (_, i) => JSON.stringify({ text: `提议的第${i}条，写得长一些`, status: 'proposed' })).join('\n') + '\n'
    await fs.writeFile(inbox, lines)
    const r = spawnSync('bash', ['--norc', '--noprofile', '-c', 'ulimit -f 1; exec "$0" "$@"', process.execPath, bin, 'whale', 'inbox', 'reject', '0'], {
      env: { PATH: process.env.PATH, DSH_HOME: home, LANG: 'en_US.UTF-8' },
      encoding: 'utf8',
      cwd: '/',
    })
    expectSystemRefusal({ status: r.status, stdout: r.stdout, stderr: r.stderr }, /^cyrene whale: file too large: .*memory-inbox\.jsonl.*ulimit -f unlimited/)
    expect(await fs.readFile(inbox, 'utf8')).toBe(lines)
  })
})
