// Runs before scripts/start.ts (package.json "start" and "dsh"): plain JS, so a Node too old to run
// TypeScript files gets this message instead of ERR_UNKNOWN_FILE_EXTENSION.
const MIN = [22, 19]
const [major, minor] = process.versions.node.split('.').map(Number)
if (major < MIN[0] || (major === MIN[0] && minor < MIN[1])) {
  process.stderr.write(
    `npm start: Node ${process.versions.node} is too old: it needs Node ≥ ${MIN.join('.')} (dsh 0.1.0-rc.8 does too).\n` +
      'Run `npm ci` first: it puts Node 24 into node_modules/.bin, which npm start and npm run dsh use.\n',
  )
  process.exit(1)
}
