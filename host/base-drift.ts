import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseComposition } from './composition.ts'

/**
 * Whether the built-in presets the Cyrene presets were built on
 * (`modes/base/<base>.plugins.json`, shipped with the package) still match the
 * built-in presets of the DSH that runs now. A DSH upgrade that adds, removes
 * or changes a capability row leaves our presets without it until they are
 * rebuilt: the doctor says so (CONTRACT#base-drift). Reads only; no DSH package.
 */

interface Row {
  id: string
  config?: unknown
  group?: boolean
  [key: string]: unknown
}

interface BaseDrift {
  base: string
  /** The DSH version the snapshot was taken from. */
  snapshotVersion: string
  /** The running DSH's built-in composition file that was compared. */
  file: string
  added: string[]
  removed: string[]
  changed: string[]
}

export type BaseCheck = BaseDrift | { base: string; problem: string }

function isRow(value: unknown): value is Row {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && typeof (value as Row).id === 'string'
}

/** Each row by id, groups descended into; a group's own entry leaves its members out (they have their own). */
function rowsById(rows: unknown, into = new Map<string, string>()): Map<string, string> {
  if (!Array.isArray(rows)) return into
  for (const row of rows.filter(isRow)) {
    const members = row.group === true && Array.isArray(row.config) ? row.config : undefined
    into.set(row.id, canonical(members === undefined ? row : { ...row, config: members.filter(isRow).map((m) => m.id) }))
    if (members !== undefined) rowsById(members, into)
  }
  return into
}

/** JSON with sorted keys, so two readings of the same rows compare equal whatever their key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  )
}

/** The bases snapshotted in `dir` (`<base>.plugins.json`). */
export function snapshotBases(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((f) => f.endsWith('.plugins.json'))
      .map((f) => f.slice(0, -'.plugins.json'.length))
      .sort()
  } catch {
    return []
  }
}

/** Compare one snapshot with the composition file of the running DSH's built-in preset. */
export function compareBase(snapshotsDir: string, base: string, compositionFile: string): BaseCheck {
  let snapshot: { dshVersion?: unknown; rows?: unknown }
  try {
    snapshot = JSON.parse(readFileSync(join(snapshotsDir, `${base}.plugins.json`), 'utf8'))
  } catch (error) {
    return { base, problem: `the snapshot ${base}.plugins.json cannot be read (${(error as Error).message}); reinstall the plugin` }
  }
  let running: unknown
  try {
    running = parseComposition(readFileSync(compositionFile, 'utf8'))
  } catch (error) {
    return { base, problem: `${compositionFile} cannot be read (${(error as Error).message})` }
  }
  const ours = rowsById(snapshot.rows)
  const theirs = rowsById(running)
  return {
    base,
    snapshotVersion: String(snapshot.dshVersion ?? '?'),
    file: compositionFile,
    added: [...theirs.keys()].filter((id) => !ours.has(id)),
    removed: [...ours.keys()].filter((id) => !theirs.has(id)),
    changed: [...ours.keys()].filter((id) => theirs.has(id) && theirs.get(id) !== ours.get(id)),
  }
}

export function drifted(check: BaseCheck): boolean {
  return 'problem' in check || check.added.length + check.removed.length + check.changed.length > 0
}
