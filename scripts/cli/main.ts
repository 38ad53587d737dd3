import { processIO, CliError, type CliIO, type SubCommand } from './io.ts'

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
Exit status: 0 on success, 1 when a check finds a problem, 2 when input is refused.
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
    if (error instanceof CliError) {
      io.stderr(`cyrene ${name}: ${error.message}\n`)
      return error.code
    }
    throw error
  }
}
