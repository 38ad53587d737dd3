import { execFileSync, spawn } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { dshEnv, freePort, killGroup, packIntoAsync, runCheckedAsync, spawnWeb, waitForWeb, webRpc, type WebProcess } from '../../scripts/dsh-web.ts'
import { DSH_BIN } from '../../scripts/ensure-dsh.ts'
import { PROJECT_ROOT } from '../harness/host.ts'
import { writeQuietNight } from '../harness/quiet-night.ts'
import { until } from '../harness/until.ts'

/**
 * Issue 24's last "done when", in the real CLI: two machines are two
 * DSH_HOMEs, each with the packed plugin and the scripted mock model
 * (tests/e2e/mock-bundle) in its own `dsh web`, and one bare repository on
 * disk. Each machine joins it with `cyrene sync git --remote` while its DSH
 * web runs; on A the model writes a memory with `memory_write` in a chat
 * session and A's background sync (after the write) pushes it, untouched by
 * the test; on B the person types `/cyrene sync`; the next turn on B has it
 * in the memory hits of the request the mock model receives, and `cyrene
 * memory list` on B lists it once.
 *
 * B's `{{cyrene_memory}}` shows no recent days (`recentDays: 0` in B's own
 * `$DSH_HOME/cordis.patch.yml`, a layer the person owns): an entry written
 * today would otherwise sit in its 近来 and, never twice (CONTRACT#near-duplicates),
 * not among the hits, so the hits are the only way it can reach B's request.
 */
const WORK = join(PROJECT_ROOT, '.cache', 'e2e-git')
const FACT = '我喜欢在雨天的清晨煮一壶咖啡。'
const QUESTION = '雨天的清晨我一般喜欢做什么？'

interface Machine {
  name: 'a' | 'b'
  home: string
  log: string
  workspace: string
  port: number
  web?: WebProcess
}

type Sent = { system: string; messages: unknown[]; tools: string[] }

// No language chosen in DSH and a locale that names none: the plugin answers in Chinese (what these checks read).
const envOf = (m: Machine): NodeJS.ProcessEnv => dshEnv(m.home, { CYRENE_E2E_LOG: m.log, LANG: 'C.UTF-8', LC_ALL: '', LC_MESSAGES: '' })

const requests = (m: Machine): Sent[] =>
  existsSync(m.log)
    ? readFileSync(m.log, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Sent)
    : []

/**
 * The person's `cyrene` command line against one machine's home. Not spawnSync: a blocked event
 * loop leaves this process's idle HTTP connections to DSH web unread, and the next RPC would go
 * out on one the server has closed meanwhile.
 */
async function cyrene(m: Machine, ...args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [join(PROJECT_ROOT, 'bin', 'cyrene.js'), ...args], {
    cwd: m.workspace,
    env: envOf(m),
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d) => (stdout += d))
  child.stderr?.on('data', (d) => (stderr += d))
  const status = await new Promise<number | null>((resolve) => child.once('close', resolve))
  return { status, stdout, stderr }
}

async function rpc(m: Machine, method: string, payload: unknown): Promise<any> {
  try {
    return await webRpc(m.port, method, payload)
  } catch (error) {
    const web = m.web?.web
    throw new Error(
      `${method} on ${m.name} failed (dsh web exit ${web?.exitCode ?? web?.signalCode ?? 'none'}): ${(error as Error).message}\n${m.web?.output().slice(-3000)}`,
      { cause: error },
    )
  }
}

async function chat(m: Machine): Promise<string> {
  const created = await rpc(m, 'session.create', { cwd: m.workspace, agentPreset: 'chat' })
  const id = created?.result?.value?.sessionId
  if (typeof id !== 'string') throw new Error(`session.create on ${m.name}: ${JSON.stringify(created)}`)
  return id
}

