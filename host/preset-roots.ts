import { existsSync, readFileSync, realpathSync } from 'node:fs'
import { createRequire } from 'node:module'
import { delimiter, dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { findPackageAbove, packagePath } from './package-root.ts'

/**
 * Where presets live, resolved at mount time from `!!js` in cordis.patch.yml
 * and in the generated presets. This is the one adapter that knows DSH
 * 0.1.x's layout (`@deepseek-ai/dsh/config/agent-presets/<id>/`); a later DSH
 * layout is one more branch here.
 */
const DSH_PACKAGE = '@deepseek-ai/dsh'

export const OWN_PRESETS_DIR = packagePath('presets') + '/'

/** The installed `@deepseek-ai/dsh` package folder, or undefined when it cannot be found. */
export function findDshPackage(fromUrl?: string, launcher: string | undefined = process.argv[1]): string | undefined {
  if (fromUrl !== undefined) {
    try {
      return dirname(createRequire(fromUrl).resolve(`${DSH_PACKAGE}/package.json`))
    } catch {
      // not resolvable from there; try the launcher that is running us
    }
  }
  if (launcher === undefined || !existsSync(launcher)) return undefined
  return findPackageAbove(dirname(realpathSync(launcher)), DSH_PACKAGE)
}

/**
 * The @deepseek-ai/dsh package of the `dsh` command on PATH, if there is one:
 * a link into the package (npm), a local `node_modules/.bin` beside it, or a
 * pnpm shim script naming the package's file (`"$basedir/…/@deepseek-ai/dsh/…"`).
 */
export function findDshOnPath(env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    const bin = join(dir, 'dsh')
    if (dir === '' || !existsSync(bin)) continue
    const found = findPackageAbove(dirname(realpathSync(bin)), DSH_PACKAGE) ?? resolvableFrom(dirname(bin)) ?? shimTarget(bin)
    if (found !== undefined) return found
  }
  return undefined
}

function resolvableFrom(binDir: string): string | undefined {
  try {
    return dirname(createRequire(join(binDir, '..', 'noop.js')).resolve(`${DSH_PACKAGE}/package.json`))
  } catch {
    return undefined
  }
}

/** The package a pnpm shim runs: its `"$basedir/<path>"` into @deepseek-ai/dsh. */
function shimTarget(bin: string): string | undefined {
  try {
    const text = readFileSync(bin, 'utf8').slice(0, 16 * 1024)
    for (const [, rel] of text.matchAll(/"\$basedir\/([^"]*@deepseek-ai\/dsh\/[^"]*)"/g)) {
      const file = join(dirname(bin), rel!)
      const found = existsSync(file) ? findPackageAbove(dirname(realpathSync(file)), DSH_PACKAGE) : undefined
      if (found !== undefined) return found
    }
  } catch {
    // not a readable script: no shim to follow
  }
  return undefined
}

/** The version of the DSH package a built-in preset's file lies in. */
export function dshVersionAbove(file: string): string | undefined {
  const dir = findPackageAbove(dirname(file), DSH_PACKAGE)
  try {
    return dir === undefined ? undefined : String(JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version)
  } catch {
    return undefined
  }
}

export function builtinPresetsDir(dshDir: string): string {
  return join(dshDir, 'config', 'agent-presets')
}

export interface PresetRoot {
  path: string
  trust: 'system' | 'user'
}

/**
 * Roots for the roster row that replaces DSH's own: the built-in presets and
 * this package's presets, both read-only (system trust). The user's own root
 * is added by the roster itself (`includeUserRoot`).
 * @param profileUrl - the loader's baseUrl (the profile folder) as seen from cordis.patch.yml.
 */
export function presetRoots(profileUrl?: string): PresetRoot[] {
  // Evaluated inside the roster row's `!!js`: a throw here would stop DSH from booting.
  let dsh: string | undefined
  try {
    dsh = findDshPackage(profileUrl === undefined ? undefined : new URL('package.json', profileUrl).href)
  } catch {
    dsh = undefined
  }
  const roots: PresetRoot[] = []
  if (dsh !== undefined) roots.push({ path: builtinPresetsDir(dsh), trust: 'system' })
  roots.push({ path: OWN_PRESETS_DIR, trust: 'system' })
  return roots
}

/**
 * File URL (with trailing slash) of a built-in preset's folder, standing in for
 * `baseUrl` in the base rows a Cyrene preset keeps (e.g. the `cordis` preset's
 * skills folder). Falls back to the Cyrene preset's own folder.
 */
export function basePresetUrl(base: string, fallbackUrl: string): string {
  try {
    const dsh = findDshPackage(fallbackUrl)
    if (dsh === undefined) return fallbackUrl
    const dir = join(builtinPresetsDir(dsh), base)
    return existsSync(dir) ? pathToFileURL(dir).href + '/' : fallbackUrl
  } catch {
    return fallbackUrl
  }
}
