import { tKey, zh, type MessageKey } from '../i18n/index.ts'
import { LockBusyError, LockLostError, RefusedError } from '../memory/index.ts'
import { langOf } from './help-text.ts'
import type { CliIO } from './io.ts'

/**
 * A store refusal in the person's language (decision 078). memory/ gives a
 * code, the params that name what it is about and an English sentence; the
 * English sentence is the English words (it may say more: a lock's holder,
 * what git said), so an English person reads it as it is. For another
 * language a coded refusal is worded from the catalogue (`store.refused.*`);
 * one not coded yet keeps the store's sentence.
 */
export function refusalText(e: Error, io: Pick<CliIO, 'lang'>): string {
  const lang = langOf(io)
  if (lang === 'en') return e.message
  const coded = codeOf(e)
  if (coded === undefined || !(coded.key in zh)) return e.message
  return tKey(coded.key as MessageKey, lang, coded.params)
}

function codeOf(e: Error): { key: string; params: Record<string, string> } | undefined {
  if (e instanceof RefusedError) {
    const { variant, ...params } = e.params
    return { key: `store.refused.${e.code}${variant === undefined ? '' : `.${variant}`}`, params }
  }
  if (e instanceof LockLostError && e.path !== undefined) return { key: 'store.refused.lock-lost', params: { lock: e.path } }
  if (e instanceof LockBusyError && e.path !== undefined)
    return {
      key: e.name === 'EngineBusyError' ? 'store.refused.engine-busy' : 'store.refused.busy',
      params: { lock: e.path, pid: String(e.owner?.pid ?? '?') },
    }
  return undefined
}
