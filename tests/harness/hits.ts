import { expect } from 'vitest'
import { runCyrene } from './cli.ts'
import type { Host } from './host.ts'

/** `cyrene …` against the host's DSH_HOME, as the person types it; fails the test unless it exits 0. */
export async function cyreneOk(host: Host, ...args: string[]): Promise<string> {
  const run = await runCyrene(args, { ...process.env, DSH_HOME: host.dshHome })
  expect(run.status, run.stderr).toBe(0)
  return run.stdout
}

/** The 【记忆命中】 block the model received in the request that carries `message`; undefined when it got none. */
export function hitBlock(host: Host, message: string): string | undefined {
  const request = host.llm.requests.find((r) => JSON.stringify(r.messages).includes(message))
  expect(request).toBeDefined()
  const notice = request!.messages.find((m) => JSON.stringify(m.content).includes('【记忆命中】'))
  return notice === undefined ? undefined : JSON.stringify(notice.content)
}
