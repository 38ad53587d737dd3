import type { JsonRecord } from './json.ts'
import { textOf } from './text.ts'

export type Tier = 'flash' | 'pro'

/** Any id containing `pro` (any case, anywhere) is the pro tier; everything else, and no id, is flash. */
export function tierOf(model: string): Tier {
  return /pro/i.test(model) ? 'pro' : 'flash'
}

/**
 * Looks a model id up in a `{keyword: value}` table: an exact key (trimmed,
 * case-insensitive) wins at once, otherwise the longest key contained in the
 * id, first one on ties. Empty keys and empty values do not count.
 */
export function pickByModel(table: JsonRecord, model: string): string | null {
  const wanted = model.trim().toLowerCase()
  if (!wanted) return null
  let best: { key: string; value: string } | null = null
  for (const [rawKey, rawValue] of Object.entries(table)) {
    const key = rawKey.trim().toLowerCase()
    const value = textOf(rawValue).trim()
    if (!key || !value) continue
    if (key === wanted) return value
    if (wanted.includes(key) && (best === null || key.length > best.key.length)) best = { key, value }
  }
  return best === null ? null : best.value
}
