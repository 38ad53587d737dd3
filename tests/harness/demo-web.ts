import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { expect } from 'vitest'
import { freePort } from '../../scripts/dsh-web.ts'
import { PROJECT_ROOT } from './host.ts'
import { writeQuietNight } from './quiet-night.ts'
import { until } from './until.ts'

/**
 * `npm start -- --offline` (the demo model) in a home of its own, and what a
 * person does in the DSH web it serves: send a line from the composer, open a
 * command's row. For the browser tests (tests/e2e/).
 */
export interface DemoServer {
  home: string
  port: number
  starter: ChildProcess
  output: string
}

export interface StartOptions {
  /** DSH's stored language (settings.yaml `locale.preference`, Settings → General → Language); none stored when not given. */
  preference?: 'zh' | 'en'
  /** More of npm start's environment (LANG, to say what the DSH process's own locale is). */
  env?: NodeJS.ProcessEnv
}

export async function npmStart(work: string, name: string, opts: StartOptions = {}): Promise<DemoServer> {
  const home = mkdtempSync(join(work, `home-${name}-`))
  writeQuietNight(home)
  if (opts.preference !== undefined) writeFileSync(join(home, 'settings.yaml'), `locale:\n  preference: ${opts.preference}\n`)
  const port = await freePort()
  const starter = spawn('npm', ['start', '--', '--offline', '--port', String(port), '--home', home], {
    cwd: PROJECT_ROOT,
    // The pairing code goes to DSH's terminal; here the test reads that terminal, as the person would.
    env: { ...process.env, ...opts.env, CYRENE_PAIRING_STDERR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  const server: DemoServer = { home, port, starter, output: '' }
  starter.stdout?.on('data', (d) => (server.output += d))
  starter.stderr?.on('data', (d) => (server.output += d))
  await until(
    `npm start (${name})`,
    () => {
      if (starter.exitCode !== null) throw new Error(`npm start exited ${starter.exitCode}:\n${server.output}`)
      return server.output.includes(`http://127.0.0.1:${port}/`) ? true : undefined
    },
    400_000,
  )
  return server
}

export function stop(server: DemoServer | undefined): void {
  if (server?.starter.pid === undefined) return
  try {
    process.kill(-server.starter.pid, 'SIGINT')
  } catch {
    /* gone */
  }
  const web = Number(/dsh web pid (\d+)/.exec(server.output)?.[1])
  for (const pgid of [server.starter.pid, web])
    try {
      if (pgid > 0) process.kill(-pgid, 'SIGKILL')
    } catch {
      /* gone */
    }
}

/** Sends a line from DSH web's composer, a message or a slash command, as a person types it. */
export async function send(p: Page, line: string): Promise<void> {
  const composer = p.locator('textarea').first()
  await composer.fill(line)
  await composer.press('Enter')
  await expect.poll(async () => await composer.inputValue(), { timeout: 30_000 }).toBe('')
}

/**
 * A command's row in the chat (DSH web's GenericCommandCard): the reply shown on one line cut with
 * "…", opened by a click when it has more lines. Clicked as a person opens it; its whole text.
 */
export async function commandRow(p: Page, begins: string): Promise<string> {
  const row = p.locator('[data-variant="others"][data-state]', { hasText: begins }).last()
  await row.waitFor({ timeout: 30_000 })
  // A question answered or a change made is not drawn red as failed (docs/decisions/063).
  expect(await row.getAttribute('data-state')).toBe('ok')
  await row.click()
  return await row.innerText()
}
