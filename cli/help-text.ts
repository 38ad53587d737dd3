import { DEFAULT_LANG, t, tKey, type Lang, type MessageKey, type ParamArgs } from '../i18n/index.ts'
import type { CliIO } from './io.ts'

/** A help text of the command line in this invocation's language (cli/lang.ts). */
export function help(io: CliIO, key: MessageKey, params: Record<string, string | number> = {}): string {
  return tKey(key, io.lang ?? DEFAULT_LANG, params)
}

/** This invocation's language (cli/lang.ts); zh when not set. */
export function langOf(io: Pick<CliIO, 'lang'>): Lang {
  return io.lang ?? DEFAULT_LANG
}

/** A line of the command line in this invocation's language, its params checked against the catalogue. */
export function say<K extends MessageKey>(io: Pick<CliIO, 'lang'>, key: K, ...args: ParamArgs<K>): string {
  return t(key, langOf(io), ...args)
}
