import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { frameTokenIn } from '../../prompt/index.ts'
import { EMPTY_MEMORY, framed } from '../../prompt/index.ts'
import { dshEnv, freePort, packIntoAsync, runCheckedAsync, webRpc } from '../../scripts/dsh-web.ts'
import { DSH_BIN } from '../../scripts/ensure-dsh.ts'
import { PROJECT_ROOT } from '../harness/host.ts'
import { writeQuietNight } from '../harness/quiet-night.ts'

/**
 * Issue 13 item 1: `npm start -- --offline` brings up the real `dsh web` with
 * the packed plugin and the scripted demo model (demo/model) in a home of its
 * own, and Ctrl-C stops everything it started. It runs in this repository (a
 * fresh clone per run would only add `npm ci`); the home is a temporary folder
 * under .cache/. CYRENE_DEMO_LOG makes the demo model keep what it was sent.
 */
const WORK = join(PROJECT_ROOT, '.cache', 'start')

interface Sent {
  system: string
  messages: unknown[]
  tools: string[]
}

let home: string
let log: string
let port: number
let starter: ChildProcess
let output = ''
let webPid = 0
let startSeconds = 0

const rpc = (method: string, payload: unknown) => webRpc(port, method, payload)
const sent = (): Sent[] =>
  existsSync(log)
    ? readFileSync(log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Sent)
    : []

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 90_000): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}\n--- npm start output ---\n${output}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** Sends one message in a new chat session and returns the session's history once `answered` shows up in it. */
async function chat(text: string, answered: string): Promise<string> {
  const created = await rpc('session.create', { cwd: join(home, 'workspace'), agentPreset: 'chat' })
  const sessionId = created?.result?.value?.sessionId as string
  expect(typeof sessionId).toBe('string')
  await rpc('session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text }] })
  return await until(`the answer to ${text}`, async () => {
    const history = JSON.stringify(await rpc('session.history', { sessionId }))
    return history.includes(answered) ? history : undefined
  })
}

/** Processes whose environment names this test's DSH home (Linux /proc; the test runs as root). */
function processesWithHome(): number[] {
  const found: number[] = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue
    try {
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0').includes(`DSH_HOME=${home}`)) found.push(Number(entry))
    } catch {
      /* gone, or a kernel thread */
    }
  }
  return found
}

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0)
    return true
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return false
    throw error
  }
}

/**
 * A home that already holds an older build of the demo model, installed from the tarball path
 * npm start uses (as a run before a code change would leave it).
 */
async function installOlderDemoBuild(): Promise<void> {
  const source = join(home, 'older-demo')
  cpSync(join(PROJECT_ROOT, 'demo', 'model'), source, { recursive: true })
  appendFileSync(join(source, 'index.js'), '// an older build\n')
  const tarballs = join(home, 'tarballs')
  mkdirSync(tarballs, { recursive: true })
  const tgz = await packIntoAsync(source, tarballs)
  await runCheckedAsync(DSH_BIN, ['plugin', '--profile', 'web', 'add', tgz], { cwd: home, env: dshEnv(home) })
  rmSync(source, { recursive: true, force: true })
}

