import { readFileSync } from 'node:fs'
import { basename, dirname, isAbsolute, resolve } from 'node:path'

/** A DSH profile folder found by walking up: `<home>/profiles/<name>/`. */
export interface FoundProfile {
  home: string
  profile: string
}

/**
 * DSH keeps each profile in `<DSH_HOME>/profiles/<name>/`, whose package.json
 * carries a `dsh.profile` manifest (DSH 0.1.0-rc.8, dsh-app-boot). Both marks
 * are asked for, so a folder that merely happens to be called `profiles` is not
 * taken for a DSH home.
 */
function isProfileDir(dir: string): boolean {
  if (basename(dirname(dir)) !== 'profiles') return false
  try {
    const manifest = JSON.parse(readFileSync(resolve(dir, 'package.json'), 'utf8')) as { dsh?: { profile?: unknown } }
    return typeof manifest?.dsh?.profile === 'object' && manifest.dsh.profile !== null
  } catch {
    return false
  }
}

/** The DSH profile that `start` lies in (the profile folder itself or anything below it), if any. */
export function profileContaining(start: string): FoundProfile | undefined {
  if (!isAbsolute(start)) return undefined
  let dir = resolve(start)
  for (;;) {
    if (isProfileDir(dir)) return { home: dirname(dirname(dir)), profile: basename(dir) }
    const up = dirname(dir)
    if (up === dir) return undefined
    dir = up
  }
}

/**
 * The environment the command line runs with (CONTRACT#cli-home): `--root` is read
 * later by each command and wins over all of this; a non-blank DSH_HOME is kept
 * as it is; otherwise the DSH profile the working directory is in, then the one
 * this package is installed in (`npx cyrene` in a profile, or its bin put on
 * PATH), gives DSH_HOME; with none of them the memory layer falls back to
 * ~/.dsh. Memory code never looks for profiles: it only reads DSH_HOME.
 */
export function withProfileHome(env: NodeJS.ProcessEnv, cwd: string, packageDir: string | undefined): NodeJS.ProcessEnv {
  if ((env.DSH_HOME ?? '').trim() !== '') return env
  const found = profileContaining(cwd) ?? (packageDir === undefined ? undefined : profileContaining(packageDir))
  return found === undefined ? env : { ...env, DSH_HOME: found.home }
}
