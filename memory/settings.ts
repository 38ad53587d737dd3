import { join } from 'node:path'
import { readTextOr } from './fsio.ts'
import { DEFAULT_LIMITS, type Limits } from './validate.ts'

export const ANCHOR_KEYS = ['self', 'user', 'origin', 'goal'] as const
export type AnchorKey = (typeof ANCHOR_KEYS)[number]
const DEFAULT_ANCHOR_LIMITS: Record<AnchorKey, number> = { self: 800, user: 600, goal: 600, origin: 400 }

export interface Settings {
  limits: Limits
  anchor: Record<AnchorKey, number>
}

export interface SettingsRead {
  settings: Settings
  problems: string[]
}

function positive(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? Math.floor(v) : undefined
}

/**
 * 元/settings.json (written by the panel or by hand). Invalid JSON or wrong
 * types never stop the store: defaults are used and the problem is reported.
 * Only the keys this module reads are interpreted; the file is never rewritten here.
 */
function parseSettings(text: string | undefined): SettingsRead {
  const problems: string[] = []
  const settings: Settings = { limits: { ...DEFAULT_LIMITS }, anchor: { ...DEFAULT_ANCHOR_LIMITS } }
  if (text === undefined || text.trim() === '') return { settings, problems }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (e) {
    problems.push(`元/settings.json is not valid JSON (${(e as Error).message}); using defaults until it is fixed`)
    return { settings, problems }
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    problems.push('元/settings.json must hold a JSON object; using defaults')
    return { settings, problems }
  }
  const r = raw as Record<string, unknown>
  const anchor = r.anchor
  if (anchor !== undefined) {
    if (anchor === null || typeof anchor !== 'object') problems.push('元/settings.json "anchor" must be an object like {"self": 800}')
    else
      for (const k of ANCHOR_KEYS) {
        const v = (anchor as Record<string, unknown>)[k]
        if (v === undefined) continue
        const n = positive(v)
        if (n === undefined) problems.push(`元/settings.json anchor.${k} must be a positive number`)
        else settings.anchor[k] = n
      }
  }
  const quota = r.quota
  if (quota !== undefined && quota !== null && typeof quota === 'object') {
    const q = quota as Record<string, unknown>
    const map: Array<[keyof Limits, string, number]> = [
      ['totalBytes', 'totalMB', 1024 * 1024],
      ['marginBytes', 'marginMB', 1024 * 1024],
      ['entryChars', 'entryChars', 1],
      ['injectChars', 'injectChars', 1],
    ]
    for (const [key, name, scale] of map) {
      if (q[name] === undefined) continue
      const n = positive(q[name])
      if (n === undefined) problems.push(`元/settings.json quota.${name} must be a positive number`)
      else settings.limits[key] = n * scale
    }
  }
  return { settings, problems }
}

export async function readSettings(root: string): Promise<SettingsRead> {
  return parseSettings(await readTextOr(root, join(root, '元', 'settings.json'), ''))
}
