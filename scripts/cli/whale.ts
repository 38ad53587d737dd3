import { CliError, type SubCommand } from './io.ts'

// Placeholder until whale/ lands.
export const whaleCommand: SubCommand = async () => { throw new CliError('whale-persona support is not built yet in this version', 2) }
