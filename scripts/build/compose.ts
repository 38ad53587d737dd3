import type { Mode } from '../../modes/define.ts'
import { BuildError } from './errors.ts'
import { findRow, isGroup, rowIds, type Row } from './rows.ts'
import type { BaseSnapshot } from './snapshot.ts'
import { isJsValue, type JsValue } from './yaml-js.ts'

export const PACKAGE_NAME = 'dsh-cyrene-philia093-0'
export const CYRENE_ROW_IDS = ['cyrene-runtime', 'cyrene-commands', 'cyrene-plan-bridge'] as const

export interface ComposedPreset {
  rows: Row[]
  meta: { name: string; description: string; order: number }
}

function personaRow(text: string): Row {
  return { id: 'persona', name: '@deepseek-ai/dsh-persona', config: { text, complete: true, includeRuntimeContext: true } }
}

function runtimeRows(mode: Mode): Row[] {
  return [
    { id: 'cyrene-runtime', name: `${PACKAGE_NAME}/runtime`, config: { rails: { ...mode.rails } } },
    { id: 'cyrene-commands', name: `${PACKAGE_NAME}/runtime/commands`, inject: ['commands', 'cyreneMemory'] },
  ]
}

const planBridgeRow: Row = { id: 'cyrene-plan-bridge', name: `${PACKAGE_NAME}/runtime/plan-bridge` }

/**
 * In a base preset, `baseUrl` is that preset's own folder (e.g. the `cordis`
 * preset loads skills from it). Inside a Cyrene preset it would point at our
 * folder instead, so the expression asks for the base's folder at mount time.
 */
function rebaseExpression(expr: string, base: string): string {
  if (!/\bbaseUrl\b/.test(expr)) return expr
  const baseOf = `process.getBuiltinModule('node:module').createRequire(baseUrl)('${PACKAGE_NAME}/preset-roots').basePresetUrl(${JSON.stringify(base)}, baseUrl)`
  return expr.replace(/\bbaseUrl\b/g, `(${baseOf})`)
}

function rebaseValues(value: unknown, base: string): unknown {
  if (isJsValue(value)) return { $js: rebaseExpression(value.$js, base) } satisfies JsValue
  if (Array.isArray(value)) return value.map((v) => rebaseValues(v, base))
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rebaseValues(v, base)]))
  }
  return value
}

function keepRow(row: Row, mode: Mode): Row {
  const rebased = rebaseValues(row, mode.base) as Row
  if (row.id === 'planning' && isGroup(rebased)) {
    return { ...rebased, config: [...rebased.config.map((child) => keepRow(child, mode)), planBridgeRow] }
  }
  if (isGroup(rebased)) return { ...rebased, config: rebased.config.map((child) => keepRow(child, mode)) }
  return mode.disable.includes(row.id) ? { ...rebased, disabled: true } : rebased
}

/** Compose a mode's preset rows: every base row, our persona in place of the base's, the Cyrene rows. */
export function composePreset(mode: Mode, modeFile: string, base: BaseSnapshot, personaText: string): ComposedPreset {
  const ids = rowIds(base.rows)
  for (const id of mode.disable) {
    if (!ids.includes(id)) throw new BuildError(modeFile, `disables row "${id}", which the base preset "${mode.base}" does not have`)
  }
  for (const id of CYRENE_ROW_IDS) {
    if (ids.includes(id)) throw new BuildError(modeFile, `base preset "${mode.base}" already has a row "${id}"; Cyrene's row ids must stay unique`)
  }
  if (findRow(base.rows, 'persona') === undefined) throw new BuildError(modeFile, `base preset "${mode.base}" has no persona row to replace`)
  const planning = findRow(base.rows, 'planning')
  if (planning === undefined || !isGroup(planning)) throw new BuildError(modeFile, `base preset "${mode.base}" has no planning group for the plan bridge`)
  const rows = base.rows.map((row) => (row.id === 'persona' ? personaRow(personaText) : keepRow(row, mode)))
  return { rows: [...rows, ...runtimeRows(mode)], meta: { name: mode.label, description: mode.description, order: mode.order } }
}
