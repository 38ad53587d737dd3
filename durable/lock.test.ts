import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { spawnSync } from 'node:child_process'
import { promises as fs } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { acquire, holdsOpen, reclaim, LockBusyError, LockLostError } from './lock.ts'
import { spawnLockHolder } from './testing/spawn.ts'
import { useTmpfs } from './testing/use-tmpfs.ts'

let dir = ''
let lock: string
beforeEach(async () => {
  dir = await fs.mkdtemp(join(tmpdir(), 'cyrene-lock-'))
  lock = join(dir, 'x.lock')
})
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true })
})

const DEAD = 2 ** 22 + 4321
const owner = async (pid: number, ino?: number) =>
  fs.writeFile(`${lock}.owner`, JSON.stringify({ pid, host: hostname(), at: 'x', purpose: 't', ino: ino ?? (await fs.stat(lock)).ino }))
const gone = async () =>
  fs.stat(lock).then(
    () => false,
    () => true,
  )

describe('reclaim', () => {
  it('keeps a lock whose owner is alive', async () => {
    await fs.mkdir(lock)
    await owner(process.ppid)
    expect(reclaim(lock, 10_000)).toBe(false)
    expect(await gone()).toBe(false)
  })
  it('removes a lock whose owner is dead, record first', async () => {
    await fs.mkdir(lock)
    await owner(DEAD)
    expect(reclaim(lock, 10_000)).toBe(true)
    expect(await gone()).toBe(true)
    await expect(fs.stat(`${lock}.owner`)).rejects.toThrow()
  })
  it('does not trust a dead owner record of another lock folder', async () => {
    await fs.mkdir(lock)
    await owner(DEAD, 1)
    await fs.writeFile(`${lock}.intent.${process.ppid}`, '')
    expect(reclaim(lock, 10_000)).toBe(false)
  })
  it('an ownerless lock: kept while a live process is midway, removed when nobody is; dead intents cleared', async () => {
    await fs.mkdir(lock)
    await fs.writeFile(`${lock}.intent.${process.ppid}`, '')
    await fs.writeFile(`${lock}.intent.${DEAD}`, '')
    expect(reclaim(lock, 10_000)).toBe(false)
    await fs.unlink(`${lock}.intent.${process.ppid}`)
    expect(reclaim(lock, 10_000)).toBe(true)
    expect((await fs.readdir(dir)).filter((n) => n.includes('intent'))).toEqual([])
  })
  it('a FIFO planted as an intent is judged by its pid, never opened to wait for a writer', async () => {
    await fs.mkdir(lock)
    execFileSync('mkfifo', [`${lock}.intent.${DEAD}`])
    expect(reclaim(lock, 10_000)).toBe(true)
    expect((await fs.readdir(dir)).filter((n) => n.includes('intent'))).toEqual([])
  })
  it('removes a lock not refreshed for the stale time, even with a live owner elsewhere', async () => {
    await fs.mkdir(lock)
    await fs.writeFile(`${lock}.owner`, JSON.stringify({ pid: 1, host: 'another-machine', at: 'x', purpose: 't', ino: (await fs.stat(lock)).ino }))
    expect(reclaim(lock, 10_000)).toBe(false)
    const old = new Date(Date.now() - 60_000)
    await fs.utimes(lock, old, old)
    expect(reclaim(lock, 10_000)).toBe(true)
  })
  it('does nothing while another reclaimer holds the guard', async () => {
    await fs.mkdir(lock)
    await owner(DEAD)
    await fs.mkdir(`${lock}.reaping`)
    expect(reclaim(lock, 10_000)).toBe(false)
    expect(await gone()).toBe(false)
  })
})

