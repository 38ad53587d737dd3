import { lstatSync, readlinkSync, realpathSync, type Stats } from 'node:fs'
import { basename, dirname, isAbsolute, join, resolve, sep } from 'node:path'
import { recallCacheDir, resolveRoot, snapshotsDirOf } from '../memory/paths.ts'

/**
 * The memory store a command's environment names, a relative DSH_HOME taken from the working folder as the
 * whale-persona commands take it; undefined when none can be named (no home at all).
 */
export function storeRootFor(env: NodeJS.ProcessEnv, cwd: string): string | undefined {
  const home = (env.DSH_HOME ?? '').trim()
  try {
    return resolveRoot({ env: home !== '' && !isAbsolute(home) ? { ...env, DSH_HOME: resolve(cwd, home) } : env })
  } catch {
    return undefined
  }
}

/**
 * Where a command that writes a file the person names must never write: the memory store, its
 * snapshots and its index (through a link or not), where the file would replace memories. Returns
 * the place that holds `file`, or undefined. Used by every export (`memory export`, `whale presets export`).
 */
export function storePlaceHolding(file: string, root: string): string | undefined {
  // A link is followed by the write: what it ends at is what would be replaced.
  const real = whereWritten(file)
  for (const place of [root, snapshotsDirOf(root), recallCacheDir(root)]) {
    const realPlace = realOr(place)
    if (real === realPlace || real.startsWith(realPlace + sep)) return place
  }
  return undefined
}

/**
 * The file a write to `file` ends up replacing, its folders' links resolved: itself, or for a link
 * (which the write follows, making its target when there is none) where the link ends.
 */
function whereWritten(file: string): string {
  let path = file
  for (let hops = 0; hops < 40; hops++) {
    try {
      return realpathSync(path)
    } catch {
      const st = lstatOrUndefined(path)
      // Nothing there yet: the name the write makes, in its real folder.
      if (st === undefined || !st.isSymbolicLink()) return join(realOr(dirname(path)), basename(path))
      path = resolve(dirname(path), readlinkSync(path))
    }
  }
  // Links in a circle (the write refuses them): the file as named.
  return join(realOr(dirname(file)), basename(file))
}

/** A place's real path where it exists, else as named (a store not made yet has no link in it). */
function realOr(path: string): string {
  try {
    return realpathSync(path)
  } catch {
    return path
  }
}

export function lstatOrUndefined(path: string): Stats | undefined {
  try {
    return lstatSync(path)
  } catch {
    return undefined
  }
}
