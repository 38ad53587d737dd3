import { afterEach, beforeEach, expect, it } from 'vitest'
import { setTimeout as sleep } from 'node:timers/promises'
import { MemoryStore } from './store.ts'
import { openEngine } from './engine.ts'
import { EngineBusyError } from './engine-lock.ts'
import { spawnEngineHolder } from './testing/spawn.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

it('an engine in another process is reported; once that process is SIGKILLed its lock is reclaimed at once', async () => {
  const h = spawnEngineHolder(t.home)
  expect(await h.next('READY', 'EXITED')).toBe('READY')
  const err = await openEngine({ env: { DSH_HOME: t.home } }).then(
    () => undefined,
    (e: unknown) => e,
  )
  expect(err).toBeInstanceOf(EngineBusyError)
  expect((err as EngineBusyError).owner?.pid).toBe(h.child.pid)
  expect((err as Error).message).toMatch(new RegExp(`process ${h.child.pid}`))
  const status = await (await MemoryStore.open({ env: { DSH_HOME: t.home } })).engineStatus()
  expect(status).toMatchObject({ held: true, alive: true, mine: false })
  h.child.kill('SIGKILL')
  await h.done
  const mine = await openEngine({ env: { DSH_HOME: t.home } })
  expect((await mine.engineStatus()).mine).toBe(true)
  await mine.close()
})

it('an engine holder paused (SIGSTOP) past the stale time keeps the engine: a second openEngine is refused (issue 7 item 3)', async () => {
  const h = spawnEngineHolder(t.home, 2000)
  expect(await h.next('READY', 'EXITED')).toBe('READY')
  h.child.kill('SIGSTOP')
  try {
    await sleep(3000) // no refresh for longer than the stale time
    const err = await openEngine({ env: { DSH_HOME: t.home }, lockStaleMs: 2000 }).then(
      (s) => s.close(),
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(EngineBusyError)
    expect((err as EngineBusyError).owner?.pid).toBe(h.child.pid)
    expect((err as Error).message).toMatch(/paused or still working/)
    const status = await (await MemoryStore.open({ env: { DSH_HOME: t.home } })).engineStatus()
    expect(status).toMatchObject({ held: true, alive: true, mine: false })
  } finally {
    h.child.kill('SIGCONT')
    h.child.kill('SIGKILL')
    await h.done
  }
  const next = await openEngine({ env: { DSH_HOME: t.home }, lockStaleMs: 2000 })
  await next.close()
})
