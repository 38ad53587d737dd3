import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { acquire, reclaim, LockBusyError } from './lock.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
let lock: string
beforeEach(async () => { t = await tempHome(); lock = join(t.home, 'x.lock') })
afterEach(async () => { await t.cleanup() })

const DEAD = 2 ** 22 + 4321
const owner = async (pid: number, ino?: number) => fs.writeFile(`${lock}.owner`, JSON.stringify({ pid, host: hostname(), at: 'x', purpose: 't', ino: ino ?? (await fs.stat(lock)).ino }))
const gone = async () => fs.stat(lock).then(() => false, () => true)

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
    expect((await fs.readdir(t.home)).filter((n) => n.includes('intent'))).toEqual([])
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
  it('waits, then names the holder when it gives up', async () => {
    const held = await acquire({ path: lock, purpose: 'first' })
    const err = await acquire({ path: lock, purpose: 'second', waitMs: 100 }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LockBusyError)
    expect((err as Error).message).toMatch(new RegExp(`process ${process.pid} .*first`))
    await held.release()
    const again = await acquire({ path: lock, purpose: 'third', waitMs: 100 })
    await again.release()
    expect((await fs.readdir(t.home)).filter((n) => n.startsWith('x.lock'))).toEqual([])
  })
})
