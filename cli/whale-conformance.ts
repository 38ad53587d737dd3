import { execFile } from 'node:child_process'
import path from 'node:path'
import { ManifestError, readManifest, runConformance, type ConformanceReport, type ExecResult, type WhaleExec } from '../whale/conformance.ts'
import { DEFAULT_LANG, t, type Lang } from '../i18n/index.ts'
import { CliError, memoryIO, saidRefusal, type CliIO, type SubCommand } from './io.ts'
import { repeated, type CyreneCommand } from './command.ts'
import { writeJson } from './terminal.ts'
import { help } from './help-text.ts'
import { whaleErrorText } from '../i18n/whale-said.ts'

/** Runs `cyrene whale …` in this process with the case's own env and working directory. */
const inProcessExec =
  (run: SubCommand): WhaleExec =>
  async (argv, env, cwd): Promise<ExecResult> => {
    const io = memoryIO({ ...env }, cwd)
    try {
      const code = await run(['whale', ...argv], io)
      return { code, stdout: io.out(), stderr: io.err() }
    } catch (error) {
      if (error instanceof CliError) return { code: error.code, stdout: io.out(), stderr: io.err() + error.message + '\n' }
      return { code: 70, stdout: io.out(), stderr: io.err() + String((error as Error).stack ?? error) + '\n' }
    }
  }

/**
 * Runs another implementation's command line instead: PROGRAM ARG… <whale argv…>.
 * The case env is passed as given, plus PATH so PROGRAM can be found.
 */
function externalExec(program: string, fixedArgs: string[], path_: string | undefined): WhaleExec {
  return (argv, env, cwd) =>
    new Promise((resolve) => {
      execFile(
        program,
        [...fixedArgs, ...argv],
        { cwd, env: { ...env, ...(path_ ? { PATH: path_ } : {}) }, maxBuffer: 64 * 1024 * 1024 },
        (error, stdout, stderr) => {
          const code = error === null ? 0 : typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 127
          resolve({ code, stdout: String(stdout), stderr: String(stderr) + (error !== null && code === 127 ? String(error.message) : '') })
        },
      )
    })
}

interface ConformanceOptions {
  json?: true
  case?: string[]
  command?: string
  commandArg?: string[]
}

export function addConformance(whale: CyreneCommand): void {
  whale
    .command('conformance')
    .description(help(whale.io, 'cli.whale.conformance'))
    .argument('<dir>', help(whale.io, 'cli.whale.conformance.dir'))
    .option('--json', help(whale.io, 'cli.whale.opt.json'))
    .option('--case <ID>', help(whale.io, 'cli.whale.conformance.case'), repeated)
    .option('--command <PROGRAM>', help(whale.io, 'cli.whale.conformance.command'))
    .option('--command-arg <ARG>', help(whale.io, 'cli.whale.conformance.commandArg'), repeated)
    .act<ConformanceOptions>(async (o, args, command) => await conformance(o, args, command, whale.io))
    .jsonRefusals()
}

async function conformance(values: ConformanceOptions, positionals: string[], command: CyreneCommand, io: CliIO): Promise<number> {
  const L = io.lang ?? DEFAULT_LANG
  if (positionals.length !== 1) throw saidRefusal((lang) => t('whale.out.conformance.one', lang, { usage: `${command.path()} ${command.usage()}` }), L)
  const dir = path.resolve(io.cwd, positionals[0]!)
  let report
  try {
    if (values.command === undefined && io.run === undefined)
      throw new Error('whale conformance without --command runs inside the cyrene command line (cli/main.ts run)')
    // A --case the manifest does not hold is a typo, not "0 of 0 pass".
    const unknown = (values.case ?? []).filter((id) => !readManifest(dir).some((c) => c.id === id))
    if (unknown.length > 0) throw saidRefusal((lang) => t('whale.out.conformance.noCase', lang, { ids: unknown.join(', ') }), L)
    const exec = values.command !== undefined ? externalExec(values.command, values.commandArg ?? [], io.env.PATH) : inProcessExec(io.run!)
    report = await runConformance(dir, exec, values.case ? { only: values.case } : {})
  } catch (error) {
    if (error instanceof CliError) throw error
    if (error instanceof ManifestError) throw saidRefusal((lang) => whaleErrorText(error, lang), L)
    throw error
  }
  if (values.json === true) writeJson(io, report)
  else io.stdout(formatReport(report, L))
  return report.failed === 0 && report.total > 0 ? 0 : 1
}

/**
 * One line per case and the count, in the person's language. A case's id and op are the
 * manifest's, and each failure is whale/conformance.ts's comparison of bytes (expected … got …),
 * shown as it is: it quotes what the two implementations wrote.
 */
function formatReport(report: ConformanceReport, lang: Lang): string {
  const lines = report.cases.map(
    (r) =>
      `${t(r.ok ? 'whale.out.conformance.pass' : 'whale.out.conformance.fail', lang)}  ${r.id}  (${r.op})${r.ok ? '' : '\n' + r.failures.map((f) => '      - ' + f).join('\n')}`,
  )
  return `${lines.join('\n')}\n${t('whale.out.conformance.summary', lang, { passed: report.passed, total: report.total })}\n`
}
