import { PACKAGE_NAME } from './compose.ts'
import type { Row } from './rows.ts'

/**
 * The bundle's own layer over the profile: the host row (cyreneMemory service,
 * panel, dreams, sync), the whale-persona row, and a roster that serves this package's presets as
 * system trust. The dsh launcher rewrites the roots of the row whose id is
 * exactly `agent-presets`, so ours is a second row of the same plugin and the
 * original is turned off.
 */
export function bundlePatch(defaultPreset: string): unknown[] {
  const roots = `process.getBuiltinModule('node:module').createRequire(new URL('package.json', baseUrl))('${PACKAGE_NAME}/preset-roots').presetRoots(baseUrl)`
  const roster: Row = {
    id: 'cyrene-agent-presets',
    name: '@deepseek-ai/dsh-agent-presets',
    config: { default: defaultPreset, roots: { $js: roots } },
  }
  const host: Row = { id: 'cyrene-host', name: `${PACKAGE_NAME}/host` }
  // whale-persona v1 for every preset; with no config.json it renders nothing (spec §9).
  // The export says it is a row: the bare `whale` is the DSH-free whale/ folder.
  const whale: Row = { id: 'cyrene-whale-persona', name: `${PACKAGE_NAME}/whale-row` }
  // Named exactly after the package: DSH web looks up a plugin's browser half (dsh.client) by loader rows of that name.
  const panel: Row = { id: 'cyrene-panel', name: PACKAGE_NAME }
  return [{ id: 'agent-presets', disabled: true }, { insert: [roster, host, whale, panel] }]
}
