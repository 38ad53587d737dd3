import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { DSH_BIN } from './ensure-dsh.ts'

/**
 * What `npm start` and the end-to-end tests share to run the real `dsh`:
 * the environment (Node 24 and pnpm from node_modules/.bin first on PATH),
 * packing a bundle, and talking to `dsh web` over its RPC.
 */
export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url))
export const LOCAL_BIN = join(REPO_ROOT, 'node_modules', '.bin')

/** `dsh plugin` forwards to pnpm and `dsh` needs Node ≥ 22.19: both come from node_modules/.bin. */
export function withLocalBin(env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return { ...env, PATH: `${LOCAL_BIN}:${env.PATH ?? ''}` }
}

export function dshEnv(home: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { ...withLocalBin(), DSH_HOME: home, DSH_TELEMETRY_DISABLED: '1', ...extra }
}

export function runChecked(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }) {
  const result = spawnSync(cmd, args, { cwd: opts.cwd, env: opts.env ?? withLocalBin(), encoding: 'utf8', timeout: 300_000 })
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${result.status}\n${result.stdout}\n${result.stderr}`)
  return result
}

/**
 * `runChecked` without blocking the event loop: tests wait for installs that take minutes on a busy
 * machine, and a test worker blocked that long loses its own RPC with the runner.
 */
export async function runCheckedAsync(
  cmd: string,
  args: string[],
  opts: { cwd: string; env?: NodeJS.ProcessEnv },
): Promise<{ stdout: string; stderr: string }> {
  const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env ?? withLocalBin(), stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout?.on('data', (d) => (stdout += d))
  child.stderr?.on('data', (d) => (stderr += d))
  const timer = setTimeout(() => child.kill('SIGKILL'), 300_000)
  const status = await new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)))
  clearTimeout(timer)
  if (status !== 0) throw new Error(`${cmd} ${args.join(' ')} exited ${status}\n${stdout}\n${stderr}`)
  return { stdout, stderr }
}

/**
 * npm pack into a stable folder (pnpm's lockfile in the profile records the tarball path).
 * `ignoreScripts` skips prepack's compile, for a folder that already holds the dist/ it should ship.
 */
export function packInto(dir: string, out: string, opts: { ignoreScripts?: boolean } = {}): string {
  return packedFile(out, runChecked('npm', packArgs(out, opts), { cwd: dir }).stdout)
}

/** `packInto` without blocking the event loop (prepack compiles: long on a busy machine). */
export async function packIntoAsync(dir: string, out: string, opts: { ignoreScripts?: boolean } = {}): Promise<string> {
  return packedFile(out, (await runCheckedAsync('npm', packArgs(out, opts), { cwd: dir })).stdout)
}

function packArgs(out: string, opts: { ignoreScripts?: boolean }): string[] {
  return ['pack', '--silent', ...(opts.ignoreScripts === true ? ['--ignore-scripts'] : []), '--pack-destination', out]
}

/** npm pack prints the tarball's name last. */
function packedFile(out: string, stdout: string): string {
  return join(out, stdout.trim().split('\n').at(-1) as string)
}

export async function freePort(): Promise<number> {
  return await new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })
}

/** Whether something already listens on `port` (checked before `dsh web` starts, for a clear message). */
export async function portInUse(port: number): Promise<boolean> {
  return await new Promise((resolve) => {
    const server = createServer()
    server.once('error', () => resolve(true))
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(false)))
  })
}

/** One `dsh web` RPC call (POST /api/<method>); the answer's `result` or `error` is the caller's to read. */
export async function webRpc(port: number, method: string, payload: unknown): Promise<any> {
  const body = JSON.stringify({ type: 'client-request', rpcId: `r${Math.random()}`, method, payload })
  // A fresh connection per call (agent: false): a pooled keep-alive socket the server has just closed
  // after its idle timeout fails the next call with "other side closed".
  return await new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: `/api/${method}`,
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (res) => {
        let text = ''
        res.setEncoding('utf8')
        res.on('data', (chunk: string) => (text += chunk))
        res.on('error', reject)
        res.on('end', () => {
          try {
            resolve(JSON.parse(text))
          } catch (error) {
            reject(error)
          }
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

/** Waits until `dsh web` answers the roster call; throws with its output if it exits or the time runs out. */
export async function waitForWeb(port: number, web: ChildProcess, output: () => string, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    if (web.exitCode !== null || web.signalCode !== null) throw new Error(`dsh web exited ${web.exitCode ?? web.signalCode}:\n${output()}`)
    try {
      const list = await webRpc(port, 'agentPreset.list', {})
      if (list?.result !== undefined) return
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`dsh web did not answer in ${timeoutMs / 1000} s:\n${output()}`)
    await new Promise((r) => setTimeout(r, 500))
  }
}

export interface WebProcess {
  web: ChildProcess
  /** What it printed so far (until `stopKeeping`). */
  output: () => string
  stopKeeping: () => void
}

/** `dsh web` on a port, in its own process group (it starts children of its own); its output is kept. */
export function spawnWeb(home: string, port: number, opts: { cwd: string; env?: NodeJS.ProcessEnv }): WebProcess {
  const web = spawn(DSH_BIN, ['web', '--no-open', '--port', String(port)], {
    cwd: opts.cwd,
    env: dshEnv(home, opts.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  const keep = (chunk: Buffer): void => {
    output += chunk.toString()
  }
  web.stdout?.on('data', keep)
  web.stderr?.on('data', keep)
  const stopKeeping = (): void => {
    web.stdout?.off('data', keep)
    web.stderr?.off('data', keep)
  }
  return { web, output: () => output, stopKeeping }
}

/** Signals a child's whole process group; a group already gone is fine. */
export function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return
  try {
    process.kill(-child.pid, signal)
  } catch {
    /* the group is already gone */
  }
}
