import type { CyreneSubcommand } from './cyrene-subcommands.ts'

/**
 * `/cyrene sync`: one SiYuan sync run now, the same run as the panel's button
 * and `cyrene sync`; answers with what was sent. The sync lives beside the
 * memory engine (row cyrene-panel, host/siyuan/), reached through the cyreneMemory service.
 */
export const syncRow: CyreneSubcommand = {
  name: 'sync',
  usage: 'sync',
  summary: '立即把记忆同步到思源笔记',
  run: async (ctx) => {
    const sync = ctx.get('cyreneMemory')?.siyuanSync
    if (sync === undefined) return { kind: 'error', text: '这个 DSH 进程没有持有记忆引擎，思源同步不在这里运行（/cyrene doctor 查看）。' }
    const report = await sync.runNow()
    return report.ok ? { kind: 'success', text: `思源同步：${report.message}` } : { kind: 'error', text: `思源同步未完成：${report.message}` }
  },
}
