import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { freePort, killGroup, spawnWeb, waitForWeb, webRpc } from '../scripts/dsh-web.ts'
import type { Version } from './order.ts'
import type { CommandRecord, RunResult } from './report.ts'
import type { Scenario } from './scenario.ts'
import { historyEvents, transcriptOf } from './transcript.ts'

const PACKAGE = 'dsh-cyrene-philia093-0'
const STORE = 'cyrene-philia093-0'

/**
 * The person's provider settings a throwaway home needs to reach their model:
 * credentials and the home-level patch layer (where a provider and model are
 * chosen). They are copied into homes that are deleted afterwards, and never
 * into the report.
 */
export const PROVIDER_FILES = ['.credentials.yaml', '.env', 'cordis.patch.yml'] as const

export interface RunOptions {
  scenario: Scenario
  /** Another preset than the scenario's (the judge runs on DSH's own `standard`). */
  preset?: string
  version: Version
  /** The home this version was installed into (its profiles are shared by every run of it). */
  versionHome: string
  /** A fresh folder for this run. */
  runDir: string
  /** Extra environment for dsh web (e.g. the demo model's request log). */
  env?: NodeJS.ProcessEnv
  /** How long one turn may take before the run is reported as failed. */
  turnTimeoutMs: number
}

/** The cyrene command line of the installed version: seeding uses the same code the run does. */
function cyreneBin(versionHome: string): string {
  return join(versionHome, 'profiles', 'web', 'node_modules', PACKAGE, 'bin', 'cyrene.js')
}

function cyrene(versionHome: string, home: string, args: string[]): void {
  const result = spawnSync(process.execPath, [cyreneBin(versionHome), ...args, '--root', join(home, STORE), '--quiet'], {
    cwd: home,
    env: { ...process.env, DSH_HOME: home },
    encoding: 'utf8',
  })
  if (result.status !== 0) throw new Error(`seeding: cyrene ${args.slice(0, 2).join(' ')} … exited ${result.status}: ${result.stderr.trim()}`)
}

/** A home of the run's own: the version's installed profiles, the provider files, the scenario's store and workspace. */
function prepareHome(o: RunOptions): { home: string; workspace: string } {
  const home = join(o.runDir, 'home')
  const workspace = join(home, 'workspace')
  mkdirSync(workspace, { recursive: true })
  symlinkSync(join(o.versionHome, 'profiles'), join(home, 'profiles'), 'dir')
  for (const file of PROVIDER_FILES) if (existsSync(join(o.versionHome, file))) copyFileSync(join(o.versionHome, file), join(home, file))
  const s = o.scenario
  for (const [key, text] of Object.entries(s.anchors)) cyrene(o.versionHome, home, ['memory', 'anchor', 'write', key, text, '--core'])
  for (const m of s.memories) {
    const args = ['memory', 'write', m.text]
    if (m.at !== undefined) args.push('--at', m.at)
    if (m.kind !== undefined) args.push('--kind', m.kind)
    if (m.axis !== undefined) args.push('--axis', m.axis)
    if (m.reason !== undefined) args.push('--reason', m.reason)
    if (m.base === true) args.push('--base')
    cyrene(o.versionHome, home, args)
  }
  if (s.nickname !== undefined) {
    // The person's settings file, as `cyrene settings set nickname` would leave it.
    mkdirSync(join(home, STORE, '元'), { recursive: true })
    writeFileSync(join(home, STORE, '元', 'settings.json'), JSON.stringify({ nickname: s.nickname }, null, 2) + '\n')
  }
  for (const [rel, text] of Object.entries(s.files)) {
    mkdirSync(dirname(join(workspace, rel)), { recursive: true })
    writeFileSync(join(workspace, rel), text)
  }
  return { home, workspace }
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out after ${Math.round(ms / 1000)} s waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 250))
  }
}

/** Runs `/…` through the web gateway's command RPC (the way the web client does). */
async function command(port: number, sessionId: string, line: string): Promise<CommandRecord> {
  const answer = await webRpc(port, 'commands/execute', { args: { agentId: sessionId, line, images: [] } })
  const value = answer?.result?.value
  if (answer?.result?.ok !== true) return { line, ok: false, text: String(answer?.result?.error?.message ?? 'the command RPC failed') }
  if (value === undefined || value === null) return { line, ok: false, text: 'not a command in this preset' }
  return { line, ok: value.result?.kind === 'success', text: String(value.result?.text ?? '') }
}

/**
 * One scenario on one version, end to end in the real `dsh web`: a fresh
 * home and store, the scenario's commands, then each turn in order, each
 * awaited to its end; the record is read back from the session's history.
 * A failure is returned as a failed run, never thrown: the others go on.
 */
export async function runScenario(o: RunOptions): Promise<RunResult> {
  const commands: CommandRecord[] = []
  let stop: (() => void) | undefined
  try {
    const { home, workspace } = prepareHome(o)
    const port = await freePort()
    const started = spawnWeb(home, port, { cwd: workspace, env: o.env })
    stop = () => killGroup(started.web, 'SIGKILL')
    await waitForWeb(port, started.web, started.output)
    const created = await webRpc(port, 'session.create', { cwd: workspace, agentPreset: o.preset ?? o.scenario.preset })
    const sessionId = created?.result?.value?.sessionId
    if (typeof sessionId !== 'string') throw new Error(`session.create refused: ${JSON.stringify(created?.result?.error ?? created).slice(0, 300)}`)
    for (const line of o.scenario.commands) commands.push(await command(port, sessionId, line))
    const history = async () => historyEvents(await webRpc(port, 'session.history', { sessionId }))
    for (const [i, text] of o.scenario.turns.entries()) {
      await webRpc(port, 'session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text }] })
      await until(`the end of turn ${i + 1}`, o.turnTimeoutMs, async () => {
        const ends = (await history()).filter((e) => e.type === 'turn/end')
        return ends.length > i ? true : undefined
      })
    }
    const transcript = transcriptOf(await history())
    const bad = (await history()).find((e) => e.type === 'turn/end' && e.data?.reason?.kind !== 'completed')
    const error = bad === undefined ? undefined : `a turn ended ${bad.data?.reason?.kind}: ${JSON.stringify(bad.data?.reason).slice(0, 300)}`
    return { scenario: o.scenario.id, version: o.version, ok: error === undefined, ...(error === undefined ? {} : { error }), commands, transcript }
  } catch (error) {
    return { scenario: o.scenario.id, version: o.version, ok: false, error: (error as Error).message.slice(0, 2000), commands }
  } finally {
    stop?.()
  }
}
