import type { Context } from '@deepseek-ai/cordis'
import type { Agent } from '@deepseek-ai/dsh-agent'
import { t, type Lang, type MessageKey } from '../i18n/index.ts'

/**
 * DSH's command result (@deepseek-ai/dsh-commands): `error` is shown red as
 * failed, so it is kept for what did not happen; an answer to a question
 * (a bare `/cyrene nickname`) is a `success`. DSH web shows the text's first
 * line in the collapsed row and the whole text when a multi-line row is
 * opened, so a long answer starts with a one-line summary.
 */
export type CommandResult = { kind: 'success'; text?: string } | { kind: 'error'; text: string }

/**
 * One `/cyrene <name> …` sub-command. DSH command names have no spaces, so
 * `/cyrene` is one command that dispatches on its first word; each feature
 * adds its own row to the table in commands.ts.
 */
export interface CyreneSubcommand {
  name: string
  /** Shown by `/cyrene help`, e.g. `nickname <名字>` (a catalogue key: the argument's name is in the person's language). */
  usage: MessageKey
  /** One line for `/cyrene help`. */
  summary: MessageKey
  run(ctx: Context, args: string[], agent: Agent, lang: Lang): CommandResult | Promise<CommandResult>
}

export function dispatchSubcommand(
  table: readonly CyreneSubcommand[],
  ctx: Context,
  rawInput: string,
  agent: Agent,
  lang: Lang,
): CommandResult | Promise<CommandResult> {
  const [sub = '', ...args] = rawInput
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '')
  const name = sub.toLowerCase() || 'doctor'
  const row = table.find((r) => r.name === name)
  if (row === undefined) return { kind: 'error', text: t('chat.unknownSub', lang, { sub, names: table.map((r) => r.name).join(' | ') }) }
  return row.run(ctx, args, agent, lang)
}
