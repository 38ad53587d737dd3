// Loads what recall loads lazily (the folding table, the translation dictionary, the word lists) ahead
// of the first search that needs it, for a caller with idle time (the recall worker).

import { bilingualDictionary } from './bilingual.ts'
import { foldSignature } from './fold.ts'
import { wordKinds } from './word-kinds.ts'

/** Load the tables and the word lists now; true when translation is available. Never throws (a missing package only turns the feature off). */
export function warmRecallDictionaries(): boolean {
  foldSignature()
  wordKinds()
  return bilingualDictionary() !== null
}

/** What recall reads that it goes without here: the translation dictionary, the word lists (word-kinds.ts). */
export type RecallLack = 'translation' | 'word-kinds'

/** The data recall could not load in this process (each is loaded once; a missing one only turns its feature off). */
export function recallLacks(): RecallLack[] {
  const lacks: RecallLack[] = []
  if (bilingualDictionary() === null) lacks.push('translation')
  if (wordKinds() === null) lacks.push('word-kinds')
  return lacks
}
