import { Context } from '@deepseek-ai/cordis'
import AgentRegistry from '@deepseek-ai/dsh-agent'
import AgentLoop from '@deepseek-ai/dsh-agent-loop'
import CommandRuntime from '@deepseek-ai/dsh-commands'
import LlmRuntime from '@deepseek-ai/dsh-llm'
import * as Persona from '@deepseek-ai/dsh-persona'
import SessionStore, { SessionId } from '@deepseek-ai/dsh-session'
import SystemPrompt from '@deepseek-ai/dsh-system-prompt'
import ToolRuntime from '@deepseek-ai/dsh-tools'
import { assembleFor, runCommand } from './agent-ops.ts'
import { MockLlm, type Script } from './mock-llm.ts'

/**
 * Recipe A: the minimal in-process DSH spine (llm, session, system prompt,
 * tools, agent, agent loop, commands) with a scripted LLM. Faster and smaller
 * than the full composition (host.ts); for testing one row against the real
 * core services. Rows are mounted with `ctx.plugin` (host level) or in an
 * agent's setup (preset level).
 */
export async function bootSpine(opts: { script?: Script } = {}) {
  const ctx: any = new Context()
  await ctx.plugin(LlmRuntime)
  await ctx.plugin(SessionStore)
  await ctx.plugin(SystemPrompt, { persona: 'You are a deployment persona on {{model}}.' })
  await ctx.plugin(ToolRuntime)
  await ctx.plugin(AgentRegistry)
  await ctx.plugin(AgentLoop, { agents: [] })
  await ctx.plugin(CommandRuntime)
  const llm = new MockLlm(opts.script)
  ctx.llm.registerAdapter(['mock'], llm)
  const handles: { dispose(): Promise<void> | void }[] = []

  /** An agent whose scope mounts a sealed persona and the given preset-level rows. */
  async function createAgent(persona: string, rows: [unknown, unknown?][] = []) {
    const handle = await ctx.agents.create({
      sessionId: SessionId(`spine-${handles.length}-${Date.now()}`),
      agentOptions: { provider: 'mock', model: 'mock-model' },
      meta: { cwd: process.cwd() },
      setup: async (agentCtx: any) => {
        await agentCtx.plugin(Persona, { text: persona, complete: true, includeRuntimeContext: true })
        for (const [plugin, config] of rows) await agentCtx.plugin(plugin, config)
      },
    })
    handles.push(handle)
    return handle.agent
  }

  const assemble = (agent: any) => assembleFor(ctx, agent)
  const command = (agent: any, line: string) => runCommand(ctx, agent, line)

  async function dispose() {
    for (const h of handles.reverse()) await h.dispose()
    await ctx.fiber.dispose()
  }

  return { ctx, llm, createAgent, assemble, command, dispose }
}
