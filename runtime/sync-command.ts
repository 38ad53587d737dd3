import type { CyreneSubcommand } from './cyrene-subcommands.ts'

/**
 * `/cyrene sync`: one SiYuan sync run now, the same run as the panel's button
 * and `cyrene sync`; with `git.remote` set, the git sync with the other
 * machines first (`cyrene sync git`, CONTRACT §14). Both live beside the
 * memory engine (row cyrene-panel), reached through the cyreneMemory service.
 */
export const syncRow: CyreneSubcommand = {
  name: 'sync',
  usage: 'sync',
  summary: '立即同步记忆：设了 git.remote 时先与其他机器 git 同步，再同步到思源笔记',
  run: async (ctx) => {
    const memory = ctx.get('cyreneMemory')
    const git = memory?.gitSync
    const sync = memory?.siyuanSync
    if (sync === undefined && git === undefined) return { kind: 'error', text: '这个 DSH 进程没有持有记忆引擎，同步不在这里运行（/cyrene doctor 查看）。' }
    const said: string[] = []
    let ok = true
    if (git !== undefined && git.state().remote !== undefined) {
      const r = await git.runNow()
      ok &&= r.ok
      said.push(r.ok ? `Git 同步：${r.message}` : `Git 同步未完成：${r.message}`)
      const waiting = git.state().conflicts
      if (waiting > 0) said.push(`有 ${waiting} 处两台机器各改了的记忆等你选择：cyrene memory check 列出，cyrene memory resolve <id> --keep a|b|both 决定。`)
    }
    // With the git sync on and SiYuan off, SiYuan has nothing to say.
    const siyuanOff = memory?.store()?.settings.values.siyuan.enabled === false
    if (sync !== undefined && !(said.length > 0 && siyuanOff)) {
      const report = await sync.runNow()
      ok &&= report.ok
      said.push(report.ok ? `思源同步：${report.message}` : `思源同步未完成：${report.message}`)
    }
    return { kind: ok ? 'success' : 'error', text: said.join('\n') }
  },
}
