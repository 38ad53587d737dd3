import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { MemoryStore } from './store.ts'
import { checkStore } from './check.ts'
import { RefusedError } from './validate.ts'
import { spawnWriter, type Worker } from './testing/spawn.ts'
import { tempHome } from './testing/tmp.ts'

// The lock itself (reclaim, waiting, paused holders, takeovers, a full disk) is tested in durable/lock.test.ts;
// here: what the store does with it.

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

describe('a paused holder keeps its lock; nobody removes what is not theirs (issue 7 item 3)', () => {
  it('assertOwned throws synchronously once the owner record is not ours, and replaceFile then leaves the file unchanged (issue 7 item 3)', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const r = await store.write({ text: '原来的一件事', kind: 'fact', axis: '德', reason: 'r' }, { by: 'person' })
    const before = await fs.readFile(store.path(r.file))
    const writeLock = join(t.root, '元', 'write.lock')
    let other = ''
    await store.withWriteLock(async (held) => {
      expect(() => held.assertOwned()).not.toThrow()
      const mine = JSON.parse(await fs.readFile(`${writeLock}.owner`, 'utf8')) as Record<string, unknown>
      other = JSON.stringify({ ...mine, pid: process.ppid, token: 'another-holder' })
      await fs.writeFile(`${writeLock}.owner`, other)
      let thrown: unknown
      try {
        held.assertOwned()
      } catch (e) {
        thrown = e
      }
      expect(thrown).toBeInstanceOf(RefusedError)
      expect(thrown).toMatchObject({ code: 'lock-lost' })
      expect((thrown as Error).message).toMatch(/abandoned.*nothing was written/)
      await expect(store.replaceFile(r.file, 'overwritten\n', held)).rejects.toMatchObject({ code: 'lock-lost' })
    })
    expect(await fs.readFile(store.path(r.file))).toEqual(before)
    // Leaving the lock did not remove the other holder's record or folder.
    expect(await fs.readFile(`${writeLock}.owner`, 'utf8')).toBe(other)
    await expect(fs.stat(writeLock)).resolves.toBeDefined()
  })

  it('P1 stopped mid-write past the stale time, P2 and P3 write meanwhile: every acknowledged write is stored, never two holders at once, check clean (issue 7 item 3)', async () => {
    const holdLog = join(t.home, 'holders.log')
    const opts = { staleMs: 2000, holdLog }
    const holders = async () => (await fs.readFile(holdLog, 'utf8')).split('\n').filter((l) => l !== '')
    const p1 = spawnWriter(t.home, 1, 'p1', { ...opts, pauseAfterReadMs: 1000 })
    await p1.holding
    p1.child.kill('SIGSTOP')
    let p2: Worker | undefined
    let p3: Worker | undefined
    try {
      // The stop landed inside P1's write: it holds the lock and has read the day file.
      expect(await holders()).toEqual([`+${p1.child.pid}`])
      await sleep(3500) // the lock has not been refreshed for longer than the stale time
      p2 = spawnWriter(t.home, 1, 'p2', opts)
      p3 = spawnWriter(t.home, 1, 'p3', opts)
      await Promise.all([p2.ready, p3.ready])
      await sleep(1500) // time enough for them to take the lock, were it taken from a live holder
      expect(p2.acks.size + p3.acks.size).toBe(0)
      expect(JSON.parse(await fs.readFile(join(t.root, '元', 'write.lock.owner'), 'utf8'))).toMatchObject({ pid: p1.child.pid })
    } finally {
      p1.child.kill('SIGCONT')
    }
    const workers = [p1, p2!, p3!]
    const codes = await Promise.all(workers.map((w) => w.done))
    expect(codes, workers.map((w) => w.stderr()).join('\n')).toEqual([0, 0, 0])
    // One holder at a time: +a -a +b -b +c -c.
    const log = await holders()
    expect(log).toHaveLength(6)
    for (let i = 0; i < log.length; i += 2) {
      expect(log[i]!.startsWith('+')).toBe(true)
      expect(log[i + 1]).toBe(`-${log[i]!.slice(1)}`)
    }
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const { entries, problems } = await store.scan()
    expect(problems).toEqual([])
    const acked = new Map(workers.flatMap((w) => [...w.acks]))
    expect(acked.size).toBe(3)
    const byId = new Map(entries.map((e) => [e.id, e.text]))
    for (const [id, text] of acked) expect(byId.get(id), `acknowledged ${id} missing`).toBe(text)
    expect(entries).toHaveLength(3)
    expect((await checkStore(store)).errors).toEqual([])
  }, 60_000)
})
