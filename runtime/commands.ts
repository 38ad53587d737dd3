import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import type {} from '@deepseek-ai/dsh-commands'
import { t, tKey } from '../i18n/index.ts'
import { dispatchSubcommand, type CyreneSubcommand } from './cyrene-subcommands.ts'
import { doctorRow } from './doctor-command.ts'
import { dreamRow, registerDreamCommand } from '../night/row.ts'
import { helpRow } from './help-command.ts'
import { uiLang } from './lang.ts'
import { memoryCommand } from './memory-command.ts'
import { backupRow, newVolumeRow, restoreRow } from './store-commands.ts'
import { syncRow } from './sync-command.ts'
import { formSubcommand, nicknameSubcommand, styleSubcommand } from '../rails/row.ts'

/**
 * Preset row `cyrene-commands`; the row itself declares
 * `inject: [commands, cyreneMemory]` (CONTRACT#presets).
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
  // DSH lists a command's description and hint as registered; they follow the language DSH had when this row started.
  const lang = uiLang(ctx)
  ctx.commands.register({
    name: 'cyrene',
    description: t('chat.cyrene.description', lang),
    input: { hint: SUBCOMMANDS.map((r) => tKey(r.usage, lang)).join(' | ') },
    handler: ({ rawInput, agent }) => dispatchSubcommand(SUBCOMMANDS, ctx, rawInput, agent, uiLang(ctx)),
  })

  // Preset-scoped, so it shadows the whale row's host-level /memory in Cyrene presets (CONTRACT#whale-capture).
  ctx.commands.register({
    name: 'memory',
    description: t('chat.memory.description', lang),
    input: { hint: t('chat.memory.hint', lang) },
    handler: ({ rawInput, agent }) => memoryCommand(ctx, agent.session.id, rawInput, uiLang(ctx)),
  })

  registerDreamCommand(ctx, lang, () => uiLang(ctx))
}
