import type { MemoryStore } from '../memory/index.ts'
import { newestFirst, readRegistry, updateRegistry } from './registry.ts'

/**
 * The panel's view of the dream registry `元/梦会话.json` (CONTRACT#night): the
 * one reader and writer in registry.ts, shaped for the page, newest
 * first (registry.ts `newestFirst`, the night's own order). The panel only ever changes one session's `enabled`.
 */
interface DreamSession {
  sessionId: string
  enabled: boolean
  lastActiveAt?: string
  lastUserText?: string
}

export interface DreamRegistryView {
  present: boolean
  defaultEnabled: boolean
  sessions: DreamSession[]
  problem?: string
}

export async function readDreamRegistry(store: MemoryStore): Promise<DreamRegistryView> {
  const { registry, problem } = await readRegistry(store)
  const sessions = newestFirst(registry).map(([sessionId, s]): DreamSession => ({
    sessionId,
    enabled: s.enabled,
    ...(s.lastActiveAt === '' ? {} : { lastActiveAt: s.lastActiveAt }),
    ...(s.lastUserText === '' ? {} : { lastUserText: s.lastUserText }),
  }))
  return {
    present: problem !== undefined || sessions.length > 0,
    defaultEnabled: registry.defaultEnabled,
    sessions,
    ...(problem === undefined ? {} : { problem }),
  }
}

/** Sets one listed session's switch under the write lock; refuses an unknown id or a broken file (nothing written). */
export async function setDreamSession(store: MemoryStore, sessionId: string, enabled: boolean): Promise<void> {
  const { registry, problem } = await readRegistry(store)
  if (problem !== undefined) throw new Error(`${problem}; fix it first, nothing was written`)
  if (!Object.hasOwn(registry.sessions, sessionId))
    throw new Error(`no session ${JSON.stringify(sessionId.slice(0, 80))} in the dream registry; open it in a Cyrene preset first`)
  await updateRegistry(store, (r) => {
    const session = r.sessions[sessionId]
    if (session !== undefined) session.enabled = enabled
  })
}
