import { DEFAULT_LANG, tKey, type MessageKey } from '../i18n/index.ts'
import type { CliIO } from './io.ts'

/** A help text of the command line in this invocation's language (cli/lang.ts). */
export function help(io: CliIO, key: MessageKey, params: Record<string, string | number> = {}): string {
  return tKey(key, io.lang ?? DEFAULT_LANG, params)
}
