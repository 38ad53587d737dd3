#!/usr/bin/env node
// The package ships compiled JavaScript; `npm run compile` produces dist/.
// runCli turns every failure into a message and an exit code (see `cyrene --help`).
const { runCli } = await import('../dist/cli/main.js')
process.exitCode = await runCli(process.argv.slice(2))
