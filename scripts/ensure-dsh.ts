import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Installs the real `dsh` CLI (0.1.0-rc.8) into .cache/ for the tests that need
 * it: the snapshot drift guard, the built-in presets on the roster, and the
 * end-to-end run. npm's resolver stalls on the CLI's tree, so this uses pnpm
 * (a dev dependency) with the vendor pins DSH rc.8 needs.
 */
export const DSH_VERSION = '0.1.0-rc.8'
const ROOT = fileURLToPath(new URL('..', import.meta.url))
export const DSH_INSTALL = join(ROOT, '.cache', `dsh-${DSH_VERSION}`)
export const DSH_PACKAGE_DIR = join(DSH_INSTALL, 'node_modules', '@deepseek-ai', 'dsh')
export const DSH_BIN = join(DSH_INSTALL, 'node_modules', '.bin', 'dsh')

// Caret ranges in dsh rc.8 pull later vendor releases that break its launcher.
const VENDOR_PINS: Record<string, string> = {
  '@deepseek-ai/cordis': '4.0.1',
  '@deepseek-ai/cordis-plugin-hmr': '1.0.16',
  '@deepseek-ai/cordis-plugin-loader': '1.0.2',
  '@deepseek-ai/cordis-plugin-include': '1.0.6',
  '@deepseek-ai/cordis-plugin-timer': '1.1.3',
  '@deepseek-ai/cordis-plugin-group': '1.0.1',
  '@deepseek-ai/cosmokit': '1.8.2',
  '@deepseek-ai/schemastery': '3.18.1',
}

function installedVersion(): string | undefined {
  try {
    return JSON.parse(readFileSync(join(DSH_PACKAGE_DIR, 'package.json'), 'utf8')).version
  } catch {
    return undefined
  }
}

export function ensureDsh(log: (line: string) => void = (l) => process.stderr.write(l + '\n')): string {
  if (installedVersion() === DSH_VERSION && existsSync(DSH_BIN)) return DSH_INSTALL
  mkdirSync(DSH_INSTALL, { recursive: true })
  writeFileSync(
    join(DSH_INSTALL, 'package.json'),
    JSON.stringify({ name: 'cyrene-test-dsh', private: true, type: 'module', dependencies: { '@deepseek-ai/dsh': DSH_VERSION } }, null, 2) + '\n',
  )
  const overrides = Object.entries(VENDOR_PINS)
    .map(([k, v]) => `  "${k}": "${v}"`)
    .join('\n')
  writeFileSync(join(DSH_INSTALL, 'pnpm-workspace.yaml'), `packages:\n  - .\noverrides:\n${overrides}\n`)
  const pnpm = join(ROOT, 'node_modules', '.bin', 'pnpm')
  log(`ensure-dsh: installing @deepseek-ai/dsh@${DSH_VERSION} into ${DSH_INSTALL} (pnpm, first run only)…`)
  const run = spawnSync(pnpm, ['install', '--ignore-scripts', '--reporter=append-only'], {
    cwd: DSH_INSTALL,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}:${process.env.PATH ?? ''}` },
  })
  if (run.status !== 0 || installedVersion() !== DSH_VERSION) throw new Error(`ensure-dsh: pnpm install failed (exit ${run.status}); see the output above`)
  return DSH_INSTALL
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensureDsh()
  process.stdout.write(`dsh ${DSH_VERSION} ready at ${DSH_INSTALL}\n`)
}
