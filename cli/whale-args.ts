import { parseArgs, type ParseArgsConfig } from 'node:util'
import { CliError, type CliIO } from './io.ts'

/** parseArgs with refusals turned into CliError so a typo never surfaces as a stack trace. */
export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: T, usage: string) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true })
  } catch (error) {
    throw new CliError(`${(error as Error).message}\nUsage: ${usage}`)
  }
}

export function writeJson(io: CliIO, value: unknown): void {
  io.stdout(JSON.stringify(value, null, 2) + '\n')
}
