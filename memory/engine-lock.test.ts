import { afterEach, beforeEach, expect, it } from 'vitest'
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { openEngine, EngineBusyError, MemoryStore } from './store.ts'
import { tempHome } from './testing/tmp.ts'

const HOLDER = fileURLToPath(new URL('./testing/engine-holder.ts', import.meta.url))
let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => { t = await tempHome() })
afterEach(async () => { await t.cleanup() })

it('an engine in another process is reported; once that process is SIGKILLed its lock is reclaimed at once', async () => {
  const child = spawn(process.execPath, [HOLDER, t.home], { stdio: ['ignore', 'pipe', 'inherit'] })
  await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => { if (d.toString().includes('READY')) resolve() }))
  const err = await openEngine({ env: { DSH_HOME: t.home } }).then(() => undefined, (e: unknown) => e)
  expect(err).toBeInstanceOf(EngineBusyError)
  expect((err as EngineBusyError).owner?.pid).toBe(child.pid)
  expect((err as Error).message).toMatch(new RegExp(`process ${child.pid}`))
  const status = await (await MemoryStore.open({ env: { DSH_HOME: t.home } })).engineStatus()
  expect(status).toMatchObject({ held: true, alive: true, mine: false })
  child.kill('SIGKILL')
  await new Promise((r) => child.on('close', r))
  const mine = await openEngine({ env: { DSH_HOME: t.home } })
  expect((await mine.engineStatus()).mine).toBe(true)
  await mine.close()
})
