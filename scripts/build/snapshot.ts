import { existsSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { parse } from 'yaml'
import { packageNameAt } from '../../host/package-root.ts'
import { findDshOnPath } from '../../host/preset-roots.ts'
import { BuildError } from './errors.ts'
import { isRow, type Row } from './rows.ts'
import { parseComposition } from './yaml-js.ts'

const SNAPSHOT_FORMAT = 1

/** A pinned copy of one built-in DSH preset: what a Cyrene mode stands on. */
export interface BaseSnapshot {
  format: typeof SNAPSHOT_FORMAT
  base: string
  dshVersion: string
  /** Where in the DSH package the rows were read from. */
  source: string
  preset: { name: string; description: string; order: number }
  rows: Row[]
}

const DSH_PACKAGE = '@deepseek-ai/dsh'

/**
 * Find the installed DSH package. `hint` may be the package folder itself or
 * any folder from which `@deepseek-ai/dsh` resolves (an install root).
 */
export function locateDsh(hint: string | undefined, fallbacks: string[], env: NodeJS.ProcessEnv): string | undefined {
  const fromFolder = (dir: string): string | undefined => {
    if (packageNameAt(dir) === DSH_PACKAGE) return dir
    try {
      return dirname(createRequire(join(dir, 'noop.js')).resolve(`${DSH_PACKAGE}/package.json`))
    } catch {
      return undefined
    }
  }
  if (hint !== undefined) return fromFolder(hint)
  return findDshOnPath(env) ?? fallbacks.map(fromFolder).find((dir) => dir !== undefined)
}

/** Both layouts DSH has used for its built-in presets; the first that exists wins. */
function basePresetSources(dshDir: string, base: string): { composition: string; meta?: string; source: string }[] {
  const sources: { composition: string; meta?: string; source: string }[] = [
    {
      composition: join(dshDir, 'config', 'agent-presets', base, 'agent.cordis.yml'),
      meta: join(dshDir, 'config', 'agent-presets', base, 'preset.yml'),
      source: `${DSH_PACKAGE}/config/agent-presets/${base}/agent.cordis.yml`,
    },
  ]
  try {
    const webApp = dirname(createRequire(join(dshDir, 'package.json')).resolve('@deepseek-ai/dsh-web-app/package.json'))
    sources.push({ composition: join(webApp, 'presets', `${base}.patch.yml`), source: `@deepseek-ai/dsh-web-app/presets/${base}.patch.yml` })
  } catch {
    // dsh-web-app is not reachable from this install: only the first layout applies.
  }
  return sources
}

/** Read a built-in preset of the installed DSH into a snapshot. */
export function readBaseFromDsh(dshDir: string, base: string): BaseSnapshot {
  const dshVersion = JSON.parse(readFileSync(join(dshDir, 'package.json'), 'utf8')).version as string
  const found = basePresetSources(dshDir, base).find((s) => existsSync(s.composition))
  if (found === undefined) {
    throw new BuildError(join(dshDir, 'config', 'agent-presets', base), `DSH ${dshVersion} has no built-in preset "${base}"; check the mode's base`)
  }
  const rows = parseComposition(readFileSync(found.composition, 'utf8'))
  if (!Array.isArray(rows) || !rows.every(isRow)) throw new BuildError(found.composition, 'is not a list of loader rows')
  const meta = found.meta !== undefined && existsSync(found.meta) ? (parse(readFileSync(found.meta, 'utf8')) ?? {}) : {}
  return {
    format: SNAPSHOT_FORMAT,
    base,
    dshVersion,
    source: found.source,
    preset: { name: String(meta.name ?? base), description: String(meta.description ?? ''), order: Number(meta.order ?? 0) },
    rows,
  }
}

/** Validate a snapshot file's content; a corrupt snapshot names its file. */
export function parseSnapshot(file: string, text: string, base: string): BaseSnapshot {
  let data: unknown
  try {
    data = JSON.parse(text)
  } catch (error) {
    throw new BuildError(file, `is not valid JSON (${(error as Error).message}); restore it from git or run \`npm run build -- --snapshot\``)
  }
  const snap = data as Partial<BaseSnapshot>
  const problems: string[] = []
  if (snap.format !== SNAPSHOT_FORMAT) problems.push(`format must be ${SNAPSHOT_FORMAT}`)
  if (snap.base !== base) problems.push(`base must be "${base}"`)
  if (typeof snap.dshVersion !== 'string' || snap.dshVersion === '') problems.push('dshVersion is missing')
  if (typeof snap.source !== 'string' || snap.source === '') problems.push('source is missing')
  if (typeof snap.preset !== 'object' || snap.preset === null) problems.push('preset is missing')
  if (!Array.isArray(snap.rows) || snap.rows.length === 0 || !snap.rows.every(isRow)) problems.push('rows must be a non-empty list of {id, name} rows')
  if (problems.length > 0) {
    throw new BuildError(file, `is not a valid base snapshot: ${problems.join('; ')}. Restore it from git or run \`npm run build -- --snapshot\``)
  }
  return snap as BaseSnapshot
}

export function renderSnapshot(snapshot: BaseSnapshot): string {
  return JSON.stringify(snapshot, null, 2) + '\n'
}
