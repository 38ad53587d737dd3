import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { snapshotBases } from '../host/base-drift.ts'
import { cliDoctorLines, doctorReport, type BuiltinPresets } from '../host/doctor.ts'
import { PACKAGE_ROOT, packagePath } from '../host/package-root.ts'
import { builtinPresetsDir, findDshOnPath, findDshPackage } from '../host/preset-roots.ts'
import type { CliIO, SubCommand } from './io.ts'
import { CyreneCommand } from './command.ts'

export function doctorFamily(io: CliIO): CyreneCommand {
  return new CyreneCommand('doctor', io)
    .description(
      `the state of this DSH_HOME outside a chat: memory store, engine, quotas, snapshots, volume,
retired plugins, worldbook, whale-persona, and whether the built-in presets of the DSH this package is
installed with still match the ones the Cyrene presets were built on. Reads only; exit 1 when
something fails.`,
    )
    .option('--json', 'machine output')
    .option('--verbose', 'details under each line (which sections, which rows)')
    .act<{ json?: true; verbose?: true }>(async (o) => await doctor(o.json === true, o.verbose === true, io))
}

/** `cyrene doctor <argv…>` in this process, refusals thrown as `CliError`. */
export const doctorCommand: SubCommand = async (argv, io) => {
  const { run } = await import('./main.ts')
  return await run(['doctor', ...argv], io)
}

async function doctor(json: boolean, verbose: boolean, io: CliIO): Promise<number> {
  const lines = await cliDoctorLines(io, installedBuiltins(io.env))
  if (json) io.stdout(JSON.stringify({ lines }, null, 2) + '\n')
  else io.stdout(doctorReport(lines, { verbose }) + '\n')
  return lines.some((l) => l.status === 'fail') ? 1 : 0
}

/** Outside DSH: the DSH this package is installed with, else the `dsh` on PATH. */
function installedBuiltins(env: NodeJS.ProcessEnv): BuiltinPresets {
  const dsh = findDshPackage(pathToFileURL(join(PACKAGE_ROOT, 'package.json')).href, undefined) ?? findDshOnPath(env)
  if (dsh === undefined) return { missing: 'no DSH found beside this package or on PATH (`/cyrene doctor` in DSH compares them)' }
  const found = new Map<string, string>()
  for (const base of snapshotBases(packagePath('modes', 'base'))) {
    const file = join(builtinPresetsDir(dsh), base, 'agent.cordis.yml')
    if (existsSync(file)) found.set(base, file)
  }
  let dshVersion: string | undefined
  try {
    dshVersion = String(JSON.parse(readFileSync(join(dsh, 'package.json'), 'utf8')).version)
  } catch {
    dshVersion = undefined
  }
  return { found, dshVersion }
}
