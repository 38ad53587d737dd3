import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { atomicWrite } from '../durable/atomic-write.ts'
import { PACKAGE_ROOT } from '../host/package-root.ts'
import { BuildError } from './build/errors.ts'
import { generateFiles, loadModes, snapshotFile } from './build/generate.ts'
import { locateDsh, readBaseFromDsh, renderSnapshot } from './build/snapshot.ts'

const USAGE = `Usage: node scripts/build.ts [--snapshot [--dsh DIR]] [--check]

  (no flag)    compose presets/<id>/ and cordis.patch.yml from modes/, persona/ and modes/base/
  --snapshot   first re-read the built-in presets of the installed DSH into modes/base/<base>.plugins.json
  --dsh DIR    the @deepseek-ai/dsh package folder, or a folder it resolves from (default: \`dsh\` on PATH,
               then the test install under .cache/)
  --check      write nothing; exit 1 and list the files that a build would change
`

/** Re-exported for the build's tests: the one finder of the package folder is host/package-root.ts. */
export { PACKAGE_ROOT }

export function testDshInstalls(root: string): string[] {
  return [join(root, '.cache', 'dsh-0.1.0-rc.8')]
}

export interface BuildResult {
  changed: string[]
  unchanged: string[]
}

export async function build(root: string, opts: { snapshot?: boolean; dsh?: string; check?: boolean; env?: NodeJS.ProcessEnv } = {}): Promise<BuildResult> {
  const modes = await loadModes(root)
  const files = new Map<string, string>()
  if (opts.snapshot === true) {
    const dsh = locateDsh(opts.dsh, testDshInstalls(root), opts.env ?? process.env)
    if (dsh === undefined) throw new BuildError(opts.dsh ?? 'PATH', 'no installed @deepseek-ai/dsh found; pass --dsh <folder of the dsh package>')
    for (const base of new Set(modes.map((m) => m.mode.base))) {
      files.set(relative(root, snapshotFile(root, base)), renderSnapshot(readBaseFromDsh(dsh, base)))
    }
  }
  // Compose from fresh snapshots before writing them: a refusal leaves every file as it was.
  const staged = new Map([...files].map(([rel, text]) => [join(root, rel), text]))
  for (const [rel, text] of generateFiles(root, modes, staged)) files.set(rel, text)
  const changed: string[] = []
  const unchanged: string[] = []
  for (const [rel, content] of files) {
    const path = join(root, rel)
    const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined
    ;(current === content ? unchanged : changed).push(rel)
  }
  if (opts.check !== true) {
    for (const rel of changed) {
      mkdirSync(dirname(join(root, rel)), { recursive: true })
      await atomicWrite(join(root, rel), files.get(rel) as string, { mode: 0o644 })
    }
  }
  return { changed, unchanged }
}

async function cli(argv: string[]): Promise<number> {
  let args
  try {
    args = parseArgs({
      args: argv,
      options: { snapshot: { type: 'boolean' }, dsh: { type: 'string' }, check: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
    })
  } catch (error) {
    process.stderr.write(`build: ${(error as Error).message}\n${USAGE}`)
    return 2
  }
  if (args.values.help === true) {
    process.stdout.write(USAGE)
    return 0
  }
  try {
    const result = await build(PACKAGE_ROOT, { snapshot: args.values.snapshot, dsh: args.values.dsh, check: args.values.check })
    if (args.values.check === true) {
      if (result.changed.length > 0) {
        process.stderr.write(`build: stale generated files (run \`npm run build\`):\n${result.changed.map((f) => `  ${f}\n`).join('')}`)
        return 1
      }
      process.stdout.write(`build: ${result.unchanged.length} generated files are current\n`)
      return 0
    }
    process.stdout.write(
      result.changed.length === 0 ? `build: nothing changed (${result.unchanged.length} files current)\n` : `build: wrote ${result.changed.join(', ')}\n`,
    )
    return 0
  } catch (error) {
    if (error instanceof BuildError) {
      process.stderr.write(`build refused, nothing written: ${error.message}\n`)
      return 2
    }
    throw error
  }
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = await cli(process.argv.slice(2))
