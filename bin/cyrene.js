#!/usr/bin/env node
// The package ships compiled JavaScript; `npm run compile` produces dist/.
// runCli turns every failure into a message and an exit code (see `cyrene --help`).
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { nodeVersionProblem } from './node-version.js'

// Checked before dist/ is loaded: an older Node would stop on its syntax or APIs with a stack, not a sentence.
const engines = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).engines.node
const problem = nodeVersionProblem(process.versions.node, engines, process.execPath)
if (problem !== undefined) {
  process.stderr.write(`cyrene: ${problem}\n`)
  process.exitCode = 3 // the system refused (CONTRACT#exit-codes): nothing was read or changed
} else {
  const { runCli } = await import('../dist/cli/main.js')
  // Where this package is installed: inside a DSH profile that names the DSH_HOME to use.
  process.exitCode = await runCli(process.argv.slice(2), fileURLToPath(new URL('..', import.meta.url)))
}
