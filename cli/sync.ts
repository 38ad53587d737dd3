import { SiyuanSync, siyuanReportText } from '../siyuan/index.ts'
import { GitDamagedError, GitError, GitMissingError, remoteProblemSaid, syncGit, type GitSyncReport } from '../memory/git.ts'
import { CyreneCommand } from './command.ts'
import { CliError, type CliIO } from './io.ts'
import { guarded, openStore, storeOptions, type StoreOptions } from './memory-shared.ts'
import { storeSaidText } from './refusal-text.ts'
import { help, langOf, say } from './help-text.ts'
import { gitReportText } from '../gitsync/index.ts'

/** `cyrene sync`: one SiYuan sync run now; `cyrene sync git`: one git sync of the store with the other machines. */
export function syncFamily(io: CliIO): CyreneCommand {
  const sync = storeOptions(new CyreneCommand('sync', io).description(help(io, 'cli.sync'))).act<StoreOptions>(async (o) => await siyuan(o, io))
  storeOptions(
    sync
      .command('git')
      .description(help(io, 'cli.sync.git'))
      .option('--remote <URL>', help(io, 'cli.sync.git.remote'))
      .option('--gc', help(io, 'cli.sync.git.gc')),
  ).act<GitOptions>(async (o) => await gitSync(o, io))
  return sync
}

interface GitOptions extends StoreOptions {
  remote?: string
  gc?: true
}

/** memory/git-repo.ts's problem with a remote, in the person's words (read back from its sentence, whose forms are fixed). */

async function siyuan(o: StoreOptions, io: CliIO): Promise<number> {
  const store = await openStore(io, o.root)
  try {
    const report = await new SiyuanSync(store, { env: io.env }).runNow()
    if (o.json === true) io.stdout(JSON.stringify(report, null, 2) + '\n')
    else io.stdout(`${say(io, 'store.sync.line', { text: siyuanReportText(report, langOf(io)) })}\n`)
    return report.ok ? 0 : 1
  } finally {
    await store.close()
  }
}

async function gitSync(o: GitOptions, io: CliIO): Promise<number> {
  if (o.remote !== undefined) {
    const problem = remoteProblemSaid(o.remote)
    if (problem !== undefined) throw new CliError(say(io, 'store.sync.badRemote', { problem: storeSaidText(problem.said, problem.en, io) }), 2)
  }
  const store = await openStore(io, o.root)
  try {
    if (o.remote !== undefined && o.remote !== store.settings.values.git.remote) await guarded(io, () => store.saveSettings({ git: { remote: o.remote } }))
    let report: GitSyncReport
    try {
      report = await guarded(io, () => syncGit(store, { env: io.env, gc: o.gc === true }))
    } catch (error) {
      if (error instanceof GitMissingError) throw new CliError(say(io, 'store.sync.gitMissing'), 3)
      if (error instanceof GitDamagedError) throw new CliError(say(io, 'store.sync.gitDamaged', { object: error.object, root: store.root }), 3)
      // git itself refused (a broken repository, no permission in .git/): the store is as it was, or as merged (CONTRACT#git-switch).
      if (error instanceof GitError) throw new CliError(say(io, 'store.sync.gitFailed', { error: error.message }), 3)
      throw error
    }
    if (o.json === true) io.stdout(JSON.stringify(report, null, 2) + '\n')
    else io.stdout(`${say(io, 'store.sync.gitLine', { text: gitReportText(report, langOf(io)) })}\n`)
    return report.ok ? 0 : 1
  } finally {
    await store.close()
  }
}
