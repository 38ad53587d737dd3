#!/usr/bin/env node
// The package ships compiled JavaScript; `npm run compile` produces dist/.
const { main } = await import('../dist/scripts/cli/main.js')
process.exitCode = await main(process.argv.slice(2))
