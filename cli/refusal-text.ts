import { saidOr, type SaidLike } from '../i18n/store-said.ts'
// Leaf modules, not memory/index.ts: `cyrene whale …` reaches this file and must not load the memory engine (cli/command.test.ts).
import { LockBusyError, LockLostError } from '../durable/lock.ts'
import { RefusedError } from '../memory/format.ts'
import { langOf } from './help-text.ts'
import type { CliIO } from './io.ts'

/**
 * A store refusal in the person's language (decisions 078, 082). memory/ gives a
 * code, the params that name what it is about and an English sentence; the
 * English sentence is the English words (it may say more: a lock's holder,
 * what git said), so an English person reads it as it is. For another
 * language a coded refusal is worded from the catalogue (`store.refused.*`);
 * one not coded yet keeps the store's sentence.
 */
export function refusalText(e: Error, io: Pick<CliIO, 'lang'>): string {
  return saidOr(saidOf(e), e.message, langOf(io))
}

/** What memory/ said, in the person's language, or its English words when the catalogue has none for it. */
export function storeSaidText(said: SaidLike | undefined, english: string, io: Pick<CliIO, 'lang'>): string {
  return saidOr(said, english, langOf(io))
}

function saidOf(e: Error): SaidLike | undefined {
  // The lock's errors carry their said since decision 086, as a RefusedError does.
  if (e instanceof RefusedError || e instanceof LockLostError || e instanceof LockBusyError) return e.said
  return undefined
}

/** `--json` keeps the fields it had: the codes of what memory/ said are for the person's language, not for scripts (decision 082). */
export function withoutSaid<T extends { said?: unknown }>(items: readonly T[]): Array<Omit<T, 'said'>> {
  return items.map(({ said: _said, ...rest }) => rest)
}
