import { describe, expect, it } from 'vitest'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, join, posix, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'

/**
 * Issue 23: folder READMEs drift when a file moves and the README still names it where it was.
 * Every source file a README names in backticks (`*.ts`, `*.cjs`) exists: a name with a folder
 * relative to the README or to the repository, a bare name somewhere in the repository. The
 * decisions (a record of what was) and vendored fixtures are not held to it.
 */
const repo = fileURLToPath(new URL('../', import.meta.url))
const SKIP = new Set(['node_modules', '.git', 'dist', '.cache', 'coverage', '.persona-ab', '.dsh-home'])
/** Repository paths, '/'-separated like the names in the READMEs. */
const NOT_HELD = ['docs/decisions/', 'tests/fixtures/']

function walk(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    if (SKIP.has(name)) continue
    const path = join(dir, name)
    const st = statSync(path, { throwIfNoEntry: false })
    if (st?.isDirectory()) walk(path, out)
    else if (st?.isFile()) out.push(relative(repo, path).split(sep).join('/'))
  }
  return out
}

const tracked = walk(repo)
const present = new Set(tracked)
const baseNames = new Set(tracked.map((f) => basename(f)))
const readmes = tracked.filter(
  (f) => (basename(f) === 'README.md' || f === 'README.zh.md' || f === 'CONTRACT.md') && !NOT_HELD.some((folder) => f.startsWith(folder)),
)

/** The source files a text names in backticks. */
function namedSourceFiles(text: string): string[] {
  return [...text.matchAll(/`([A-Za-z0-9_./-]+\.(?:ts|cjs))`/g)].map((m) => m[1]!)
}

function exists(readme: string, name: string): boolean {
  if (!name.includes('/')) return baseNames.has(name)
  return present.has(posix.join(posix.dirname(readme), name)) || present.has(posix.normalize(name))
}

describe('the READMEs name files that are there', () => {
  it('reads the backticked names of a text', () => {
    expect(namedSourceFiles('see `rails/row.ts` and `doctor.ts`, not `元/settings.json` or `node --run`')).toEqual(['rails/row.ts', 'doctor.ts'])
  })

  it('finds the READMEs of the rooms and of the repository', () => {
    expect(readmes).toEqual(expect.arrayContaining(['README.md', 'CONTRACT.md', 'memory/README.md', 'rails/README.md', 'tests/README.md']))
  })

  it.each(readmes)('%s', (readme) => {
    const missing = namedSourceFiles(readFileSync(join(repo, readme), 'utf8')).filter((name) => !exists(readme, name))
    expect(missing, `${readme} names files that are not there: move the name with the file, or drop it`).toEqual([])
  })
})
