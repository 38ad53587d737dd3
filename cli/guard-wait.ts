import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { GuardWindowBusyError, windowsOpenElsewhere } from '../durable/guard-window.ts'
import { parseSettingsText } from '../memory/person.ts'
import { t } from '../i18n/index.ts'
import { CliError, type CliIO } from './io.ts'
import { langOf } from './help-text.ts'
import { refusalText } from './refusal-text.ts'
import { storeRootFor } from './store-places.ts'

/** How often a command waiting for a model tool call looks again. */
const POLL_MS = 100

/**
 * Before a command writes the whale-persona files (which take no store lock), it waits while a DSH host's
 * store guard has a tool call's window open, as a store write does (decision 295): what it wrote meanwhile
 * would be put back. Up to `lock.waitSeconds`, then a refusal that changed nothing (exit 2). Said once on
 * stderr. A race with a window opening just after remains; the guard keeps what it puts back (decision 296).
 */
export async function waitOutGuardWindows(io: CliIO): Promise<void> {
  const root = storeRootFor(io.env, io.cwd)
  if (root === undefined) return
  const meta = join(root, '元')
  const waitMs = waitSeconds(meta) * 1000
  const began = Date.now()
  let told = false
  for (let open = windowsOpenElsewhere(meta); open.length > 0; open = windowsOpenElsewhere(meta)) {
    const waited = Date.now() - began
    if (waited >= waitMs) throw new CliError(refusalText(new GuardWindowBusyError(open[0]!, waited), io), 2)
    if (!told) io.stderr(`${t('store.guardWindow.waiting', langOf(io), { pid: String(open[0]!.pid) })}\n`)
    told = true
    await sleep(Math.min(POLL_MS, waitMs - waited))
  }
}

function waitSeconds(meta: string): number {
  try {
    return parseSettingsText(readFileSync(join(meta, 'settings.json'), 'utf8')).settings.values.lock.waitSeconds
  } catch {
    return parseSettingsText('{}').settings.values.lock.waitSeconds
  }
}
