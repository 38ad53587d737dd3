import { tKey, zh, type Lang, type MessageKey } from './index.ts'

/**
 * Why recall brought nothing, in the person's language. memory/ gives the
 * reason as a code with its numbers (recall/keeper.ts `RecallSilence`) and
 * imports no catalogue; a reason this catalogue does not know yet is named,
 * not hidden.
 */
export function recallSilenceText(silence: { reason: string; coverage?: number; needed?: number }, lang: Lang): string {
  const key = `recall.silence.${silence.reason}`
  if (!Object.hasOwn(zh, key)) return tKey('recall.silence.unknown', lang, { reason: silence.reason })
  const percent = (x: number | undefined): number => Math.round((x ?? 0) * 100)
  return tKey(key as MessageKey, lang, { coverage: percent(silence.coverage), needed: percent(silence.needed) })
}
