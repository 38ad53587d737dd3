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
