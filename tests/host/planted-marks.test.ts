import { spawn } from 'node:child_process'
import { closeSync, constants as C, existsSync, openSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTerminal, type CliRun, type Terminal } from '../harness/cli.ts'
import { bootHost, type Host } from '../harness/host.ts'

/**
 * What a model's `bash` can leave in 元/ under the names the guard leaves to their holders (lock-shaped,
 * never put back, decision 295): a guard window's mark, or the write lock's owner record, made a FIFO.
 * Opening one for reading waits for a writer that never comes: the person's `cyrene` would hang holding
 * the store's lock, and the host's own thread (its memory writes, the opening of every call's window)
 * would stop. Such a name is read only when it is a small regular file, never through a link.
 * The real dsh-base composition in-process, the real `cyrene` bin.
 */
let host: Host
let root: string
let terminal: Terminal

beforeAll(async () => {
  const previous = process.env.DSH_PERMISSION_MODE
  process.env.DSH_PERMISSION_MODE = 'danger-full-access'
  try {
    host = await bootHost({ lang: 'en' })
  } finally {
    if (previous === undefined) delete process.env.DSH_PERMISSION_MODE
    else process.env.DSH_PERMISSION_MODE = previous
  }
  await host.ctx.get('cyreneMemory').ready
  await host.recallReady()
  root = host.ctx.get('cyreneMemory').store().root
  terminal = openTerminal({ ...process.env, DSH_HOME: host.dshHome })
})
afterAll(async () => {
  terminal?.close()
  await host?.dispose()
})

const text = (r: { content: unknown }) => JSON.stringify(r.content)
const settled = () => host.ctx.get('cyreneStoreGuard').effects.whenSettled()
const write = (t: string) => ['memory', 'write', t, '--kind', 'fact', '--axis', '智', '--reason', 'the person said so', '--lang', 'en']

/** Gives every reader waiting on the FIFO an end of file (a writer opens and closes it), and removes it. */
function unplug(fifo: string): void {
  for (let i = 0; i < 20; i++) {
    try {
      closeSync(openSync(fifo, C.O_WRONLY | C.O_NONBLOCK))
    } catch {
      // no reader waiting
    }
  }
  rmSync(fifo, { force: true })
}

/**
 * A process of the test's own that, `afterMs` from now, ends every read waiting on the FIFO: this thread may be
 * the one stopped on it, so it cannot do that itself.
 */
function unplugLater(fifo: string, afterMs: number): () => void {
  const child = spawn(
    process.execPath,
    [
      '-e',
      `const fs = require('node:fs'); setTimeout(() => { const end = Date.now() + 3000; const t = setInterval(() => { try { fs.closeSync(fs.openSync(${JSON.stringify(fifo)}, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)) } catch {} if (Date.now() > end) clearInterval(t) }, 20) }, ${afterMs})`,
    ],
    { stdio: 'ignore' },
  )
  return () => void child.kill('SIGKILL')
}

/** The model's call that plants a FIFO at `rel` in 元/ (through base64, past the early refusal). */
async function plant(agent: unknown, rel: string): Promise<string> {
  const fifo = join(root, '元', rel)
  const command = `echo ${Buffer.from(`mkfifo '${fifo}'`).toString('base64')} | base64 -d | bash; echo planted`
  const r = await host.tool(agent, 'bash', { command, description: 'plant' })
  expect(text(r)).toContain('planted')
  await settled()
  expect(existsSync(fifo)).toBe(true)
  return fifo
}

describe('a FIFO planted where the guard leaves a lock-shaped name', () => {
  it("a FIFO named as another process's window mark: the person's cyrene write does not hang on it", async () => {
    const agent = await host.createAgent('standard', host.scratch)
    const fifo = await plant(agent, 'guard-window.1.lock')
    try {
      const ran = await Promise.race([
        terminal.run(write('a line written beside a planted FIFO')),
        new Promise<CliRun>((r) => setTimeout(() => r({ status: -1, stdout: '', stderr: 'hung' }), 15_000)),
      ])
      expect(ran.status, ran.stderr).toBe(0)
    } finally {
      unplug(fifo)
    }
  }, 60_000)

  it("a FIFO named as another process's window mark: the engine's own memory_write does not stop the host on it", async () => {
    const agent = await host.createAgent('chat', host.scratch)
    const fifo = await plant(agent, 'guard-window.1.lock')
    const stop = unplugLater(fifo, 8_000)
    try {
      const t0 = Date.now()
      const w = await host.tool(agent, 'memory_write', { text: '她喜欢下雨天。', kind: 'preference', axis: '美', reason: '她说的' })
      const took = Date.now() - t0
      expect(w.isError, text(w)).toBe(false)
      expect(took).toBeLessThan(5_000)
    } finally {
      stop()
      unplug(fifo)
    }
  }, 60_000)

  it("a FIFO in the write lock's owner record: the next call's window opens without stopping the host", async () => {
    const agent = await host.createAgent('standard', host.scratch)
    const fifo = await plant(agent, 'write.lock.owner')
    const stop = unplugLater(fifo, 8_000)
    try {
      const t0 = Date.now()
      const r = await host.tool(agent, 'bash', { command: 'echo next', description: 'next' })
      const took = Date.now() - t0
      expect(text(r)).toContain('next')
      expect(took).toBeLessThan(5_000)
    } finally {
      stop()
      unplug(fifo)
    }
  }, 60_000)
})
