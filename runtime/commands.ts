import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import type {} from '@deepseek-ai/dsh-commands'
import { dispatchSubcommand, type CyreneSubcommand } from './cyrene-subcommands.ts'
import { doctorRow } from './doctor-command.ts'
import { dreamRow, registerDreamCommand } from './dream-commands.ts'
import { helpRow } from './help-command.ts'
import { memoryCommand, MEMORY_USAGE } from './memory-command.ts'
import { backupRow, newVolumeRow, restoreRow } from './store-commands.ts'
import { syncRow } from './sync-command.ts'
import { formSubcommand, nicknameSubcommand, styleSubcommand } from './voice-commands.ts'

/**
 * Preset row `cyrene-commands`; the row itself declares
 * `inject: [commands, cyreneMemory]` (contract §2).
 */
export const name = 'cyrene-commands'

export interface Config {}
export const Config: Schema<Config> = Schema.object({})

/** Every `/cyrene` sub-command; a feature adds its row here. `help` reads this table when asked. */
const SUBCOMMANDS: readonly CyreneSubcommand[] = [
  helpRow(() => SUBCOMMANDS),
  doctorRow,
  nicknameSubcommand,
  formSubcommand,
  styleSubcommand,
  newVolumeRow,
  backupRow,
  restoreRow,
  syncRow,
  dreamRow,
]

export function apply(ctx: Context): void {
  ctx.commands.register({
    name: 'cyrene',
    description: '昔涟：/cyrene help 列出全部命令',
    input: { hint: SUBCOMMANDS.map((r) => r.usage).join(' | ') },
    handler: ({ rawInput, agent }) => dispatchSubcommand(SUBCOMMANDS, ctx, rawInput, agent),
  })

  // Preset-scoped, so it shadows the whale row's host-level /memory in Cyrene presets (contract §2.3).
  ctx.commands.register({
    name: 'memory',
    description: '昔涟的记忆：/memory 概况 | /memory <要找的内容> | /memory show <id> | /memory capture on|off|status',
    input: { hint: MEMORY_USAGE },
    handler: ({ rawInput, agent }) => memoryCommand(ctx, agent.session.id, rawInput),
  })

  registerDreamCommand(ctx)
}
