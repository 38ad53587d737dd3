import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url))

export interface CliRun {
  status: number | null
  stdout: string
  stderr: string
}

/**
 * `cyrene …` as the person runs it beside a host booted in this process. Never
 * spawnSync here: it stops this process's event loop, so a host that holds
 * 元/write.lock at that moment could not release it, and the command would wait
 * out its whole deadline for a lock nobody is using (decision 086).
 */
export async function runCyrene(args: readonly string[], env: NodeJS.ProcessEnv): Promise<CliRun> {
  return await new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['bin/cyrene.js', ...args], { cwd: PROJECT_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
    child.on('error', reject)
    child.on('close', (status) => resolve({ status, stdout, stderr }))
  })
}

/** A terminal of the person's beside the host: `run` types `cyrene …` into it. */
export interface Terminal {
  run(args: readonly string[]): Promise<CliRun>
  close(): void
}

/** Runs each command it reads (one JSON line `{id, args}`) as `cyrene …` and answers with one JSON line. */
const TERMINAL = `
const { spawn } = require('node:child_process')
const lines = require('node:readline').createInterface({ input: process.stdin })
lines.on('line', (line) => {
  const { id, args } = JSON.parse(line)
  const child = spawn(process.execPath, ['bin/cyrene.js', ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (d) => (stdout += d))
  child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d))
  child.on('close', (status) => process.stdout.write(JSON.stringify({ id, status, stdout, stderr }) + '\\n'))
})
`

/**
 * A terminal the person opened before the model's tool call began, so the commands typed into it hang
 * from a process older than the call, as those of a real terminal do: the store guard's process scan
 * (guard/procs.ts) does not take them for the model's, as it would a `cyrene` this process spawned
 * during a call.
 */
export function openTerminal(env: NodeJS.ProcessEnv): Terminal {
  const shell = spawn(process.execPath, ['-e', TERMINAL], { cwd: PROJECT_ROOT, env, stdio: ['pipe', 'pipe', 'inherit'] })
  const waiting = new Map<number, (run: CliRun) => void>()
  let next = 0
  let buffered = ''
  shell.stdout.setEncoding('utf8').on('data', (d: string) => {
    buffered += d
    for (let nl = buffered.indexOf('\n'); nl >= 0; nl = buffered.indexOf('\n')) {
      const { id, ...run } = JSON.parse(buffered.slice(0, nl)) as CliRun & { id: number }
      buffered = buffered.slice(nl + 1)
      waiting.get(id)?.(run)
      waiting.delete(id)
    }
  })
  return {
    run: async (args) =>
      await new Promise<CliRun>((resolve) => {
        const id = next++
        waiting.set(id, resolve)
        shell.stdin.write(`${JSON.stringify({ id, args })}\n`)
      }),
    close: () => void shell.kill('SIGKILL'),
  }
}