describe('npm start -- --offline (issue 13 item 1)', () => {
  beforeAll(async () => {
    mkdirSync(WORK, { recursive: true })
    home = mkdtempSync(join(WORK, 'home-'))
    writeQuietNight(home)
    log = join(home, 'demo-requests.jsonl')
    port = await freePort()
    await installOlderDemoBuild()
    const began = Date.now()
    // Its own process group, like a terminal's foreground job: the SIGINT below reaches npm and the script as Ctrl-C would.
    starter = spawn('npm', ['start', '--', '--offline', '--port', String(port), '--home', home], {
      cwd: PROJECT_ROOT,
      // As from a terminal (npm start sets this itself when its stderr is one): the pairing code is shown.
      env: { ...process.env, CYRENE_DEMO_LOG: log, CYRENE_PAIRING_STDERR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    starter.stdout?.on('data', (d) => {
      output += d
    })
    starter.stderr?.on('data', (d) => {
      output += d
    })
    await until(
      'the URL line',
      () => {
        if (starter.exitCode !== null) throw new Error(`npm start exited ${starter.exitCode}:\n${output}`)
        return output.includes(`http://127.0.0.1:${port}/`) ? true : undefined
      },
      300_000,
    )
    startSeconds = (Date.now() - began) / 1000
    webPid = Number(/dsh web pid (\d+)/.exec(output)?.[1])
    process.stderr.write(`npm start -- --offline: URL printed after ${startSeconds.toFixed(1)} s\n`)
  }, 320_000)

  afterAll(async () => {
    // Only what this test started: npm start's group and, should it outlive it, dsh web's group.
    for (const pgid of [starter?.pid, webPid]) if (pgid !== undefined && pgid > 0 && groupAlive(pgid)) process.kill(-pgid, 'SIGKILL')
    if (home !== undefined) rmSync(home, { recursive: true, force: true })
  })

  it('prints the URL of a dsh web whose roster lists chat (the default) and cyrene-work', async () => {
    expect(output).toContain(`昔涟 is ready at http://127.0.0.1:${port}/`)
    const list = await rpc('agentPreset.list', {})
    const presets = ((list.result?.value ?? list.result)?.presets ?? []) as { id: string; isDefault: boolean; name?: string }[]
    expect(presets.map((p) => p.id)).toEqual(expect.arrayContaining(['chat', 'cyrene-work']))
    expect(presets.filter((p) => p.isDefault).map((p) => p.id)).toEqual(['chat'])
    expect(presets.find((p) => p.id === 'chat')?.name).toBe('昔涟聊天模式 · Cyrene chat')
    const page = await fetch(`http://127.0.0.1:${port}/`)
    expect(page.status).toBe(200)
  })

  it('shows the settings page’s pairing code, which dsh web prints while it starts, in its own output (CONTRACT#pairing)', async () => {
    // The panel row may print it just after the server first answers: then it comes through the pipe, after the URL line.
    const code = /Cyrene settings pairing code: [A-Z0-9]{5}-[A-Z0-9]{5}\n/
    await until('the pairing code line', () => (code.test(output) ? true : undefined), 60_000).catch(() => undefined)
    expect(output).toMatch(code)
  })

  it('prints the one line that points the command line at this home, and that line works (issue 22)', () => {
    expect(output).toContain(`The command line, on this home: DSH_HOME=${home} npm run cyrene -- doctor`)
    const run = spawnSync('npm', ['run', '-s', 'cyrene', '--', 'doctor'], { cwd: PROJECT_ROOT, env: { ...process.env, DSH_HOME: home }, encoding: 'utf8' })
    expect(run.status, run.stderr).toBe(0)
    // The same line with --verbose names the store it looked at: this home's, which exists.
    const verbose = spawnSync('npm', ['run', '-s', 'cyrene', '--', 'doctor', '--verbose', '--lang', 'en'], {
      cwd: PROJECT_ROOT,
      env: { ...process.env, DSH_HOME: home },
      encoding: 'utf8',
    })
    expect(verbose.stdout + verbose.stderr).toContain(`memory root: ${join(home, 'cyrene-philia093-0')}`)
    expect(verbose.stdout + verbose.stderr).not.toContain('does not exist yet')
  })

  it('installs the build the repository has now, over an older one already in the home', () => {
    const installed = readFileSync(join(home, 'profiles', 'web', 'node_modules', 'cyrene-demo-model', 'index.js'), 'utf8')
    expect(installed).toBe(readFileSync(join(PROJECT_ROOT, 'demo', 'model', 'index.js'), 'utf8'))
  })

  it('a chat turn completes through the demo model with the persona as the system prompt', async () => {
    await chat('今天好累', '嗯，我在听哦')
    const turn = sent().find((r) => JSON.stringify(r.messages).includes('今天好累'))
    const values: Record<string, string> = {
      user_nickname: '伙伴',
      cyrene_memory: framed('记忆', EMPTY_MEMORY, { token: frameTokenIn(turn?.system ?? '') ?? 'no-marker' }),
      model: 'demo',
      cwd: join(home, 'workspace'),
    }
    const persona = readFileSync(join(PROJECT_ROOT, 'persona', 'chat.md'), 'utf8').replace(/\{\{([a-z_]+)\}\}/g, (_, n: string) => values[n] ?? `<<${n}>>`)
    expect(turn?.system).toBe(persona)
  })

  it('记住… makes the demo model call memory_write, and a later turn quotes the memory (from {{cyrene_memory}}: written today)', async () => {
    await chat('记住：我喜欢在雨天听黑胶唱片。', '我记下了')
    const listed = spawnSync(process.execPath, [join(PROJECT_ROOT, 'bin', 'cyrene.js'), 'memory', 'list', '--json'], {
      cwd: home,
      env: dshEnv(home),
      encoding: 'utf8',
    })
    expect(listed.status).toBe(0)
    expect(listed.stdout).toContain('我喜欢在雨天听黑胶唱片。')
    const history = await chat('下雨天我喜欢做什么？黑胶唱片', '我记得哦')
    expect(history).toContain('「我喜欢在雨天听黑胶唱片。」')
  })

  it('Ctrl-C (SIGINT to the job) stops npm start and dsh web, and leaves no process behind', async () => {
    expect(groupAlive(webPid)).toBe(true)
    expect(processesWithHome().length).toBeGreaterThan(0)
    process.kill(-(starter.pid as number), 'SIGINT')
    // npm re-raises a signal its script got, as a shell job would end on Ctrl-C; the script itself stops and exits 0.
    const ended = await until('npm start to exit', () => starter.exitCode ?? starter.signalCode ?? undefined, 30_000)
    expect([0, 'SIGINT']).toContain(ended)
    expect(output).toContain('npm start: stopping dsh web…')
    expect(output).not.toContain('npm start: dsh web exited')
    await until('the dsh web group to be gone', () => (groupAlive(webPid) ? undefined : true), 10_000)
    expect(processesWithHome()).toEqual([])
  })
})

describe('npm start refuses clearly and starts nothing (issue 13 item 1)', () => {
  const npmStart = (args: string[]) => spawnSync('npm', ['start', '--', ...args], { cwd: PROJECT_ROOT, encoding: 'utf8', timeout: 60_000 })

  it('a busy port: exit 1, the message names the port and --port, no home is created', async () => {
    const busy = createServer()
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r))
    const taken = (busy.address() as AddressInfo).port
    const untouched = join(WORK, `never-${taken}`)
    try {
      const result = npmStart(['--offline', '--port', String(taken), '--home', untouched])
      expect(result.status).toBe(1)
      expect(result.stderr).toContain(`port ${taken} is already in use; pick another with \`npm start -- --port N\``)
      expect(existsSync(untouched)).toBe(false)
    } finally {
      busy.close()
    }
  })

  it('a Node older than 22.19 (the machine’s own, without node_modules/.bin): exit 1 and the message says to run npm ci', () => {
    const bare = {
      ...process.env,
      PATH: (process.env.PATH ?? '')
        .split(':')
        .filter((dir) => !dir.includes('node_modules'))
        .join(':'),
    }
    const version = spawnSync('node', ['--version'], { env: bare, encoding: 'utf8' }).stdout.trim()
    const [major = 0, minor = 0] = version.slice(1).split('.').map(Number)
    const result = spawnSync('node', [join('scripts', 'check-node.mjs')], { cwd: PROJECT_ROOT, env: bare, encoding: 'utf8' })
    if (major < 22 || (major === 22 && minor < 19)) {
      expect(result.status).toBe(1)
      expect(result.stderr).toContain(`Node ${version.slice(1)} is too old: it needs Node ≥ 22.19`)
      expect(result.stderr).toContain('Run `npm ci` first')
    } else {
      // A machine whose own Node is new enough passes the check (this one's is 20: the branch above runs here).
      expect(result.status).toBe(0)
      expect(result.stderr).toBe('')
    }
  })

  it('a bad --port or an unknown option: exit 2 with the usage', () => {
    for (const args of [['--port', 'eighty'], ['--port', '70000'], ['--offlin']]) {
      const result = npmStart(args)
      expect(result.status).toBe(2)
      expect(result.stderr).toContain('usage: npm start -- [--offline] [--port N] [--home DIR]')
    }
  })
})