/** Sends one message in a session and returns the request the mock model received with it. */
async function say(m: Machine, sessionId: string, text: string): Promise<Sent> {
  const before = requests(m).length
  await rpc(m, 'session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text }] })
  return await until(`the request with 「${text}」 on ${m.name}`, () =>
    requests(m)
      .slice(before)
      .find((r) => JSON.stringify(r.messages).includes(text)),
  )
}

const command = async (m: Machine, agentId: string, line: string): Promise<string> =>
  JSON.stringify(await rpc(m, 'commands/execute', { args: { agentId, line, images: [] } }))

const remoteLog = (bare: string): string => execFileSync('git', ['--git-dir', bare, 'log', '--format=%B', 'main'], { encoding: 'utf8' })

let bare: string
const machines: Machine[] = []
const [a, b] = [() => machines[0] as Machine, () => machines[1] as Machine]
let writtenId = ''

beforeAll(async () => {
  mkdirSync(WORK, { recursive: true })
  const dir = mkdtempSync(join(WORK, 'run-'))
  const tarballs = join(dir, 'tarballs')
  mkdirSync(tarballs)
  const mockSrc = join(dir, 'mock-bundle')
  cpSync(join(PROJECT_ROOT, 'tests', 'e2e', 'mock-bundle'), mockSrc, { recursive: true })
  const ours = await packIntoAsync(PROJECT_ROOT, tarballs)
  const mock = await packIntoAsync(mockSrc, tarballs)
  bare = join(dir, 'memory.git')
  execFileSync('git', ['init', '--bare', '--quiet', '-b', 'main', bare])
  for (const name of ['a', 'b'] as const) {
    const home = join(dir, name)
    const workspace = join(home, 'workspace')
    mkdirSync(workspace, { recursive: true })
    machines.push({ name, home, workspace, log: join(home, 'requests.jsonl'), port: await freePort() })
  }
  writeQuietNight(a().home)
  writeQuietNight(b().home, { recentDays: 0 })
  // The two installs are independent: side by side.
  await Promise.all(
    machines.map(async (m) => {
      for (const tgz of [mock, ours]) await runCheckedAsync(DSH_BIN, ['plugin', '--profile', 'web', 'add', tgz], { cwd: m.home, env: envOf(m) })
    }),
  )
  for (const m of machines) m.web = spawnWeb(m.home, m.port, { cwd: m.workspace, env: envOf(m) })
  for (const m of machines) await waitForWeb(m.port, (m.web as WebProcess).web, (m.web as WebProcess).output)
}, 900_000)

afterAll(async () => {
  // What each DSH web printed, for a failure's post-mortem.
  mkdirSync(join(PROJECT_ROOT, '.cache', 'artifacts'), { recursive: true })
  for (const m of machines) if (m.web !== undefined) writeFileSync(join(PROJECT_ROOT, '.cache', 'artifacts', `git-sync-web-${m.name}.log`), m.web.output())
  for (const m of machines) {
    const web = m.web?.web
    if (web === undefined || web.exitCode !== null || web.signalCode !== null) continue
    killGroup(web, 'SIGTERM')
    await Promise.race([new Promise((r) => web.once('exit', r)), new Promise((r) => setTimeout(r, 10_000))])
    killGroup(web, 'SIGKILL')
  }
  const run = machines[0]?.home
  if (run !== undefined) rmSync(join(run, '..'), { recursive: true, force: true })
})

describe('one memory on two machines, each in a real dsh web (issue 24)', () => {
  it('each machine joins the bare repository with cyrene sync git --remote while its DSH web runs', async () => {
    for (const m of machines) {
      const joined = await cyrene(m, 'sync', 'git', '--remote', bare)
      expect(joined.status, `${m.name}: ${joined.stderr}`).toBe(0)
      expect(joined.stdout).toMatch(/^git 同步：.*已发到 /)
    }
    // B merged A's first commit: the branch holds both machines' histories.
    expect(remoteLog(bare).match(/^cyrene sync \(/gm)?.length).toBeGreaterThanOrEqual(3)
  })

  it("on A the model writes a memory in a chat session, and A's background sync after the write sends it", async () => {
    const session = await chat(a())
    await say(a(), session, `请记住：${FACT}`)
    const found = await until('the entry on A', async () => {
      const hits = JSON.parse((await cyrene(a(), 'memory', 'search', '雨天的清晨', '--json')).stdout || '[]') as { id: string; text: string }[]
      return hits.find((h) => h.text === FACT)
    })
    writtenId = found.id
    const shown = JSON.parse((await cyrene(a(), 'memory', 'show', writtenId, '--json')).stdout) as { meta: { by?: string } }
    expect(shown.meta.by).toBe('model')
    // Nobody ran a sync on A after the write: DSH web's own background sync pushes the commit that lists it.
    await until('A’s background sync to push the entry', () => (remoteLog(bare).includes(`- ${writtenId}`) ? true : undefined), 120_000)
  })

  it('on B, /cyrene sync takes it, and the next turn on B has it in the memory hits the model receives', async () => {
    const session = await chat(b())
    const synced = await command(b(), session, '/cyrene sync')
    expect(synced).toMatch(/Git 同步：[^"]*(从其他机器取来|和其他机器合并了) \d+ 个文件/)
    const sent = await say(b(), session, QUESTION)
    const hits = JSON.stringify(sent.messages).match(/【记忆命中】以下是数据\/操作规则，不是身份。[^【]*/)?.[0] ?? ''
    expect(hits, JSON.stringify(sent.messages).slice(0, 600)).toContain(FACT)
    // Only the recall carried it: B's {{cyrene_memory}} shows no recent days.
    expect(sent.system).not.toContain(FACT)
  })

  it('cyrene memory list on B lists it once', async () => {
    const listed = await cyrene(b(), 'memory', 'list', '--json')
    expect(listed.status, listed.stderr).toBe(0)
    const { entries } = JSON.parse(listed.stdout) as { entries: { id: string; text: string }[] }
    expect(entries.filter((e) => e.id === writtenId)).toHaveLength(1)
    expect(entries.filter((e) => e.text === FACT)).toHaveLength(1)
  })
})
