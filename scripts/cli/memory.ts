import { CliError, type SubCommand } from './io.ts'

// Placeholder until the memory engine lands: every command refuses plainly.
const notYet: SubCommand = async () => { throw new CliError('the memory engine is not built yet in this version', 2) }
export const memoryCommand = notYet
export const backupCommand = notYet
export const restoreCommand = notYet
export const volumeCommand = notYet
export const migrateCommand = notYet
