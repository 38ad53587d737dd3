import { existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { boot, loadOverlayPatches } from '@deepseek-ai/dsh-app-boot'
import { CallId, createUserMessage } from '@deepseek-ai/dsh-llm'
import { SessionId } from '@deepseek-ai/dsh-session'
import { DSH_INSTALL } from '../../scripts/ensure-dsh.ts'
import { assembleFor, runCommand } from './agent-ops.ts'
import { MockLlm, type Script } from './mock-llm.ts'
import { quietNightPatch } from './quiet-night.ts'

export const PROJECT_ROOT = fileURLToPath(new URL('../../', import.meta.url))
const require = createRequire(import.meta.url)

function bundlePatchOf(pkg: string): string {
  return join(dirname(require.resolve(`${pkg}/package.json`)), 'cordis.patch.yml')
}

/**
 * The loader imports row modules by package name from its own node_modules, as
 * it would find an installed bundle; link this package there (what `npm link` does).
 */
function linkSelf(): void {
  const link = join(PROJECT_ROOT, 'node_modules', 'dsh-cyrene-philia093-0')
  try {
    lstatSync(link)
  } catch {
    symlinkSync(PROJECT_ROOT, link, 'dir')
  }
}

/**
 * DSH web's own host half of its language setting (@deepseek-ai/dsh-client-locale,
 * row `locale` of the web-app bundle: it registers the `locale` settings
 * namespace), taken from the real dsh CLI install and linked where the loader
 * finds rows, as a profile would have it.
 */
const LOCALE_PACKAGE = '@deepseek-ai/dsh-client-locale'
function linkLocale(): void {
  const link = join(PROJECT_ROOT, 'node_modules', LOCALE_PACKAGE)
  if (existsSync(link)) return
  const store = join(DSH_INSTALL, 'node_modules', '.pnpm')
  const dir = readdirSync(store).find((d) => d.startsWith('@deepseek-ai+dsh-client-locale@'))
  if (dir === undefined) throw new Error(`${LOCALE_PACKAGE} is not in the dsh install at ${store}`)
  try {
    symlinkSync(join(store, dir, 'node_modules', LOCALE_PACKAGE), link, 'dir')
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
  }
}

export interface BootOptions {
  /** DSH's UI language as the person chose it in DSH web (settings.yaml `locale.preference`); zh when not given, `none` for no choice stored. */
  lang?: 'zh' | 'en' | 'none'
  /** Extra patch rows applied after dsh-base and this package's bundle layer. */
  patches?: unknown[]
  script?: Script
  /** Use this DSH_HOME instead of a fresh one (a second host on the same home). */
  dshHome?: string
  /** Put files into the fresh DSH_HOME before the host starts. */
  prepareHome?: (dshHome: string) => void
  /** Schedule the night at this local time (HH:MM); when not given the schedule is off, so no night falls due by itself during a test. */
  nightAt?: string
}

/**
 * The real dsh-base composition booted in-process with this package's bundle
 * layer (recipe C), on a throwaway DSH_HOME and a scripted offline LLM.
 */
export async function bootHost(opts: BootOptions = {}) {
  linkSelf()
  linkLocale()
  // Inside the dsh CLI install, so the roster finds DSH's built-in presets as a profile would.
  const hosts = join(DSH_INSTALL, 'hosts')
  mkdirSync(hosts, { recursive: true })
  const scratch = mkdtempSync(join(hosts, 'host-'))
  const dshHome = opts.dshHome ?? join(scratch, 'home')
  mkdirSync(dshHome, { recursive: true })
  const lang = opts.lang ?? 'zh'
  if (lang !== 'none') writeFileSync(join(dshHome, 'settings.yaml'), `locale:\n  preference: ${lang}\n`)
  opts.prepareHome?.(dshHome)
  const previousHome = process.env.DSH_HOME
  process.env.DSH_HOME = dshHome
  process.env.DSH_TELEMETRY_DISABLED = '1'
  const rootConfig = join(scratch, 'cordis.yml')
  writeFileSync(rootConfig, '[]\n')
  const patches = [
    ...loadOverlayPatches('cyrene-test', bundlePatchOf('@deepseek-ai/dsh-base')),
    ...loadOverlayPatches('cyrene-test', join(PROJECT_ROOT, 'cordis.patch.yml')),
    { id: 'hmr', disabled: true },
    { id: 'session-telemetry-otel', disabled: true },
    // The web profile's host runner: the `cordis` preset (and so cyrene-work) needs its services.
    { insert: [{ id: 'cordis-host-runner', name: '@deepseek-ai/dsh-cordis-host-runner' }] },
    { insert: [{ id: 'locale', name: LOCALE_PACKAGE }] },
    quietNightPatch(opts.nightAt),
    ...(opts.patches ?? []),
  ]
  const ctx: any = await boot('cyrene-test', rootConfig, patches as any, undefined, pathToFileURL(PROJECT_ROOT).href)
  const llm = new MockLlm(opts.script)
  ctx.llm.registerAdapter(['mock'], llm)
  const handles: { dispose(): Promise<void> | void }[] = []

  async function createAgent(preset?: string, cwd = scratch, model = 'mock-model') {
    const roster = ctx.get('agentPresets')
    const handle = await ctx.agents.create({
      sessionId: SessionId(`test-${handles.length}-${Date.now()}`),
      agentOptions: { provider: 'mock', model },
      meta: { cwd },
      setup: async (agentCtx: unknown) => {
        if (preset !== undefined) await roster.mount(agentCtx, preset)
      },
    })
    handles.push(handle)
    return handle.agent
  }

  const assemble = (agent: any) => assembleFor(ctx, agent)
  const command = (agent: any, line: string) => runCommand(ctx, agent, line)

  async function tool(agent: any, name: string, args: Record<string, unknown>) {
    return (await ctx.tools.execute({
      callId: CallId(`direct-${Date.now()}-${Math.random()}`),
      name,
      arguments: args,
      agent,
      signal: new AbortController().signal,
    })) as { isError: boolean; content: unknown; value?: unknown }
  }

  async function turn(agent: any, text: string) {
    agent.followup(createUserMessage({ content: [{ type: 'text', text }], source: { kind: 'user' } }))
    await new Promise((r) => setTimeout(r, 10))
    await agent.whenIdle()
  }

  /** The memory service once its recall index is level with the store: a test that recalls waits for this first. */
  async function recallReady() {
    const memory = ctx.get('cyreneMemory')
    await memory.recallReady
    return memory
  }

  async function dispose() {
    for (const h of handles.reverse()) await h.dispose()
    await ctx.fiber.dispose()
    if (previousHome === undefined) delete process.env.DSH_HOME
    else process.env.DSH_HOME = previousHome
    rmSync(scratch, { recursive: true, force: true })
  }

  return { ctx, llm, dshHome, scratch, createAgent, assemble, command, tool, turn, recallReady, dispose }
}

export type Host = Awaited<ReturnType<typeof bootHost>>

/**
 * A host whose person runs with full file access (sandbox off, approvals never asked), as DSH reads it
 * at boot: DSH's sandbox stops none of the model's calls, so what stops them is the store guard. Its
 * memory engine is open and its recall level with the store (the seal written) before the test looks.
 */
export async function bootFullAccessHost(opts: BootOptions = {}): Promise<Host> {
  const previous = process.env.DSH_PERMISSION_MODE
  process.env.DSH_PERMISSION_MODE = 'danger-full-access'
  let host: Host
  try {
    host = await bootHost(opts)
  } finally {
    if (previous === undefined) delete process.env.DSH_PERMISSION_MODE
    else process.env.DSH_PERMISSION_MODE = previous
  }
  await host.ctx.get('cyreneMemory').ready
  await host.recallReady()
  return host
}
