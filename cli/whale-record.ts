import { existsSync } from 'node:fs'
import type { WindowMark } from '../durable/guard-window.ts'
// Not memory/index.ts: `cyrene whale …` must not load the memory engine (only `inbox confirm` opens the store, lazily).
import { readInboxMarksSync, recordInboxLines } from '../memory/marks.ts'
import { resolveRoot } from '../memory/paths.ts'
import type { InboxState } from '../whale/inbox-actions.ts'
import { confirmsSomething, inboxLineKey, replayInbox, splitLines, vouchFromRecord, type ConfirmVouch } from '../whale/inbox.ts'

/**
 * The command line's side of the inbox record (CONTRACT#whale-confirms): the person's
 * confirmations are written to `元/whale-confirms.json` of the memory store,
 * which the host reads before it injects an entry as confirmed. Without a
 * memory store (whale-persona used on its own, the conformance suite) there is
 * no host injection to protect and the inbox reads as the spec says.
 */
function storeRoot(env: NodeJS.ProcessEnv): string | undefined {
  try {
    const root = resolveRoot({ env })
    return existsSync(root) ? root : undefined
  } catch {
    return undefined
  }
}

/** The person's record as a vouch for the replay; undefined without a store or a record (the spec's view). */
export function recordedVouch(env: NodeJS.ProcessEnv): ConfirmVouch | undefined {
  const root = storeRoot(env)
  if (root === undefined) return undefined
  const read = readInboxMarksSync(root)
  return read.missing ? undefined : vouchFromRecord(read.marks.lines)
}

/** The inbox as the host will inject it: a confirmation the person did not record counts as proposed. */
export function vouchedState(state: InboxState, env: NodeJS.ProcessEnv): InboxState {
  const vouch = recordedVouch(env)
  if (vouch === undefined) return state
  return { ...state, entries: replayInbox(splitLines(state.rawText), vouch) }
}

/**
 * Records the confirm lines the person is about to append. A store that has
 * no record yet first takes over the inbox's confirmations as they are (once).
 */
export async function recordConfirms(
  env: NodeJS.ProcessEnv,
  rawText: string,
  lines: readonly string[],
  waiting: (mark: WindowMark) => void = () => undefined,
): Promise<void> {
  const root = storeRoot(env)
  if (root === undefined || lines.length === 0) return
  const { MemoryStore } = await import('../memory/index.ts')
  // The person's confirmation waits for a model tool call running in DSH, as their other writes do (decision 295): the inbox line is appended after it.
  const store = await MemoryStore.open({ env, waitForGuardWindows: waiting })
  if (readInboxMarksSync(root).missing) await recordInboxLines(store, splitLines(rawText).filter(confirmsSomething).map(inboxLineKey), { migrate: true })
  await recordInboxLines(store, lines.map(inboxLineKey))
}
