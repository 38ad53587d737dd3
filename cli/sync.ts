import { SiyuanSync } from '../host/siyuan/sync.ts'
import { GitError, GitMissingError, remoteProblem, syncGit, type GitSyncReport } from '../memory/index.ts'
import { CyreneCommand } from './command.ts'
import { CliError, type CliIO } from './io.ts'
import { guarded, openStore, storeOptions, type StoreOptions } from './memory-shared.ts'

/** `cyrene sync`: one SiYuan sync run now; `cyrene sync git`: one git sync of the store with the other machines. */
export function syncFamily(io: CliIO): CyreneCommand {
  const sync = storeOptions(
    new CyreneCommand('sync', io).description(
      `send what changed in the memory store to SiYuan now (one document per store file; needs siyuan.enabled
in 元/settings.json and the token in the environment variable siyuan.tokenEnv names, SIYUAN_API_TOKEN by default).
Exit 1 when SiYuan did not take everything: what is left waits for the next run (retried with backoff
only when SiYuan could not be reached; read-only mode, HTTP 401/403 or a closed notebook wait for you),
and a file SiYuan refused is named and set aside until it changes. A document deleted in SiYuan is
made again.
\`cyrene sync git\` replicates the store through git instead (one memory on every machine).`,
    ),
  ).act<StoreOptions>(async (o) => await siyuan(o, io))
  storeOptions(
    sync
      .command('git')
      .description(
        `one git sync with your other machines: commit what changed here (one commit listing the entries written),
fetch, merge with cyrene's own merge (never a conflict marker in a file; what both machines changed differently
waits for you in \`cyrene memory check\`), push. The store becomes a git work tree on first use. The remote is
--remote URL (saved as git.remote in 元/settings.json) or git.remote; credentials come from git's credential
helpers, an ssh key or the environment, never from the address. Exit 1 when the remote could not be reached
or took nothing (your writes stay committed here and go at the next sync).`,
      )
      .option('--remote <URL>', 'the remote to sync through (a bare repository path, ssh or https); saved in 元/settings.json')
      .option('--gc', 'pack the history in .git/ now (the doctor says when it has grown past the store quota)'),
  ).act<GitOptions>(async (o) => await gitSync(o, io))
  return sync
}

interface GitOptions extends StoreOptions {
  remote?: string
  gc?: true
}

async function siyuan(o: StoreOptions, io: CliIO): Promise<number> {
  const store = await openStore(io, o.root)
  try {
    const report = await new SiyuanSync(store, { env: io.env }).runNow()
    if (o.json === true) io.stdout(JSON.stringify(report, null, 2) + '\n')
    else io.stdout(`sync: ${report.message}\n`)
    return report.ok ? 0 : 1
  } finally {
    await store.close()
  }
}

async function gitSync(o: GitOptions, io: CliIO): Promise<number> {
  if (o.remote !== undefined) {
    const problem = remoteProblem(o.remote)
    if (problem !== undefined) throw new CliError(`--remote: ${problem}. Nothing was changed.`, 2)
  }
  const store = await openStore(io, o.root)
  try {
    if (o.remote !== undefined && o.remote !== store.settings.values.git.remote) await guarded(() => store.saveSettings({ git: { remote: o.remote } }))
    let report: GitSyncReport
    try {
      report = await guarded(() => syncGit(store, { env: io.env, gc: o.gc === true }))
    } catch (error) {
      if (error instanceof GitMissingError) throw new CliError(error.message, 3)
      // git itself refused (a broken repository, no permission in .git/): the store is as it was, or as merged (CONTRACT §14.4).
      if (error instanceof GitError)
        throw new CliError(`${error.message}. The store's files are as they were before this sync; fix the cause and sync again.`, 3)
      throw error
    }
    if (o.json === true) io.stdout(JSON.stringify(report, null, 2) + '\n')
    else io.stdout(`sync git: ${report.message}\n`)
    return report.ok ? 0 : 1
  } finally {
    await store.close()
  }
}
