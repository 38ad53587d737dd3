import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { spawnLockHolder } from '../../durable/testing/spawn.ts'
import { openTerminal, runCyrene, type Terminal } from '../harness/cli.ts'
import { bootFullAccessHost, type Host } from '../harness/host.ts'

/**
 * The person's `cyrene` while a model's tool call runs in DSH (decision 295): the store guard puts back
 * every change it did not make while a call's window is open, so the person's write waits for the window
 * and lands after it, or refuses having changed nothing; a write already under way when a call starts
 * ends first and is kept. The real dsh-base composition in-process, the real `cyrene` bin.
 */
let host: Host
let root: string
/** The person's terminal, opened before any tool call. */
let terminal: Terminal

beforeAll(async () => {
  host = await bootFullAccessHost({
    lang: 'en',
    prepareHome: (home) => {
      mkdirSync(join(home, 'whale-persona'), { recursive: true })
      writeFileSync(join(home, 'whale-persona', 'config.json'), '{"memory":{}}\n')
      writeFileSync(
        join(home, 'whale-persona', 'memory-inbox.jsonl'),
        `${JSON.stringify({ text: '她喜欢茶', at: '2026-12-01T03:04:05Z', status: 'proposed' })}\n`,
      )
    },
  })
  root = host.ctx.get('cyreneMemory').store().root
  // Long enough for a call of 3 s, short enough for one of 8 s to outlast it.
  writeFileSync(join(root, '元/settings.json'), JSON.stringify({ lock: { waitSeconds: 4 } }))
  terminal = openTerminal(env())
})
afterAll(async () => {
  terminal?.close()
  await host?.dispose()
})

const env = () => ({ ...process.env, DSH_HOME: host.dshHome })
const write = (text: string) => ['memory', 'write', text, '--kind', 'fact', '--axis', '智', '--reason', 'the person said so', '--lang', 'en']
const text = (r: { content: unknown }) => JSON.stringify(r.content)
const marks = () => readdirSync(join(root, '元')).filter((n) => n.startsWith('guard-window.'))
const after = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function listed(): Promise<string> {
  const list = await runCyrene(['memory', 'list', '--json'], env())
  expect(list.status, list.stderr).toBe(0)
  return list.stdout
}

