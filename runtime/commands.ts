import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import type {} from '@deepseek-ai/dsh-commands'
import { captureCommand, type WhalePersona } from '../host/whale-row.ts'
import { dispatchSubcommand, type CyreneSubcommand } from './cyrene-subcommands.ts'
import { doctorRow } from './doctor-command.ts'

/**
 * Preset row `cyrene-commands`; the row itself declares
 * `inject: [commands, cyreneMemory]` (contract §2).
 */
export const name = 'cyrene-commands'

export interface Config {}
export const Config: Schema<Config> = Schema.object({})

/** Every `/cyrene` sub-command; a feature adds its row here. */
const SUBCOMMANDS: readonly CyreneSubcommand[] = [doctorRow]

export function apply(ctx: Context): void {
  ctx.commands.register({
    name: 'cyrene',
    description: '昔涟：/cyrene doctor 查看状态与各项限制',
    input: { hint: SUBCOMMANDS.map((r) => r.usage).join(' | ') },
    handler: ({ rawInput, agent }) => dispatchSubcommand(SUBCOMMANDS, ctx, rawInput, agent),
  })

  // Cyrene's /memory shadows whale-persona's in Cyrene presets, so it answers the
  // whale capture switch too: both work wherever they are mounted.
  ctx.commands.register({
    name: 'memory',
    description: '本会话的 whale-persona 候选收口：/memory on|off|status（不是昔涟的记忆开关）',
    input: { hint: MEMORY_SUBCOMMANDS },
    handler: ({ rawInput, agent }) => {
      const [sub = ''] = rawInput.trim().split(/\s+/)
      if (['on', 'off', 'status', ''].includes(sub.toLowerCase())) {
        const whale = ctx.get('whalePersona') as WhalePersona | undefined
        if (whale === undefined) return { kind: 'error', text: 'whale-persona 行没有挂载，收口开关不可用（见 /cyrene doctor）。' }
        return captureCommand(whale, agent.session.id, rawInput)
      }
      return {
        kind: 'error',
        text: `没有「/memory ${sub}」。可用：${MEMORY_SUBCOMMANDS}。想找记忆就直接问（会用 memory_search），或在命令行用 cyrene memory search。`,
      }
    },
  })
}

const MEMORY_SUBCOMMANDS = 'on | off | status'
