import { CliError, type SubCommand } from './io.ts'

export const inboxCommand: SubCommand = async () => { throw new CliError('not built yet') }
