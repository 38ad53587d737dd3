import { mkdirSync, realpathSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { DSH_BIN, DSH_INSTALL, DSH_PACKAGE_DIR } from '../scripts/ensure-dsh.ts'
import { scratchDir } from '../tests/harness/scratch.ts'
import { basePresetUrl, findDshOnPath, OWN_PRESETS_DIR, presetRoots } from './preset-roots.ts'

// pnpm links packages: Node resolves to the real folder.
const dshDir = () => realpathSync(DSH_PACKAGE_DIR)

describe('preset roots', () => {
  it('lists the installed DSH built-ins and our presets, both system trust', () => {
    const roots = presetRoots(pathToFileURL(DSH_INSTALL + '/').href)
    expect(roots).toEqual([
      { path: join(dshDir(), 'config', 'agent-presets'), trust: 'system' },
      { path: OWN_PRESETS_DIR, trust: 'system' },
    ])
  })

  it('without a findable DSH it still serves our presets, and never throws', () => {
    expect(presetRoots('file:///nonexistent/profile/').at(-1)).toEqual({ path: OWN_PRESETS_DIR, trust: 'system' })
    expect(presetRoots('not a url').at(-1)).toEqual({ path: OWN_PRESETS_DIR, trust: 'system' })
  })

  it('points base rows at the built-in preset folder, or falls back to the given one', () => {
    const from = pathToFileURL(DSH_INSTALL + '/').href
    expect(basePresetUrl('cordis', from)).toBe(pathToFileURL(join(dshDir(), 'config', 'agent-presets', 'cordis')).href + '/')
    expect(basePresetUrl('no-such-base', from)).toBe(from)
    expect(basePresetUrl('cordis', 'not a url')).toBe('not a url')
  })

  it('finds the DSH of the `dsh` on PATH: a local node_modules/.bin, or a pnpm shim elsewhere; nothing on PATH is nothing', () => {
    const bin = join(DSH_BIN, '..')
    expect(findDshOnPath({ PATH: `/nonexistent:${bin}` })).toBe(dshDir())
    // A global pnpm bin folder: a shim script whose "$basedir/…" names the package's file.
    const global = scratchDir('pnpm-bin')
    mkdirSync(global, { recursive: true })
    const target = relative(global, join(dshDir(), 'lib', 'bin.js'))
    writeFileSync(join(global, 'dsh'), `#!/bin/sh\nbasedir=$(dirname "$0")\nexec node "$basedir/${target}" "$@"\n`)
    expect(findDshOnPath({ PATH: global })).toBe(dshDir())
    expect(findDshOnPath({ PATH: '' })).toBeUndefined()
    expect(findDshOnPath({})).toBeUndefined()
  })
})
