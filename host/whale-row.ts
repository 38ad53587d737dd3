import { Service, type Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import type {} from '@deepseek-ai/dsh-system-prompt'
import type {} from '@deepseek-ai/dsh-commands'
import { loadRenderInput, normaliseConfig, readConfigText, renderSegments, SECTION_NAMES, type RenderedSegments } from '../whale/index.ts'
import { personVouch } from './whale-vouch.ts'
import { inertBraces } from '../prompt/index.ts'
import { ReflexState, registerReflexStep } from './whale-reflex.ts'
import { PerAssembly } from './per-assembly.ts'

declare module '@deepseek-ai/cordis' {
  interface Context {
    whalePersona: WhalePersona
  }
}

/** What a section text function receives from DSH (AssembleContext, narrowed to what we read). */
interface AssemblyAgent {
  id?: string
  options?: { model?: string }
  session?: { id?: string; header?: { cwd?: string } }
}

/**
 * Row `whale-persona` (host level, inserted by this bundle): the three
 * whale-persona v1 segments as DSH sections, re-read from the files at every
 * assembly, and the per-session capture switch of spec §3.4.
 *
 * DSH 0.1.x interpolates every section strictly and has no way to opt out, so
 * every `{{` / `}}` of the rendered text is made inert (a zero-width joiner
 * between the braces): the model reads the user's `{{var}}` as written, as the
 * spec asks, and an unknown one cannot fail the turn. Apart from that the
 * section text is byte-identical to `cyrene whale render`.
 *
 * The reflex layer (spec §8, host/whale-reflex.ts) rides on this row too: a
 * matching rule adds a framed pre-step message for root agents, in every preset.
 */
export const name = 'whale-persona'
export const inject = ['systemPrompt']

export interface Config {
  /** A config file to read instead of the located one (like DSH_WHALE_CONFIG). */
  configFile: string
  prefixOrder: number
  thinkingOrder: number
  suffixOrder: number
}

export const Config: Schema<Config> = Schema.object({
  configFile: Schema.string().default('').description('config.json to read instead of DSH_WHALE_CONFIG / $DSH_HOME/whale-persona/config.json'),
  prefixOrder: Schema.number().default(1).description('deployment:persona-prefix: right after the persona (0)'),
  thinkingOrder: Schema.number().default(20).description('whale:thinking-language'),
  suffixOrder: Schema.number().default(10200).description('deployment:persona-suffix: after every other section'),
})

export class WhalePersona extends Service {
  static inject = ['systemPrompt']
  private readonly capture = new Map<string, boolean>()
  private readonly rendered = new PerAssembly<RenderedSegments>()
  /** The config as one assembly read it: its sections and `{{user_nickname}}` see the same file (decision 054). */
  private readonly configs = new PerAssembly<ReturnType<typeof readConfigText>>()
  readonly config: Config
  /** Registrations that failed (e.g. another whale-persona plugin owns the names), for the doctor. */
  readonly failures: string[] = []
  /** The reflex layer (spec §8) of this row: `oncePerSession` bookkeeping and the last ledger failure. */
  readonly reflex = new ReflexState()

  constructor(ctx: Context, config: Config) {
    super(ctx, 'whalePersona')
    this.config = config
    registerSections(ctx, this)
    registerReflexStep(ctx, this.reflex)
  }

  captureOn(sessionId: string): boolean {
    return this.capture.get(sessionId) === true
  }

  setCapture(sessionId: string, on: boolean): void {
    if (on) this.capture.set(sessionId, true)
    else this.capture.delete(sessionId)
  }

  /**
   * The segments for one assembly. DSH calls the three section texts with the
   * same context object, so the files are read and rendered once per assembly.
   */
  segmentsFor(assembly: { agent?: unknown }): RenderedSegments {
    return this.rendered.get(assembly, () => this.segments(assembly.agent as AssemblyAgent | undefined, assembly))
  }

  /** The segments, exactly as `cyrene whale render` computes them; never throws. With `assembly`, its one reading of the config. */
  segments(agent: AssemblyAgent | undefined, assembly?: object): RenderedSegments {
    const sessionId = agent?.session?.id ?? ''
    const input = loadRenderInput(
      { env: process.env, cwd: process.cwd() },
      {
        configOverride: this.configOverride(),
        model: agent?.options?.model ?? '',
        hostCwd: agent?.session?.header?.cwd ?? '',
        sessionCapture: sessionId !== '' && this.captureOn(sessionId),
      },
      this.configFor(assembly),
    )
    // Only confirmations the person recorded count (CONTRACT#whale-confirms): a confirm line the model appended is not one.
    return renderSegments({ ...input, vouch: personVouch(input.inboxText) })
  }

  /** The config file this row reads, when there is one; without it capture collects nothing. */
  configFile(): { path: string; exists: boolean } {
    try {
      const { where, configText } = readConfigText({ env: process.env, cwd: process.cwd() }, this.configOverride())
      return { path: where.configFile, exists: configText !== null }
    } catch {
      return { path: this.config.configFile, exists: false }
    }
  }

  private configOverride(): string | undefined {
    return this.config.configFile === '' ? undefined : this.config.configFile
  }

  /** The located config and its text, once for `assembly` (DSH's assembly context); without one, read now. */
  private configFor(assembly: object | undefined): ReturnType<typeof readConfigText> {
    return this.configs.get(assembly, () => readConfigText({ env: process.env, cwd: process.cwd() }, this.configOverride()))
  }

  /** `persona.userName` when the person set one; a source of `{{user_nickname}}`. With `assembly`, the config its sections read. */
  userName(assembly?: object): string | undefined {
    try {
      // Only the config: the inbox (which can be large) has nothing to say about the name.
      const { configText } = this.configFor(assembly)
      const raw: unknown = JSON.parse(configText ?? '{}')
      const given = (raw as { persona?: { userName?: unknown } } | null)?.persona?.userName
      return typeof given === 'string' && given.trim() !== '' ? normaliseConfig(raw).persona.userName : undefined
    } catch {
      return undefined
    }
  }
}

const MEMORY_HINT = 'on | off | status'
/** The switch is whale-persona's candidate capture only; "memory off" must not read as Cyrene forgetting (issue 13). */
const NOT_CYRENE_MEMORY = '这个开关只管本会话的候选收集，不是昔涟的记忆：她的记忆照常读写。'

/** Without a whale-persona config the switch changes a flag nothing reads: say so, every time (issue 9). */
function noConfigNote(service: WhalePersona): string {
  const file = service.configFile()
  return file.exists ? '' : `注意：还没有 whale-persona 配置（${file.path}），所以开了也不会收集任何东西。`
}

/**
 * `/memory on|off|status`: the spec's per-session capture switch; Cyrene's
 * presets reach it as `/memory capture on|off|status` (`usage` names that form).
 */
export function captureCommand(
  service: WhalePersona,
  sessionId: string,
  input: string,
  usage = `/memory ${MEMORY_HINT}`,
): { kind: 'success' | 'error'; text: string } {
  const word = input.trim().toLowerCase()
  if (word === 'on' || word === 'off') {
    service.setCapture(sessionId, word === 'on')
    return {
      kind: 'success',
      text:
        (word === 'on'
          ? `本会话的 whale-persona 收口已开启：AI 只会提出候选，等你确认（cyrene whale inbox list）。${NOT_CYRENE_MEMORY}`
          : `本会话的 whale-persona 收口已关闭：不再提出候选。${NOT_CYRENE_MEMORY}`) + noConfigNote(service),
    }
  }
  if (word === 'status' || word === '') {
    return {
      kind: 'success',
      text: `本会话的 whale-persona 收口（把对话提成候选、等你确认）：${service.captureOn(sessionId) ? '开启' : '关闭'}。${NOT_CYRENE_MEMORY}${noConfigNote(service)}`,
    }
  }
  return { kind: 'error', text: `用法：${usage}` }
}

export function apply(ctx: Context, config: Config): void {
  ctx.plugin(WhalePersona, config)
}

/** Registrations run from the service's own context, so they go when it goes. */
function registerSections(ctx: Context, service: WhalePersona): void {
  const sections: [string, number, (s: RenderedSegments) => string][] = [
    [SECTION_NAMES.prefix, service.config.prefixOrder, (s) => s.prefix],
    [SECTION_NAMES.thinking, service.config.thinkingOrder, (s) => s.thinking],
    [SECTION_NAMES.suffix, service.config.suffixOrder, (s) => s.suffix],
  ]
  for (const [sectionName, order, pick] of sections) {
    try {
      ctx.systemPrompt.section({
        name: sectionName,
        order,
        text: (assembly) => {
          try {
            return inertBraces(pick(service.segmentsFor(assembly)))
          } catch {
            return ''
          }
        },
      })
    } catch (error) {
      service.failures.push(`${sectionName}: ${(error as Error).message}`)
    }
  }
  ctx.inject(['commands'], (inner) => {
    try {
      inner.commands.register({
        name: 'memory',
        description: 'whale-persona 候选收口（本会话）：/memory on|off|status',
        input: { hint: MEMORY_HINT },
        handler: ({ agent, rawInput }) => captureCommand(service, agent.session.id, rawInput),
      })
    } catch (error) {
      service.failures.push(`/memory: ${(error as Error).message}`)
    }
  })
}
