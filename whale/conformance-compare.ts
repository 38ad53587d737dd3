import { isRecord, jsonEqual, parseJson } from './json.ts'

/**
 * How the conformance runner compares outputs (pure). Texts are byte-exact,
 * JSON is compared as parsed values. A few fields hold an implementation's
 * own prose (the sample README says such wording is each implementation's
 * own); those are listed here and left out of the comparison.
 */

/** Removes the named top-level or dotted paths from a copy of a JSON value. */
export function withoutPaths(value: unknown, paths: readonly string[]): unknown {
  if (!isRecord(value)) return value
  const copy: Record<string, unknown> = JSON.parse(JSON.stringify(value)) as Record<string, unknown>
  for (const dotted of paths) {
    const keys = dotted.split('.')
    let node: unknown = copy
    for (const key of keys.slice(0, -1)) node = isRecord(node) ? node[key] : undefined
    if (isRecord(node)) delete node[keys.at(-1)!]
  }
  return copy
}

/** Free-text fields per kind of document. */
export const PROSE = {
  preset: ['description'],
  autosave: ['label', 'description'],
  card: ['data.creator_notes'],
} as const

/**
 * What a saved preset may hold beyond the sample's: `source` (spec §4.6 keeps
 * the card's original creator and version there; the sample's reference run
 * keeps it only in the import report). See docs/decisions/052.
 */
export const SAVED_EXTRA = ['source'] as const

/**
 * "extensions.whale_persona → 本引擎独有字段": a mapped field as the reference words it, the field first.
 * Only the field is compared (the words are the reference's own prose).
 */
function fieldName(entry: unknown): string {
  return String(entry).split(/\s*→|（|\s/)[0] ?? ''
}

export function sameFieldList(actual: unknown, expected: unknown): boolean {
  if (!Array.isArray(actual) || !Array.isArray(expected)) return false
  return jsonEqual(actual.map(fieldName), expected.map(fieldName))
}

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/

/** Replaces a real timestamp in `at` by "<ISO>", as the sample records it. */
export function maskAt(record: unknown): unknown {
  if (!isRecord(record) || typeof record.at !== 'string' || !ISO.test(record.at)) return record
  return { ...record, at: '<ISO>' }
}

export function parseJsonLines(text: string): unknown[] | null {
  const out: unknown[] = []
  for (const line of text.split(/\r?\n/)) {
    if (!line.trim()) continue
    const parsed = parseJson(line)
    if (!parsed.ok) return null
    out.push(parsed.value)
  }
  return out
}

/** One-line description of the first difference, for the report. */
export function describeMismatch(label: string, actual: unknown, expected: unknown): string {
  const show = (v: unknown): string => {
    const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v)
    return s === undefined ? 'undefined' : s.length > 300 ? s.slice(0, 300) + '…' : s
  }
  return `${label}: expected ${show(expected)}, got ${show(actual)}`
}
