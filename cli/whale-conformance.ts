import { execFile } from 'node:child_process'
import path from 'node:path'
import { formatReport, ManifestError, runConformance, type ExecResult, type WhaleExec } from '../whale/conformance.ts'
import { CliError, type SubCommand } from './io.ts'
import { parseOptions, writeJson } from './whale-args.ts'

const USAGE = 'cyrene whale conformance <dir> [--json] [--case ID]… [--command PROGRAM [--command-arg ARG]…]'

/** Runs `cyrene whale …` in this process with the case's own env and working directory. */
export const inProcessExec: WhaleExec = async (argv, env, cwd): Promise<ExecResult> => {
  const { whaleCommand } = await import('./whale.ts')
  let stdout = ''
  let stderr = ''
  const io = { stdout: (t: string) => { stdout += t }, stderr: (t: string) => { stderr += t }, env: { ...env }, cwd }
  try {
    const code = await whaleCommand(argv, io)
    return { code, stdout, stderr }
  } catch (error) {
    if (error instanceof CliError) return { code: error.code, stdout, stderr: stderr + error.message + '\n' }
    return { code: 70, stdout, stderr: stderr + String((error as Error).stack ?? error) + '\n' }
  }
}

/**
 * Runs another implementation's command line instead: PROGRAM ARG… <whale argv…>.
 * The case env is passed as given, plus PATH so PROGRAM can be found.
 */
export function externalExec(program: string, fixedArgs: string[], path_: string | undefined): WhaleExec {
  return (argv, env, cwd) => new Promise((resolve) => {
    execFile(program, [...fixedArgs, ...argv], { cwd, env: { ...env, ...(path_ ? { PATH: path_ } : {}) }, maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 127
      resolve({ code, stdout: String(stdout), stderr: String(stderr) + (error !== null && code === 127 ? String(error.message) : '') })
    })
  })
}

export const conformanceCommand: SubCommand = async (argv, io) => {
  const { values, positionals } = parseOptions(argv, {
    json: { type: 'boolean' },
    case: { type: 'string', multiple: true },
    command: { type: 'string' },
    'command-arg': { type: 'string', multiple: true },
  }, USAGE)
  if (positionals.length !== 1) throw new CliError(`give exactly one folder holding a manifest.json. Usage: ${USAGE}`)
  const dir = path.resolve(io.cwd, positionals[0]!)
  let report
  try {
    const exec = values.command ? externalExec(values.command, values['command-arg'] ?? [], io.env.PATH) : inProcessExec
    report = await runConformance(dir, exec, values.case ? { only: values.case } : {})
  } catch (error) {
    if (error instanceof ManifestError) throw new CliError(error.message)
    throw error
  }
  if (values.json === true) writeJson(io, report)
  else io.stdout(formatReport(report))
  return report.failed === 0 && report.total > 0 ? 0 : 1
}
