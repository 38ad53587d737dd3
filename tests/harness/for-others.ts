import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
/** setpriv's flags for the second uid the tests run commands as. */
export const AS_NOBODY = ['--reuid=65534', '--regid=65534', '--clear-groups']

export interface ForOthers {
  /** The Node to run, reachable by the second uid. */
  node: string
  /** This package's `bin/cyrene.js`, reachable by the second uid. */
  bin: string
  /** Where the second uid finds a file of the package (a path inside the checkout). */
  at(path: string): string
  cleanup(): void
}

const reachable = (node: string, bin: string): boolean =>
  spawnSync('setpriv', [...AS_NOBODY, node, bin, '--help'], { cwd: '/', env: { PATH: process.env.PATH }, stdio: 'ignore' }).status === 0

/**
 * The compiled package and the Node running the tests, where a second uid can run them. A clone
 * inside a 0700 folder (`mktemp -d`, `/root/…`) is out of that uid's reach, so the parts the bin
 * needs (package.json, bin/, dist/, node_modules/ with the per-project Node, and any source
 * folders named in `sources`) are copied into a
 * 0755 folder of their own: hard links when the file system allows (node_modules is large), a
 * copy with the modes the umask gives otherwise. A checkout the uid already reaches is used as is.
 */
export function packageForOthers(sources: string[] = []): ForOthers {
  const bin = join(ROOT, 'bin', 'cyrene.js')
  if (reachable(process.execPath, bin)) return { node: process.execPath, bin, at: (path) => path, cleanup: () => {} }
  const inside = relative(ROOT, process.execPath)
  if (inside.startsWith('..')) throw new Error(`uid 65534 cannot run ${process.execPath}, which is outside the package: make it readable by others`)
  for (const flags of [['-al'], ['-R', '--no-preserve=mode,ownership']]) {
    const dir = mkdtempSync(join(tmpdir(), 'cyrene-for-others-'))
    chmodSync(dir, 0o755)
    const copy: ForOthers = {
      node: join(dir, inside),
      bin: join(dir, 'bin', 'cyrene.js'),
      at: (path) => join(dir, relative(ROOT, path)),
      cleanup: () => rmSync(dir, { recursive: true, force: true }),
    }
    try {
      for (const part of ['package.json', 'bin', 'dist', 'node_modules', ...sources])
        execFileSync('cp', [...flags, join(ROOT, part), join(dir, part)], { stdio: 'ignore' })
      if (reachable(copy.node, copy.bin)) return copy
    } catch {
      /* another file system (no hard links) or a mode the copy keeps: try the plain copy */
    }
    copy.cleanup()
  }
  throw new Error(`uid 65534 cannot run this package even from a copy in ${tmpdir()}: check that setpriv works and ${tmpdir()} is reachable`)
}

/** Throws when dist/ is older than a source of these folders: a test of the compiled package would test old code. */
export function requireFreshDist(folders: readonly string[]): void {
  const mtimes = (dir: string, keep: (f: string) => boolean): number[] =>
    existsSync(dir)
      ? readdirSync(dir)
          .filter(keep)
          .map((f) => statSync(join(dir, f)).mtimeMs)
      : []
  const sources = folders.flatMap((folder) => mtimes(join(ROOT, folder), (f) => f.endsWith('.ts') && !f.endsWith('.test.ts')))
  const built = folders.flatMap((folder) => mtimes(join(ROOT, 'dist', folder), (f) => f.endsWith('.js')))
  if (built.length === 0 || Math.max(...sources) > Math.min(...built)) throw new Error(`dist/ is older than ${folders.join(', ')}: run \`npm run compile\``)
}

/**
 * Runs an ES module as the second uid and returns the JSON its last line printed. The module goes
 * into a file in `dir` (a worker thread inherits the process flags, and `--input-type` refuses it there).
 */
export function runModuleAsNobody<T>(forOthers: ForOthers, dir: string, name: string, source: string): T {
  const file = join(dir, name)
  writeFileSync(file, source, { mode: 0o644 })
  const r = spawnSync('setpriv', [...AS_NOBODY, forOthers.node, file], { env: { PATH: process.env.PATH }, encoding: 'utf8', cwd: '/' })
  if (r.status !== 0) throw new Error(`${name} failed as uid 65534 (${r.status}): ${r.stderr}`)
  return JSON.parse(r.stdout.trim().split('\n').at(-1)!) as T
}
