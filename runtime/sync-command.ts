import { t } from '../i18n/index.ts'
import { siyuanReportText } from '../siyuan/index.ts'
import { gitReportText } from '../gitsync/index.ts'
import type { CyreneSubcommand } from './cyrene-subcommands.ts'

/**
 * `/cyrene sync`: with `git.remote` set, one git sync with the other machines
 * first; then one SiYuan sync run, the same run as the panel's button and
 * `cyrene sync`. Both live beside the memory engine (row cyrene-panel),
 * reached through their seats (host/service-seat.ts).
 */
export const syncRow: CyreneSubcommand = {
  name: 'sync',
  usage: 'help.sync.usage',
  summary: 'help.sync.summary',
  run: async (ctx, _args, _agent, lang) => {
    const memory = ctx.get('cyreneMemory')
    const seats = ctx.get('cyreneSeats')
    const git = seats?.gitSyncSeat.get()
    const sync = seats?.siyuanSeat.get()
    if (sync === undefined && git === undefined) return { kind: 'error', text: t('chat.sync.elsewhere', lang) }
    const said: string[] = []
    let ok = true
    if (git !== undefined && (await git.remote()) !== undefined) {
      const r = await git.runNow()
      ok &&= r.ok
      said.push(t(r.ok ? 'chat.sync.gitDone' : 'chat.sync.gitFailed', lang, { message: gitReportText(r, lang) }))
      const waiting = git.state().conflicts
      if (waiting > 0) said.push(t('chat.sync.gitConflicts', lang, { n: waiting }))
    }
    // With the git sync on and SiYuan off, SiYuan has nothing to say.
    const siyuanOff = memory?.store()?.settings.values.siyuan.enabled === false
    if (sync !== undefined && !(said.length > 0 && siyuanOff)) {
      const report = await sync.runNow()
      ok &&= report.ok
      said.push(t(report.ok ? 'chat.sync.done' : 'chat.sync.failed', lang, { message: siyuanReportText(report, lang) }))
    }
    return { kind: ok ? 'success' : 'error', text: said.join('\n') }
  },
}
