import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const NAME = 'dsh-cyrene-philia093-0'

/** The `name` of the package.json in `dir`, if there is a readable one. */
export function packageNameAt(dir: string): string | undefined {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).name
  } catch {
    return undefined
  }
}

/** The nearest folder at or above `start` whose package.json is named `name`. */
export function findPackageAbove(start: string, name: string): string | undefined {
  for (let dir = start; dir !== dirname(dir); dir = dirname(dir)) if (packageNameAt(dir) === name) return dir
  return undefined
}

/**
 * The folder of this package, whether the code runs from its sources (tests,
 * `node scripts/…`) or compiled from dist/ (DSH, the `cyrene` bin): the two
 * sit at different depths, so the root is found, not counted.
 */
export const PACKAGE_ROOT: string = (() => {
  const start = dirname(fileURLToPath(import.meta.url))
  const found = findPackageAbove(start, NAME)
  if (found === undefined) throw new Error(`${NAME}: cannot find the package folder above ${start}`)
  return found
})()

export function packagePath(...parts: string[]): string {
  return join(PACKAGE_ROOT, ...parts)
}
