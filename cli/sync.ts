import { SiyuanSync } from '../host/siyuan/sync.ts'
import { CyreneCommand } from './command.ts'
import type { CliIO } from './io.ts'
import { openStore, storeOptions, type StoreOptions } from './memory-shared.ts'

/** `cyrene sync`: one SiYuan sync run now, from this command line (the same run the panel button and /cyrene sync start). */
export function syncFamily(io: CliIO): CyreneCommand {
  return storeOptions(
    new CyreneCommand('sync', io).description(
      `send what changed in the memory store to SiYuan now (one document per store file; needs siyuan.enabled
in 元/settings.json and the token in the environment variable siyuan.tokenEnv names, SIYUAN_API_TOKEN by default).
Exit 1 when SiYuan did not take everything: what is left waits for the next run (retried with backoff
only when SiYuan could not be reached; read-only mode, HTTP 401/403 or a closed notebook wait for you),
and a file SiYuan refused is named and set aside until it changes. A document deleted in SiYuan is
made again.`,
    ),
  ).act<StoreOptions>(async (o) => await sync(o, io))
}

async function sync(o: StoreOptions, io: CliIO): Promise<number> {
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
