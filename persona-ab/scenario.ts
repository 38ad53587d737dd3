import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'

/** One seeded memory: what `cyrene memory write` takes, as the person. */
interface SeedMemory {
  text: string
  at?: string
  kind?: string
  axis?: string
  reason?: string
  base?: boolean
}

const ANCHOR_KEYS = ['self', 'user', 'origin', 'goal'] as const
type AnchorKey = (typeof ANCHOR_KEYS)[number]
const PRESETS = ['chat', 'cyrene-work'] as const

/** A scripted situation: the state it needs, what the person says, what a reviewer should watch for. */
export interface Scenario {
  id: string
  title: string
  preset: (typeof PRESETS)[number]
  watch: string
  turns: string[]
  /** Slash commands run in the session before the first turn (e.g. `/plan`). */
  commands: string[]
  nickname?: string
  anchors: Partial<Record<AnchorKey, string>>
  memories: SeedMemory[]
  /** Files put into the session's workspace, by relative path. */
  files: Record<string, string>
}

export class ScenarioError extends Error {}

const ID = /^[a-z0-9][a-z0-9-]{0,63}$/
const DATE = /^\d{4}-\d{2}-\d{2}$/

function text(value: unknown, where: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new ScenarioError(`${where} must be a non-empty text`)
  return value
}

function texts(value: unknown, where: string, required: boolean): string[] {
  if (value === undefined && !required) return []
  if (!Array.isArray(value) || (required && value.length === 0)) throw new ScenarioError(`${where} must be a list of texts${required ? ' (at least one)' : ''}`)
  return value.map((v, i) => text(v, `${where}[${i}]`))
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (value === undefined) return {}
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new ScenarioError(`${where} must be a mapping`)
  return value as Record<string, unknown>
}

function memory(value: unknown, where: string): SeedMemory {
  const m = record(value, where)
  const seed: SeedMemory = { text: text(m.text, `${where}.text`) }
  if (m.at !== undefined) {
    // YAML reads a bare 2026-03-14 as a date; keep the day the author wrote.
    const at = m.at instanceof Date ? m.at.toISOString().slice(0, 10) : m.at
    if (typeof at !== 'string' || !DATE.test(at)) throw new ScenarioError(`${where}.at must be a day like 2026-03-14`)
    seed.at = at
  }
  for (const key of ['kind', 'axis', 'reason'] as const) if (m[key] !== undefined) seed[key] = text(m[key], `${where}.${key}`)
  if (m.base !== undefined) {
    if (typeof m.base !== 'boolean') throw new ScenarioError(`${where}.base must be true or false`)
    seed.base = m.base
  }
  return seed
}

/** A scenario from its YAML text; `file` names it in every message. Pure: no file is read here. */
export function parseScenario(source: string, file: string): Scenario {
  let raw: unknown
  try {
    raw = parse(source)
  } catch (error) {
    throw new ScenarioError(`${file}: not valid YAML (${(error as Error).message.split('\n')[0]})`)
  }
  try {
    const s = record(raw, 'the scenario')
    const id = text(s.id, 'id')
    if (!ID.test(id)) throw new ScenarioError('id must be lowercase letters, digits and dashes')
    const preset = s.preset ?? 'chat'
    if (!PRESETS.includes(preset as Scenario['preset'])) throw new ScenarioError(`preset must be one of ${PRESETS.join(', ')}`)
    const anchors: Scenario['anchors'] = {}
    for (const [key, value] of Object.entries(record(s.anchors, 'anchors'))) {
      if (!ANCHOR_KEYS.includes(key as AnchorKey)) throw new ScenarioError(`anchors.${key}: the anchors are ${ANCHOR_KEYS.join(', ')}`)
      anchors[key as AnchorKey] = text(value, `anchors.${key}`)
    }
    const files: Record<string, string> = {}
    for (const [path, body] of Object.entries(record(s.files, 'files'))) {
      if (path.startsWith('/') || path.split('/').includes('..'))
        throw new ScenarioError(`files.${path}: a path inside the workspace, without .. or a leading /`)
      if (typeof body !== 'string') throw new ScenarioError(`files.${path} must be the file's text`)
      files[path] = body
    }
    if (s.memories !== undefined && !Array.isArray(s.memories)) throw new ScenarioError('memories must be a list')
    const memories = ((s.memories ?? []) as unknown[]).map((m, i) => memory(m, `memories[${i}]`))
    const scenario: Scenario = {
      id,
      title: text(s.title, 'title'),
      preset: preset as Scenario['preset'],
      watch: text(s.watch, 'watch'),
      turns: texts(s.turns, 'turns', true),
      commands: texts(s.commands, 'commands', false),
      anchors,
      memories,
      files,
    }
    for (const c of scenario.commands) if (!c.startsWith('/')) throw new ScenarioError(`commands: "${c}" must start with /`)
    if (s.nickname !== undefined) scenario.nickname = text(s.nickname, 'nickname')
    return scenario
  } catch (error) {
    if (error instanceof ScenarioError) throw new ScenarioError(`${file}: ${error.message}`)
    throw error
  }
}

/**
 * Every `*.yml` in `dir`, sorted by file name; `only` keeps the ids it names
 * and refuses an id that does not exist (a typo must not silently run nothing).
 */
export function loadScenarios(dir: string, only?: readonly string[]): Scenario[] {
  const all = readdirSync(dir)
    .filter((f) => f.endsWith('.yml'))
    .sort()
    .map((f) => parseScenario(readFileSync(join(dir, f), 'utf8'), f))
  const seen = new Set<string>()
  for (const s of all) {
    if (seen.has(s.id)) throw new ScenarioError(`two scenarios have the id ${s.id}`)
    seen.add(s.id)
  }
  if (only === undefined || only.length === 0) return all
  const unknown = only.filter((id) => !seen.has(id))
  if (unknown.length > 0) throw new ScenarioError(`no scenario with the id ${unknown.join(', ')} (ids: ${[...seen].join(', ')})`)
  return all.filter((s) => only.includes(s.id))
}