describe('acquire', () => {
  it('a folder with no record, kept by an intent naming a live process (forged: pid 1), is refused naming the files to remove', async () => {
    await fs.mkdir(lock)
    await fs.writeFile(`${lock}.intent.1`, '')
    const err = await acquire({ path: lock, purpose: 'second', waitMs: 100 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LockBusyError)
    expect((err as LockBusyError).said).toEqual({ code: 'refused.busy-unowned', params: { lock, intents: `${lock}.intent.1` } })
    expect((err as Error).message).toContain(`rm -r '${lock}' '${lock}.intent.1'`)
    // Removed as it says, the lock is taken at once.
    await fs.rm(lock, { recursive: true })
    await fs.rm(`${lock}.intent.1`)
    await (await acquire({ path: lock, purpose: 'third', waitMs: 100 })).release()
  })

  it('a link (dangling or to a folder) or a file where the folder goes is refused at once, naming what to remove; nothing it points to is touched', async () => {
    const target = join(dir, 'elsewhere')
    for (const [make, shape] of [
      [() => fs.symlink(join(dir, 'nothing-there'), lock), 'link'],
      [async () => (await fs.mkdir(target), await fs.symlink(target, lock)), 'link'],
      [() => fs.writeFile(lock, ''), 'file'],
    ] as const) {
      await make()
      // The wait is far longer than the test may take: a refusal that waited (or spun, as a dangling link once did) fails it.
      const err = await acquire({ path: lock, purpose: 'second', waitMs: 600_000 }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(LockBusyError)
      expect((err as LockBusyError).said).toEqual({ code: `refused.lock-${shape}`, params: { lock } })
      expect((err as Error).message).toContain(`rm '${lock}'`)
      await fs.rm(lock)
      await (await acquire({ path: lock, purpose: 'third', waitMs: 100 })).release()
    }
    expect(await fs.readdir(target)).toEqual([])
  })

  it('waits, then names the holder when it gives up', async () => {
    const held = await acquire({ path: lock, purpose: 'first' })
    const err = await acquire({ path: lock, purpose: 'second', waitMs: 100 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LockBusyError)
    expect((err as Error).message).toMatch(new RegExp(`process ${process.pid} .*first`))
    await held.release()
    const again = await acquire({ path: lock, purpose: 'third', waitMs: 100 })
    await again.release()
    expect((await fs.readdir(dir)).filter((n) => n.startsWith('x.lock'))).toEqual([])
  })
})

/** Start time of a process as Linux reports it (field 22 of /proc/<pid>/stat), read here independently of lock.ts. */
async function startOf(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19])
}

describe('a paused holder keeps its lock; nobody removes what is not theirs (issue 7 item 3)', () => {
  it('a lock whose owner on this host is alive but stopped (SIGSTOP) is never reclaimed, however old; a waiter names it as paused (issue 7 item 3)', async () => {
    const h = spawnLockHolder(lock, 2000, 'first')
    expect(await h.next('READY', 'EXITED')).toBe('READY')
    h.child.kill('SIGSTOP')
    try {
      // Far past the stale time, as if it had been stopped for a minute.
      const old = new Date(Date.now() - 60_000)
      await fs.utimes(lock, old, old)
      expect(reclaim(lock, 2000)).toBe(false)
      const err = await acquire({ path: lock, purpose: 'second', staleMs: 2000, waitMs: 300 }).catch((e: unknown) => e)
      expect(err).toBeInstanceOf(LockBusyError)
      expect((err as LockBusyError).owner?.pid).toBe(h.child.pid)
      expect((err as Error).message).toMatch(new RegExp(`process ${h.child.pid} .*first.*since .*paused or still working`))
      expect((err as LockBusyError).alive).toBe(true)
    } finally {
      h.child.kill('SIGCONT')
    }
    const released = h.next('RELEASED', 'EXITED')
    h.send('release')
    expect(await released).toBe('RELEASED')
    h.child.stdin!.end()
    expect(await h.done).toBe(0)
    expect(await gone()).toBe(true)
  })

  it('pid reuse: a record of this host naming a live pid with another start time is reclaimed; with the right start time it is kept (issue 7 item 3)', async () => {
    await fs.mkdir(lock)
    const ino = (await fs.stat(lock)).ino
    const record = { pid: process.ppid, host: hostname(), at: 'x', purpose: 't', ino, token: 'someone' }
    await fs.writeFile(`${lock}.owner`, JSON.stringify({ ...record, start: await startOf(process.ppid) }))
    expect(reclaim(lock, 10_000)).toBe(false)
    await fs.writeFile(`${lock}.owner`, JSON.stringify({ ...record, start: (await startOf(process.ppid)) + 1 }))
    expect(reclaim(lock, 10_000)).toBe(true)
    expect(await gone()).toBe(true)
  })

  it('a record from another pid namespace (a container with the same hostname) is judged like another host: kept while fresh, even if that pid is dead here (issue 7 item 3)', async () => {
    await fs.mkdir(lock)
    const ns = await fs.readlink('/proc/self/ns/pid')
    await fs.writeFile(
      `${lock}.owner`,
      JSON.stringify({ pid: DEAD, host: hostname(), pidns: `${ns}-elsewhere`, at: 'x', purpose: 't', ino: (await fs.stat(lock)).ino }),
    )
    expect(reclaim(lock, 10_000)).toBe(false)
    const old = new Date(Date.now() - 60_000)
    await fs.utimes(lock, old, old)
    expect(reclaim(lock, 10_000)).toBe(true)
  })

  it('release by a process whose lock was taken over (another host) leaves the new folder, record and mtime alone (issue 7 item 3)', async () => {
    const h = spawnLockHolder(lock, 2000)
    expect(await h.next('READY', 'EXITED')).toBe('READY')
    // Another machine judged the lock stale, removed it and took it.
    await fs.unlink(`${lock}.owner`)
    await fs.rmdir(lock)
    await fs.mkdir(lock)
    const theirs = JSON.stringify({ pid: 4242, host: 'another-machine', at: 'x', purpose: 'theirs', ino: (await fs.stat(lock)).ino, token: 'theirs' })
    await fs.writeFile(`${lock}.owner`, theirs)
    const when = new Date(Date.now() - 5000)
    await fs.utimes(lock, when, when)
    const before = await fs.stat(lock)
    // Long enough for the old holder's refresh timer (every 1 s at this stale time) to run.
    await sleep(1500)
    const asserted = h.next('OWNED', 'LOST', 'EXITED')
    h.send('assert')
    const assertion = await asserted
    const released = h.next('RELEASED', 'EXITED')
    h.send('release')
    expect(await released).toBe('RELEASED')
    h.send('exit')
    await h.done
    const after = await fs.stat(lock)
    expect(after.ino).toBe(before.ino)
    expect(await fs.readFile(`${lock}.owner`, 'utf8')).toBe(theirs)
    expect(after.mtimeMs).toBe(before.mtimeMs)
    expect((await fs.readdir(dir)).filter((n) => n.includes('intent'))).toEqual([])
    expect(assertion).toMatch(/^LOST .*nothing was written/)
  })

  it('assertOwned throws a LockLostError (code lock-lost, the message of before) once the owner record is not ours (issue 8: the lock lives in durable/)', async () => {
    const held = await acquire({ path: lock, purpose: 'write' })
    expect(() => held.assertOwned()).not.toThrow()
    const mine = JSON.parse(await fs.readFile(`${lock}.owner`, 'utf8')) as Record<string, unknown>
    await fs.writeFile(`${lock}.owner`, JSON.stringify({ ...mine, token: 'another-holder' }))
    let thrown: unknown
    try {
      held.assertOwned()
    } catch (e) {
      thrown = e
    }
    expect(thrown).toBeInstanceOf(LockLostError)
    expect(thrown).toMatchObject({ code: 'lock-lost' })
    expect((thrown as Error).message).toMatch(/abandoned.*nothing was written.*owner record now names/)
    expect(held.compromised()).toBe(true)
    await held.release()
    await expect(fs.stat(lock)).resolves.toBeDefined()
  })
})

describe('on a full disk (a real 1 MiB tmpfs)', () => {
  const tmpfs = useTmpfs('1m')

  it('release still frees the lock when the disk filled up meanwhile (intent files now carry host and start time; a live holder must never strand its lock)', async () => {
    const full = join(tmpfs.dir, 'x.lock')
    const held = await acquire({ path: full, purpose: 'write' })
    // Fill the disk to the last byte.
    const fh = await fs.open(join(tmpfs.dir, 'filler'), 'w')
    try {
      for (;;) await fh.write(Buffer.alloc(64 * 1024, 1))
    } catch (e) {
      expect((e as NodeJS.ErrnoException).code).toBe('ENOSPC')
    } finally {
      await fh.close()
    }
    await held.release()
    expect((await fs.readdir(tmpfs.dir)).sort()).toEqual(['filler'])
    await fs.unlink(join(tmpfs.dir, 'filler'))
  })
})

describe('records a tool call planted under a lock’s names (元/ is writable to a model’s process)', () => {
  for (const [what, plant] of [
    ['a FIFO nobody reads', (p: string) => expect(spawnSync('mkfifo', [p]).status).toBe(0)],
    ['a link to /dev/zero', (p: string) => fs.symlink('/dev/zero', p)],
    ['a folder', (p: string) => fs.mkdir(join(p, 'inner'), { recursive: true })],
  ] as const) {
    it(`${what} where the owner record goes: taken without waiting, the record a file of its own`, async () => {
      await plant(`${lock}.owner`)
      // In a process of its own: a thread stopped on a FIFO would stop this test runner with it.
      const holder = spawnLockHolder(lock, 10_000, 'planted')
      try {
        const first = await Promise.race([holder.next('READY', 'EXITED'), sleep(10_000).then(() => 'STILL WAITING')])
        expect(first).toBe('READY')
        expect((await fs.lstat(`${lock}.owner`)).isFile()).toBe(true)
        expect(JSON.parse(await fs.readFile(`${lock}.owner`, 'utf8'))).toMatchObject({ pid: holder.child.pid, purpose: 'planted' })
        holder.send('release')
        expect(await holder.next('RELEASED', 'EXITED')).toBe('RELEASED')
        expect(await gone()).toBe(true)
      } finally {
        holder.child.kill('SIGKILL')
      }
    }, 20_000)
  }
})

it('a record name that is a second name of another file (a hard link a tool call made) never writes into that file', async () => {
  const memory = join(dir, 'anchor.md')
  await fs.writeFile(memory, 'the person’s own words\n')
  await fs.link(memory, `${lock}.owner`)
  await fs.link(memory, `${lock}.intent.${process.pid}`)
  const held = await acquire({ path: lock, purpose: 'write', waitMs: 1000 })
  expect(await fs.readFile(memory, 'utf8')).toBe('the person’s own words\n')
  expect((await fs.stat(memory)).nlink).toBe(1)
  expect(JSON.parse(await fs.readFile(`${lock}.owner`, 'utf8'))).toMatchObject({ pid: process.pid, purpose: 'write' })
  await held.release()
  expect(await fs.readFile(memory, 'utf8')).toBe('the person’s own words\n')
})

/** A real second process: `sleep`, which opens nothing of ours; or one that opens `file` and holds it (a holder's proof). */
async function liveProcess(file?: string): Promise<ChildProcess> {
  const child =
    file === undefined
      ? spawn('sleep', ['600'], { stdio: 'ignore' })
      : spawn(process.execPath, ['-e', "require('fs').openSync(process.argv[1], 'r'); console.log('READY'); setInterval(() => {}, 1e6)", file], {
          stdio: ['ignore', 'pipe', 'inherit'],
        })
  if (file !== undefined) await new Promise((resolve) => child.stdout!.once('data', resolve))
  else await new Promise((resolve) => child.once('spawn', resolve))
  return child
}

const longAgo = () => new Date(Date.now() - 60_000)

describe('a lock record a tool call forged for a live process (decision 326)', () => {
  const forge = async (pid: number) => {
    await fs.mkdir(lock)
    await fs.writeFile(
      `${lock}.owner`,
      JSON.stringify({ pid, host: hostname(), at: 'x', purpose: 'write', ino: (await fs.stat(lock)).ino, token: 'forged', start: await startOf(pid) }),
    )
  }

  it('naming a live process that never opened it (a real second process, this very process, pid 1): kept while fresh, taken once not refreshed for the stale time, or with a time in the future', async () => {
    const child = await liveProcess()
    try {
      for (const pid of [child.pid!, process.pid, 1]) {
        await forge(pid)
        // Fresh: a holder of an earlier version, which refreshes and does not hold its record, is never taken.
        expect(reclaim(lock, 2000)).toBe(false)
        await fs.utimes(lock, longAgo(), longAgo())
        expect(reclaim(lock, 2000)).toBe(true)
        expect(await gone()).toBe(true)
        await forge(pid)
        const future = new Date(Date.now() + 365 * 86_400_000)
        await fs.utimes(lock, future, future)
        expect(reclaim(lock, 2000)).toBe(true)
      }
    } finally {
      child.kill('SIGKILL')
    }
  })

  it('a writer that finds one waits the stale time and writes, where it waited out and refused', async () => {
    const child = await liveProcess()
    try {
      await forge(child.pid!)
      const held = await acquire({ path: lock, purpose: 'person', staleMs: 2000, waitMs: 20_000 })
      expect(JSON.parse(await fs.readFile(`${lock}.owner`, 'utf8'))).toMatchObject({ pid: process.pid, purpose: 'person' })
      await held.release()
    } finally {
      child.kill('SIGKILL')
    }
  }, 30_000)

  it('a record its live process holds open is kept however old; a link to a file a process holds open is not its record', async () => {
    await fs.mkdir(lock)
    await fs.writeFile(`${lock}.owner`, '')
    const holder = await liveProcess(`${lock}.owner`)
    try {
      await fs.writeFile(
        `${lock}.owner`,
        JSON.stringify({ pid: holder.pid, host: hostname(), at: 'x', purpose: 'write', ino: (await fs.stat(lock)).ino, start: await startOf(holder.pid!) }),
      )
      await fs.utimes(lock, longAgo(), longAgo())
      expect(holdsOpen(holder.pid!, `${lock}.owner`)).toBe(true)
      expect(reclaim(lock, 2000)).toBe(false)
      // The same file under a second name: the proof a live holder lends its own record is not lent to a link.
      await fs.link(`${lock}.owner`, join(dir, 'second-name'))
      expect(holdsOpen(holder.pid!, `${lock}.owner`)).toBe(false)
      expect(reclaim(lock, 2000)).toBe(true)
    } finally {
      holder.kill('SIGKILL')
    }
  })

  it('an intent naming a live process keeps a record-less lock only while held open or fresh', async () => {
    const child = await liveProcess()
    try {
      await fs.mkdir(lock)
      await fs.writeFile(`${lock}.intent.${child.pid}`, '')
      expect(reclaim(lock, 2000)).toBe(false)
      await fs.utimes(`${lock}.intent.${child.pid}`, longAgo(), longAgo())
      expect(reclaim(lock, 2000)).toBe(true)
      await expect(fs.stat(`${lock}.intent.${child.pid}`)).rejects.toThrow()
    } finally {
      child.kill('SIGKILL')
    }
    await fs.mkdir(lock)
    await fs.writeFile(join(dir, 'made'), '')
    const holder = await liveProcess(join(dir, 'made'))
    try {
      await fs.rename(join(dir, 'made'), `${lock}.intent.${holder.pid}`)
      await fs.utimes(`${lock}.intent.${holder.pid}`, longAgo(), longAgo())
      expect(reclaim(lock, 2000)).toBe(false)
    } finally {
      holder.kill('SIGKILL')
    }
  })

  it('a holder holds its record open from taking the lock until it is removed; what cannot be read is believed', async () => {
    const held = await acquire({ path: lock, purpose: 'first', staleMs: 2000 })
    expect(holdsOpen(process.pid, `${lock}.owner`)).toBe(true)
    await fs.utimes(lock, longAgo(), longAgo())
    expect(reclaim(lock, 2000)).toBe(false)
    await held.release()
    expect(await gone()).toBe(true)
    // No process there to read (gone): kept, never taken on an error.
    await fs.writeFile(join(dir, 'record'), '')
    expect(holdsOpen(DEAD, join(dir, 'record'))).toBe(true)
  })
})
