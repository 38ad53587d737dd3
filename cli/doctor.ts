import { cliDoctorLines, doctorReport } from '../host/doctor.ts'
import type { CliIO, SubCommand } from './io.ts'
import { CyreneCommand } from './command.ts'

export function doctorFamily(io: CliIO): CyreneCommand {
  return new CyreneCommand('doctor', io)
    .description(
      `the state of this DSH_HOME outside a chat: memory store, engine, quotas, snapshots, volume,
retired plugins, worldbook, whale-persona. Reads only; exit 1 when something fails.`,
    )
    .option('--json', 'machine output')
    .act<{ json?: true }>(async (o) => await doctor(o.json === true, io))
}

/** `cyrene doctor <argv…>` in this process, refusals thrown as `CliError`. */
export const doctorCommand: SubCommand = async (argv, io) => {
  const { run } = await import('./main.ts')
  return await run(['doctor', ...argv], io)
}

async function doctor(json: boolean, io: CliIO): Promise<number> {
  const lines = await cliDoctorLines(io)
  if (json) io.stdout(JSON.stringify({ lines }, null, 2) + '\n')
  else io.stdout(doctorReport(lines) + '\n')
  return lines.some((l) => l.status === 'fail') ? 1 : 0
}