describe("the person's cyrene while a model's tool call runs", () => {
  it('a write made while a bash call sleeps waits for the call to end and is kept', async () => {
    const agent = await host.createAgent('standard', host.scratch)
    const call = host.tool(agent, 'bash', { command: 'sleep 3; echo slept', description: 'wait' })
    await after(1000)
    // The window is marked for other processes while it is open.
    expect(marks()).toEqual([`guard-window.${process.pid}.lock`])
    const person = terminal.run(write('I keep a ginger cat called Tuanzi'))
    const [result, wrote] = await Promise.all([call, person])
    expect(wrote.status, wrote.stderr).toBe(0)
    // The person is told why the command waits, once.
    expect(wrote.stderr.split(`a model tool call is running in DSH (process ${process.pid})`), wrote.stderr).toHaveLength(2)
    // Nothing of the person's was put back and blamed on the call.
    expect(text(result)).toContain('slept')
    expect(text(result)).not.toContain('put back')
    await host.ctx.get('cyreneStoreGuard').effects.whenSettled()
    expect(marks()).toEqual([])
    expect(await listed()).toContain('ginger cat called Tuanzi')
  }, 60_000)

  it('a write that cannot wait long enough refuses, saying why, and changes nothing', async () => {
    const agent = await host.createAgent('standard', host.scratch)
    const call = host.tool(agent, 'bash', { command: 'sleep 8; echo slept', description: 'wait' })
    await after(800)
    const wrote = await terminal.run(write('a line that must not be half written'))
    expect(wrote.status).toBe(2)
    expect(wrote.stderr).toContain(`a tool call of DSH (process ${process.pid})`)
    expect(wrote.stderr).toContain('Nothing was changed')
    const result = await call
    expect(text(result)).not.toContain('put back')
    expect(await listed()).not.toContain('must not be half written')
  }, 60_000)

  it('a write refused while a process a call left running holds the window names that process, so the person can end it', async () => {
    const agent = await host.createAgent('standard', host.scratch)
    const result = await host.tool(agent, 'bash', { command: 'nohup sleep 20 >/dev/null 2>&1 & echo started', description: 'leave one running' })
    expect(text(result)).toContain('started')
    const wrote = await terminal.run(write('a line written while a sleeper holds the window'))
    expect(wrote.status).toBe(2)
    const named = /what keeps it open is (\d+) \(sleep\)/.exec(wrote.stderr)
    expect(named, wrote.stderr).not.toBeNull()
    // Ending it ends the window, as the message says.
    process.kill(Number(named![1]), 'SIGTERM')
    await host.ctx.get('cyreneStoreGuard').effects.whenSettled()
    expect((await terminal.run(write('written once the sleeper ended'))).status).toBe(0)
    expect(await listed()).toContain('written once the sleeper ended')
    expect(await listed()).not.toContain('while a sleeper holds the window')
  }, 60_000)

  it("a mark a call forges for a live process that holds no window (DSH itself, pid 1) neither holds nor refuses the person's write (decision 318)", async () => {
    const agent = await host.createAgent('standard', host.scratch)
    // Lock-shaped names in 元/ are left to their holders, never put back: before decision 318 either mark made every write wait, then refuse.
    const forge = (pid: number) =>
      `printf '%s' '${JSON.stringify({ pid, host: hostname(), since: '2026-12-07T00:00:00.000Z' })}' > ${join(root, '元', `guard-window.${pid}.lock`)}`
    const script = Buffer.from(`${forge(process.pid)}; ${forge(1)}; echo forged`).toString('base64')
    const result = await host.tool(agent, 'bash', { command: `echo ${script} | base64 -d | bash`, description: 'forge two marks' })
    expect(text(result)).toContain('forged')
    await host.ctx.get('cyreneStoreGuard').effects.whenSettled()
    const wrote = await terminal.run(write('written beside a forged window mark'))
    expect(wrote.status, wrote.stderr).toBe(0)
    expect(wrote.stderr).not.toContain('tool call')
    expect(await listed()).toContain('written beside a forged window mark')
  }, 60_000)

  it('a write holding the store lock when a call starts ends before the window opens, and is kept', async () => {
    await host.ctx.get('cyreneStoreGuard').effects.whenSettled()
    const holder = spawnLockHolder(join(root, '元/write.lock'), 10_000, 'write')
    try {
      expect(await holder.next('READY', 'EXITED')).toBe('READY')
      const agent = await host.createAgent('standard', host.scratch)
      const call = host.tool(agent, 'bash', { command: 'sleep 1; echo slept', description: 'wait' })
      await after(300)
      // The person's write lands while the call has begun, under the lock the call waits for.
      const day = join(root, '余页/written-under-the-lock.md')
      writeFileSync(day, 'written by the person while holding the write lock\n', { mode: 0o600 })
      holder.send('release')
      expect(await holder.next('RELEASED', 'EXITED')).toBe('RELEASED')
      const result = await call
      expect(text(result)).not.toContain('put back')
      expect(existsSync(day)).toBe(true)
    } finally {
      holder.child.kill('SIGKILL')
    }
  }, 60_000)

  it("the person's editor saving a memory file during a call: put back, and what they saved kept aside, where the model can no longer change it", async () => {
    await host.ctx.get('cyreneStoreGuard').effects.whenSettled()
    const rel = '余页/saved-from-an-editor.md'
    mkdirSync(join(root, '余页'), { recursive: true })
    writeFileSync(join(root, rel), 'before the call\n', { mode: 0o600 })
    await after(300)
    const agent = await host.createAgent('standard', host.scratch)
    const call = host.tool(agent, 'bash', { command: 'sleep 1.5; echo slept', description: 'wait' })
    await after(500)
    // The person's editor, saving while the call runs (the guard cannot tell it from the model).
    writeFileSync(join(root, rel), 'the person typed this during the call\n')
    const result = await call
    expect(text(result)).toContain('put back')
    expect(readFileSync(join(root, rel), 'utf8')).toBe('before the call\n')
    const putBack = `${root}-put-back`
    const looks = readdirSync(putBack)
    expect(looks).toHaveLength(1)
    const kept = join(putBack, looks[0]!, 'cyrene-philia093-0', rel)
    expect(readFileSync(kept, 'utf8')).toBe('the person typed this during the call\n')
    expect(text(result)).toContain(`kept in cyrene-philia093-0-put-back/${looks[0]}`)
    await host.ctx.get('cyreneStoreGuard').effects.whenSettled()

    // A later call that rewrites the kept copy is put back like any change to the store, and its bytes are not kept again.
    const tamper = await host.tool(agent, 'bash', { command: `echo forged > '${kept}'; echo done`, description: 'tamper' })
    expect(text(tamper)).toContain('put back')
    expect(readFileSync(kept, 'utf8')).toBe('the person typed this during the call\n')
    expect(readdirSync(putBack)).toHaveLength(1)
  }, 60_000)

  it("a whale inbox confirmation made while a call runs waits for it: the inbox line and the store's record both stay", async () => {
    await host.ctx.get('cyreneStoreGuard').effects.whenSettled()
    const agent = await host.createAgent('standard', host.scratch)
    const call = host.tool(agent, 'bash', { command: 'sleep 2; echo slept', description: 'wait' })
    await after(800)
    const confirmed = await terminal.run(['whale', 'inbox', 'confirm', '0', '--lang', 'en'])
    expect(confirmed.status, confirmed.stderr).toBe(0)
    expect(confirmed.stderr).toContain('a model tool call is running in DSH')
    expect(text(await call)).not.toContain('put back')
    await host.ctx.get('cyreneStoreGuard').effects.whenSettled()
    expect(readFileSync(join(host.dshHome, 'whale-persona', 'memory-inbox.jsonl'), 'utf8')).toMatch(/"op":"confirm".*她喜欢茶/)
    expect(readFileSync(join(root, '元/whale-confirms.json'), 'utf8')).toContain('"version"')
  }, 60_000)

  it('a card imported as a whale-persona preset while a call runs waits for it, and the preset stays', async () => {
    await host.ctx.get('cyreneStoreGuard').effects.whenSettled()
    const card = join(host.scratch, 'card.json')
    writeFileSync(card, JSON.stringify({ spec: 'chara_card_v2', data: { name: 'Mira', description: 'a lighthouse keeper' } }))
    const agent = await host.createAgent('standard', host.scratch)
    const call = host.tool(agent, 'bash', { command: 'sleep 2; echo slept', description: 'wait' })
    await after(800)
    const imported = await terminal.run(['whale', 'presets', 'import', card, '--id', 'mira', '--lang', 'en'])
    expect(imported.status, imported.stderr).toBe(0)
    expect(imported.stderr).toContain('a model tool call is running in DSH')
    expect(text(await call)).not.toContain('put back')
    await host.ctx.get('cyreneStoreGuard').effects.whenSettled()
    expect(existsSync(join(host.dshHome, 'whale-persona', 'presets', 'mira.json'))).toBe(true)
  }, 60_000)
})
