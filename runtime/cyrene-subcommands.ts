import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'

export type CommandResult = { kind: 'success'; text?: string } | { kind: 'error'; text: string }

/**
 * One `/cyrene <name> …` sub-command. DSH command names have no spaces, so
 * `/cyrene` is one command that dispatches on its first word; each feature
 * adds its own row to the table in commands.ts.
 */
export interface CyreneSubcommand {
  name: string
  /** Shown by `/cyrene help`, e.g. `nickname <名字>`. */
  usage: string
  /** One line for `/cyrene help`. */
  summary: string
  run(ctx: Context, args: string[], agent: Agent): CommandResult | Promise<CommandResult>
}

export function dispatchSubcommand(table: readonly CyreneSubcommand[], ctx: Context, rawInput: string, agent: Agent): CommandResult | Promise<CommandResult> {
  const [sub = '', ...args] = rawInput
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '')
  const name = sub.toLowerCase() || 'doctor'
  const row = table.find((r) => r.name === name)
  if (row === undefined) return { kind: 'error', text: `未知子命令「${sub}」。可用：${table.map((r) => r.name).join(' | ')}（/cyrene help 看说明）` }
  return row.run(ctx, args, agent)
}
