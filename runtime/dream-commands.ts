import type { Context } from '@deepseek-ai/cordis'
import type {} from '@deepseek-ai/dsh-commands'
import type { CommandResult, CyreneSubcommand } from './cyrene-subcommands.ts'

/**
 * `/cyrene dream on|off` and `/dream`: registered now so they never reach the
 * model as a message; the dream work (issue 11) fills these two handlers.
 * Until then each says plainly what is missing and changes nothing.
 */
const NOT_BUILT = '夜梦还没有做：这个版本不会做梦、不写梦志、也不做月检/年检，什么都没改。'

function dreamSwitch(args: readonly string[]): CommandResult {
  const word = (args[0] ?? '').toLowerCase()
  if (word !== 'on' && word !== 'off') return { kind: 'error', text: '用法：/cyrene dream on|off（切换本会话的夜梦）' }
  return { kind: 'error', text: `${NOT_BUILT}本会话的夜梦开关也还不存在，所以「${word}」没有效果。` }
}

function dreamNow(): CommandResult {
  return { kind: 'error', text: `${NOT_BUILT}/dream 以后会立刻做一次夜梦。` }
}

export const dreamRow: CyreneSubcommand = {
  name: 'dream',
  usage: 'dream on|off',
  summary: '本会话的夜梦开关（夜梦还没有做）',
  run: (_ctx, args) => dreamSwitch(args),
}

export function registerDreamCommand(ctx: Context): void {
  ctx.commands.register({
    name: 'dream',
    description: '昔涟：现在做一次夜梦（还没有做）',
    handler: () => dreamNow(),
  })
}
