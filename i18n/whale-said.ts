import type { Lang } from './index.ts'
import { errorText, hasSaid, saidOr, type SaidLike } from './store-said.ts'

/**
 * What whale/ said (whale/said.ts: a `WhaleError`'s said, an import note's)
 * in the person's language: key `whale.said.<code>`, worded as memory/'s saids
 * are (decisions 082, 085). English keeps whale/'s own sentence byte for byte;
 * a code this catalogue does not know falls back to that sentence.
 */
const PREFIX = 'whale.said.'

export const hasWhaleSaid = (said: SaidLike): boolean => hasSaid(said, PREFIX)

export const whaleSaidOr = (said: SaidLike | undefined, english: string, lang: Lang): string => saidOr(said, english, lang, PREFIX)

/** A refusal whale/ threw, duck-typed on its `said`. */
export const whaleErrorText = (error: unknown, lang: Lang): string => errorText(error, lang, PREFIX)
