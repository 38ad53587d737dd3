import { promises as fs } from 'node:fs'
import { resolve } from 'node:path'
import { say } from './help-text.ts'
import { CliError, type CliIO } from './io.ts'

/**
 * An input file of an import, read whole once it is known to be one: a device, a pipe or a socket
 * (`/dev/zero` never ends) and a file past `maxBytes` (one string of it would not fit, or would
 * take gigabytes to parse) are refused up front (exit 2), nothing read and nothing changed. Other
 * failures (missing, unreadable) are the caller's to word.
 */
export async function readInputFile(io: CliIO, file: string, maxBytes: number): Promise<Buffer> {
  const path = resolve(io.cwd, file)
  const st = await fs.stat(path)
  if (st.isDirectory()) return await fs.readFile(path) // EISDIR, worded by the caller as today
  if (!st.isFile()) throw new CliError(say(io, 'store.file.notRegular', { file }), 2)
  if (st.size > maxBytes)
    throw new CliError(say(io, 'store.file.tooBig', { file, mb: String(Math.ceil(st.size / 2 ** 20)), max: String(maxBytes / 2 ** 20) }), 2)
  return await fs.readFile(path)
}
