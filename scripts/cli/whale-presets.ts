import { CliError, type SubCommand } from './io.ts'

export const presetsCommand: SubCommand = async () => { throw new CliError('not built yet') }
