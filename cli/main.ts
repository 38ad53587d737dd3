import { isAbsolute, join } from 'node:path'
import { homedir } from 'node:os'
import { processIO, CliError, type CliIO, type SubCommand } from './io.ts'
import { describeBug, describeSystemFailure, EXIT, type FailureContext } from './failures.ts'
import { visibleControls } from './terminal.ts'

/**
 * The `cyrene` command line. Each family lives in its own module and is loaded
 * only when asked for, so `cyrene whale …` never pays for the memory engine.
 */
const families: Record<string, { summary: string; load: () => Promise<SubCommand> }> = {
  doctor: { summary: 'the state of this DSH_HOME: store, engine, quotas, snapshots, volume, retired plugins, whale-persona', load: async () => (await import('./doctor.ts')).doctorCommand },
  memory: { summary: 'the memory store: list, show, write, search, log, check, import, export, reindex', load: async () => (await import('./memory.ts')).memoryCommand },
  backup: { summary: 'take a snapshot of the memory store now', load: async () => (await import('./memory.ts')).backupCommand },
  restore: { summary: 'restore the memory store from a snapshot', load: async () => (await import('./memory.ts')).restoreCommand },
  volume: { summary: 'volumes (卷): show, or open a new one (a person only)', load: async () => (await import('./memory.ts')).volumeCommand },
  migrate: { summary: 'import memories from the retired plugins or a whale-persona inbox', load: async () => (await import('./memory.ts')).migrateCommand },
  whale: { summary: 'whale-persona v1: render, presets, cards, inbox, conformance', load: async () => (await import('./whale.ts')).whaleCommand },
}

export const HELP = `cyrene — 昔涟 · 新卷 command line

Usage: cyrene <command> [options]

Commands:
${Object.entries(families).map(([k, v]) => `  ${k.padEnd(10)} ${v.summary}`).join('\n')}

Every command honours DSH_HOME (default ~/.dsh). Add --help after a command for its options.

Exit status:
  0   success
  1   a check found a problem (or \`memory show\` found no such entry)
  2   input refused — the message says why; nothing was changed
  3   the system refused: disk full (ENOSPC, EDQUOT), permission denied (EACCES, EPERM),
      read-only file system (EROFS), an I/O error, or a folder where a file belongs (or the
      reverse); the message names the path and what to do, and says what was changed
  70  an internal error: a bug in cyrene (CYRENE_DEBUG=1 shows where it happened)
A reader that closes the output early (\`cyrene memory list | head -1\`) is not an error.
`

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(HELP)
    return name === undefined ? 2 : 0
  }
  const family = families[name]
  if (family === undefined) {
    io.stderr(`cyrene: unknown command "${name}". Run \`cyrene --help\` for the list.\n`)
    return 2
  }
  try {
    const run = await family.load()
    return await run(rest, io)
  } catch (error) {
    return await reportFailure(error, name, rest, io)
  }
}

/** Where the memory store is for this invocation, for messages (never throws). */
function storeRootOf(argv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  const i = argv.indexOf('--root')
  if (i >= 0 && argv[i + 1] !== undefined && isAbsolute(argv[i + 1]!)) return argv[i + 1]
  const eq = argv.find((a) => a.startsWith('--root='))
  if (eq !== undefined && isAbsolute(eq.slice(7))) return eq.slice(7)
  const home = env.DSH_HOME?.trim() ? env.DSH_HOME.trim() : (() => { try { return join(homedir(), '.dsh') } catch { return undefined } })()
  return home !== undefined && isAbsolute(home) ? join(home, 'cyrene-philia093-0') : undefined
}

/**
 * Every failure ends here as one message and an exit code (never a stack,
 * unless CYRENE_DEBUG=1 and it is a bug): refusals 2, the system refusing 3,
 * anything unexpected 70.
 */
async function reportFailure(error: unknown, name: string, rest: string[], io: CliIO): Promise<number> {
  // Families with sub-commands name them (`memory write`); for the others the first word is an argument.
  const sub = ['memory', 'volume', 'whale'].includes(name) && rest[0] !== undefined && !rest[0].startsWith('-') ? ` ${rest[0]}` : ''
  const say = (text: string): void => { io.stderr(`cyrene ${name}: ${visibleControls(text)}\n`) }
  let e = error
  if (!(e instanceof CliError) && name !== 'whale' && name !== 'doctor') {
    // Engine refusals (RefusedError, a busy lock, …) that a handler did not wrap; loaded only on this path.
    e = (await import('./memory-shared.ts')).asCliError(e)
  }
  if (e instanceof CliError) { say(e.message); return e.code }
  const ctx: FailureContext = { command: `${name}${sub}`, argv: rest, storeRoot: storeRootOf(rest, io.env) }
  const system = describeSystemFailure(e, ctx)
  if (system !== undefined) { say(system.message); return system.exit }
  say(describeBug(e, io.env.CYRENE_DEBUG === '1'))
  return EXIT.bug
}

/** What bin/cyrene.js runs: the real process, with output errors folded into the exit code. */
export async function runCli(argv: string[]): Promise<number> {
  const io = processIO()
  const code = await main(argv, io)
  const failed = io.failed()
  if (failed === undefined) return code
  io.stderr(`cyrene: could not write the output (${failed.code ?? failed.message}); the command itself finished with exit ${code}.\n`)
  return code === EXIT.ok ? EXIT.system : code
}
