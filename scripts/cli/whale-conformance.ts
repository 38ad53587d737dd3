import { CliError, type SubCommand } from './io.ts'

export const conformanceCommand: SubCommand = async () => { throw new CliError('not built yet') }
