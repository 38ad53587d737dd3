import type { MemoryStore } from '../../memory/index.ts'

/**
 * The panel's view of the dream registry `元/梦会话.json` (CONTRACT §4.3; the
 * dream work owns the file and what it means). Read leniently: sessions as a
 * map by id or as a list with `sessionId`; a session without `enabled` follows
 * `defaultEnabled`. The panel only ever changes one session's `enabled`.
 */
const DREAM_REGISTRY = '梦会话.json'

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

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v)
const text = (v: unknown, max: number): string | undefined => (typeof v === 'string' ? v.slice(0, max) : undefined)

function sessionsOf(raw: Json): Array<[string, Json]> {
  const s = raw.sessions
  if (Array.isArray(s)) return s.filter(isObject).flatMap((x) => (typeof x.sessionId === 'string' ? [[x.sessionId, x] as [string, Json]] : []))
  if (isObject(s)) return Object.entries(s).filter((e): e is [string, Json] => isObject(e[1]))
  return []
}

export async function readDreamRegistry(store: MemoryStore): Promise<DreamRegistryView> {
  const { value, problem } = await store.readMetaJson<unknown>(DREAM_REGISTRY, undefined)
  if (problem !== undefined) return { present: true, defaultEnabled: true, sessions: [], problem }
  if (!isObject(value)) return { present: false, defaultEnabled: true, sessions: [] }
  const defaultEnabled = value.defaultEnabled !== false
  const sessions = sessionsOf(value).map(([sessionId, s]) => {
    const session: DreamSession = { sessionId, enabled: typeof s.enabled === 'boolean' ? s.enabled : defaultEnabled }
    const at = text(s.lastActiveAt, 40)
    const said = text(s.lastUserText, 120)
    if (at !== undefined) session.lastActiveAt = at
    if (said !== undefined) session.lastUserText = said
    return session
  })
  sessions.sort((a, b) => (b.lastActiveAt ?? '').localeCompare(a.lastActiveAt ?? ''))
  return { present: true, defaultEnabled, sessions }
}

/** Sets one listed session's switch under the write lock; refuses an unknown id or a broken file (nothing written). */
export async function setDreamSession(store: MemoryStore, sessionId: string, enabled: boolean): Promise<void> {
  await store.withWriteLock(async (lock) => {
    const { value, problem } = await store.readMetaJson<unknown>(DREAM_REGISTRY, undefined)
    if (problem !== undefined) throw new Error(`${problem}; fix it first, nothing was written`)
    if (!isObject(value)) throw new Error('there is no dream registry yet (元/梦会话.json); open a Cyrene session first')
    const entry = sessionsOf(value).find(([id]) => id === sessionId)
    if (entry === undefined) throw new Error(`no session ${JSON.stringify(sessionId.slice(0, 80))} in the dream registry`)
    entry[1].enabled = enabled
    await store.writeMetaJson(DREAM_REGISTRY, value, lock)
  })
}
