import { assembleContextFor } from '@deepseek-ai/dsh-agent'
import { renderContextSnapshot, renderPrompt } from '@deepseek-ai/dsh-system-prompt'

/** The prompt DSH would send for an agent now: the assembly, the system prompt, the context snapshot. */
export async function assembleFor(ctx: any, agent: any) {
  const assembly = await ctx.systemPrompt.assemble(assembleContextFor(agent))
  return { assembly, system: renderPrompt(assembly) as string, context: renderContextSnapshot(assembly) as string }
}

/** Run a slash command as the web client would; undefined when it is not a command here. */
export async function runCommand(ctx: any, agent: any, line: string) {
  const run = await ctx.commands.execute(agent, line, [], new AbortController().signal)
  return run?.result as { kind: 'success' | 'error'; text?: string } | undefined
}
