import { t } from '../i18n/index.ts'
import type { CyreneSubcommand } from './cyrene-subcommands.ts'

/**
 * `/cyrene sync`: one SiYuan sync run now, the same run as the panel's button
 * and `cyrene sync`; answers with what was sent. The sync lives beside the
 * memory engine (row cyrene-panel, host/siyuan/), reached through the cyreneMemory service.
 */
export const syncRow: CyreneSubcommand = {
  name: 'sync',
  usage: 'help.sync.usage',
  summary: 'help.sync.summary',
  run: async (ctx, _args, _agent, lang) => {
    const sync = ctx.get('cyreneMemory')?.siyuanSync
    if (sync === undefined) return { kind: 'error', text: t('chat.sync.elsewhere', lang) }
    const report = await sync.runNow()
    return report.ok
      ? { kind: 'success', text: t('chat.sync.done', lang, { message: report.message }) }
      : { kind: 'error', text: t('chat.sync.failed', lang, { message: report.message }) }
  },
}
