import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { snapshotBases } from '../host/base-drift.ts'
import { DEFAULT_LANG, t, type Lang } from '../i18n/index.ts'
import { cliDoctorLines, type BuiltinPresets } from '../host/doctor.ts'
import { doctorReport, doctorRows } from '../doctor/index.ts'
import { PACKAGE_ROOT, packagePath } from '../host/package-root.ts'
import { builtinPresetsDir, findDshOnPath, findDshPackage } from '../host/preset-roots.ts'
import type { CliIO } from './io.ts'
import { CyreneCommand } from './command.ts'
import { help } from './help-text.ts'

export function doctorFamily(io: CliIO): CyreneCommand {
  return new CyreneCommand('doctor', io)
    .description(help(io, 'cli.doctor'))
    .option('--json', help(io, 'cli.json'))
    .option('--verbose', help(io, 'cli.doctor.verbose'))
    .act<{ json?: true; verbose?: true }>(async (o) => await doctor(o.json === true, o.verbose === true, io))
}

async function doctor(json: boolean, verbose: boolean, io: CliIO): Promise<number> {
  const lang = io.lang ?? DEFAULT_LANG
  const lines = await cliDoctorLines(io, lang, installedBuiltins(io.env, lang))
  if (json) io.stdout(JSON.stringify({ lines, areas: doctorRows(lines, lang) }, null, 2) + '\n')
  else io.stdout(doctorReport(lines, { verbose, lang }) + '\n')
  return lines.some((l) => l.status === 'fail') ? 1 : 0
}

/** Outside DSH: the DSH this package is installed with, else the `dsh` on PATH. */
function installedBuiltins(env: NodeJS.ProcessEnv, lang: Lang): BuiltinPresets {
  const dsh = findDshPackage(pathToFileURL(join(PACKAGE_ROOT, 'package.json')).href, undefined) ?? findDshOnPath(env)
  if (dsh === undefined) return { missing: t('doctor.base.noDsh', lang) }
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
