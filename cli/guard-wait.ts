import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { GuardWindowBusyError, windowsClosed } from '../durable/guard-window.ts'
import { parseSettingsText } from '../memory/person.ts'
import { saidRefusal, type CliIO } from './io.ts'
import { langOf, say } from './help-text.ts'
import { refusalText } from './refusal-text.ts'
import { storeRootFor } from './store-places.ts'

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
  try {
    await windowsClosed(meta, { began: Date.now(), waitMs: waitSeconds(meta) * 1000, waiting: sayWaiting(io) })
  } catch (error) {
    if (error instanceof GuardWindowBusyError) throw saidRefusal((lang) => refusalText(error, { lang }), langOf(io))
    throw error
  }
}

/** Tells the person, on stderr, that a write waits for a model tool call running in DSH, and why. */
export function sayWaiting(io: CliIO): (mark: { pid: number }) => void {
  return (mark) => io.stderr(`${say(io, 'store.guardWindow.waiting', { pid: String(mark.pid) })}\n`)
}

function waitSeconds(meta: string): number {
  try {
    return parseSettingsText(readFileSync(join(meta, 'settings.json'), 'utf8')).settings.values.lock.waitSeconds
  } catch {
    return parseSettingsText('{}').settings.values.lock.waitSeconds
  }
}
