// Loads what recall loads lazily (the folding table, the translation dictionary) ahead
// of the first search that needs it, for a caller with idle time (the recall worker).

import { bilingualDictionary } from './bilingual.ts'
import { foldSignature } from './fold.ts'

/** Load both tables now; true when translation is available. Never throws (a missing package only turns the feature off). */
export function warmRecallDictionaries(): boolean {
  foldSignature()
  return bilingualDictionary() !== null
}
