import { spawnSync, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

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

/** npm pack into a stable folder (pnpm's lockfile in the profile records the tarball path). */
export function packInto(dir: string, out: string): string {
  const name = runChecked('npm', ['pack', '--silent', '--pack-destination', out], { cwd: dir }).stdout.trim().split('\n').at(-1) as string
  return join(out, name)
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
  const res = await fetch(`http://127.0.0.1:${port}/api/${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ type: 'client-request', rpcId: `r${Math.random()}`, method, payload }),
  })
  return await res.json()
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
