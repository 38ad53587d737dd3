import { parseArgs } from 'node:util'
import { cliDoctorLines, doctorReport } from '../host/doctor.ts'
import { CliError, type SubCommand } from './io.ts'

const USAGE = `cyrene doctor [--json] — the state of this DSH_HOME outside a chat: memory store, engine,
quotas, snapshots, volume, retired plugins, whale-persona. Reads only; exit 1 when something fails.`

export const doctorCommand: SubCommand = async (argv, io) => {
  let values
  try {
    ;({ values } = parseArgs({ args: argv, options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } }))
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n${USAGE}`)
  }
  if (values.help === true) {
    io.stdout(USAGE + '\n')
    return 0
  }
  const lines = await cliDoctorLines(io)
  if (values.json === true) io.stdout(JSON.stringify({ lines }, null, 2) + '\n')
  else io.stdout(doctorReport(lines) + '\n')
  return lines.some((l) => l.status === 'fail') ? 1 : 0
}
