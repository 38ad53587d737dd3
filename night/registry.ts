import { join } from 'node:path'
import { clip } from '../prompt/index.ts'
import { readTextOr } from '../memory/files.ts'
import { LAYOUT } from '../memory/paths.ts'
import type { MemoryStore } from '../memory/index.ts'

/**
 * The dream registry `元/梦会话.json` (CONTRACT#night): every Cyrene session the
 * host has seen, whether it takes part in the night's dream, and the last
 * line the person wrote there (what the dream prompt shows). Written only by
 * the host, under the store's write lock, atomically. A file that is not a
 * registry is never overwritten: it is renamed aside (`梦会话.json.corrupt-…`)
 * and a fresh one is started, and the caller reports it to the doctor.
 */
export const REGISTRY_FILE = '梦会话.json'
export const LAST_LINE_CHARS = 200

export interface DreamSession {
  enabled: boolean
  lastActiveAt: string
  lastUserText: string
  preset: string
  /** The model route the session last used: the dream runs on it. */
  provider?: string
  model?: string
}

export interface DreamRegistry {
  version: 1
  defaultEnabled: boolean
  sessions: Record<string, DreamSession>
}

function emptyRegistry(): DreamRegistry {
  return { version: 1, defaultEnabled: true, sessions: {} }
}

/** The registry in a parsed value, or why it is not one. Pure. */
function parseRegistry(value: unknown): DreamRegistry | string {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return 'not a JSON object'
  const v = value as Record<string, unknown>
  if (v.sessions === null || typeof v.sessions !== 'object' || Array.isArray(v.sessions)) return '"sessions" is not an object'
  const out: DreamRegistry = { version: 1, defaultEnabled: v.defaultEnabled !== false, sessions: {} }
  for (const [id, raw] of Object.entries(v.sessions as Record<string, unknown>)) {
    if (raw === null || typeof raw !== 'object') return `session ${JSON.stringify(id)} is not an object`
    const s = raw as Record<string, unknown>
    out.sessions[id] = {
      enabled: s.enabled !== false,
      lastActiveAt: typeof s.lastActiveAt === 'string' ? s.lastActiveAt : '',
      lastUserText: typeof s.lastUserText === 'string' ? clip(s.lastUserText, LAST_LINE_CHARS) : '',
      preset: typeof s.preset === 'string' ? s.preset : '',
      ...(typeof s.provider === 'string' ? { provider: s.provider } : {}),
      ...(typeof s.model === 'string' ? { model: s.model } : {}),
    }
  }
  return out
}

export interface RegistryRead {
  registry: DreamRegistry
  /** Set when the file was unreadable and has been kept aside under this name. */
  keptAside?: string
  problem?: string
}

function registryPath(store: MemoryStore): string {
  return join(store.root, LAYOUT.meta, REGISTRY_FILE)
}

/** Read without changing anything; an unreadable file reads as empty with a problem. */
export async function readRegistry(store: MemoryStore): Promise<RegistryRead> {
  const text = await readTextOr(store.root, registryPath(store), '')
  if (text.trim() === '') return { registry: emptyRegistry() }
  let parsed: DreamRegistry | string
  try {
    parsed = parseRegistry(JSON.parse(text))
  } catch (e) {
    parsed = `not valid JSON (${(e as Error).message})`
  }
  if (typeof parsed === 'string') return { registry: emptyRegistry(), problem: `元/${REGISTRY_FILE}: ${parsed}` }
  return { registry: parsed }
}

/**
 * Change the registry under the write lock (re-read inside, so two writers
 * never lose each other's change). A corrupt file is renamed aside first;
 * the result says so.
 */
export async function updateRegistry(store: MemoryStore, change: (r: DreamRegistry) => void): Promise<RegistryRead> {
  return await store.withWriteLock(async (lock) => {
    const read = await readRegistry(store)
    let keptAside: string | undefined
    if (read.problem !== undefined) keptAside = await store.keepMetaAside(REGISTRY_FILE, lock)
    change(read.registry)
    await store.writeMetaJson(REGISTRY_FILE, read.registry, lock)
    return { ...read, ...(keptAside === undefined ? {} : { keptAside }) }
  })
}

export interface SeenSession {
  id: string
  preset: string
  at: Date
  provider?: string | undefined
  model?: string | undefined
  /** The person's latest line, when this sighting carries one. */
  userText?: string | undefined
}

/** Record a sighting of a session (new ones take `defaultEnabled`). Pure. */
export function noteSession(r: DreamRegistry, seen: SeenSession): void {
  const had = r.sessions[seen.id]
  const next: DreamSession = had ?? { enabled: r.defaultEnabled, lastActiveAt: '', lastUserText: '', preset: seen.preset }
  next.lastActiveAt = seen.at.toISOString()
  if (seen.preset !== '') next.preset = seen.preset
  if (seen.provider !== undefined) next.provider = seen.provider
  if (seen.model !== undefined) next.model = seen.model
  if (seen.userText !== undefined && seen.userText.trim() !== '') next.lastUserText = clip(seen.userText.trim(), LAST_LINE_CHARS)
  r.sessions[seen.id] = next
}

/** Drop sessions DSH no longer knows; returns the ids dropped. Pure. */
export function forgetUnknown(r: DreamRegistry, known: ReadonlySet<string>): string[] {
  const gone = Object.keys(r.sessions).filter((id) => !known.has(id))
  for (const id of gone) delete r.sessions[id]
  return gone
}

/**
 * Every session, most recently active first: the one order of the night (what the dream reads,
 * which sessions get a nightly task) and of the page's list. Never seen active (`''`) = last. Pure.
 */
export function newestFirst(r: DreamRegistry): Array<[string, DreamSession]> {
  return Object.entries(r.sessions).sort((a, b) => (a[1].lastActiveAt < b[1].lastActiveAt ? 1 : a[1].lastActiveAt > b[1].lastActiveAt ? -1 : 0))
}

/** The sessions taking part in the night's dream: enabled ones, newest first. Pure. */
export function enabledSessions(r: DreamRegistry): Array<[string, DreamSession]> {
  return newestFirst(r).filter(([, s]) => s.enabled)
}

/** Enabled sessions, newest first, at most `max` (the ones that get a nightly task). Pure. */
export function scheduledSessions(r: DreamRegistry, max: number): Array<[string, DreamSession]> {
  return enabledSessions(r).slice(0, Math.max(0, max))
}
