// A bilingual dictionary of a few words for tests: both look-ups from one Chinese → English
// table, no names, no senses, no readings.

import type { BilingualDictionary } from '../bilingual.ts'

export function fakeDictionary(zhEn: Record<string, string[]>): BilingualDictionary {
  const enZh: Record<string, string[]> = {}
  for (const [zh, ens] of Object.entries(zhEn)) for (const en of ens) (enZh[en] ??= []).push(zh)
  return {
    english: (w) => zhEn[w] ?? [],
    chinese: (t) => enZh[t] ?? [],
    isName: () => false,
    senses: () => [],
    readings: () => [],
    spelledBy: () => [],
    isSyllable: () => false,
    entries: Object.keys(zhEn).length,
  }
}
