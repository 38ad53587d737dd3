import { CliError, type SubCommand } from './io.ts'
import { renderCommand } from './whale-render.ts'
import { presetsCommand } from './whale-presets.ts'
import { inboxCommand } from './whale-inbox.ts'
import { conformanceCommand } from './whale-conformance.ts'
import { reflexCommand } from './whale-reflex.ts'

const HELP = `cyrene whale — whale-persona v1 files on the command line

Usage:
  cyrene whale render [--config FILE] [--model ID] [--cwd DIR] [--capture] [--json]
  cyrene whale presets list|show <id>|apply <id>|save <id> [label]|delete <id>|dir
  cyrene whale presets import <file> [--json] [--dry-run] [--force] [--id ID]
  cyrene whale presets export <id> [OUT] [--tavern] [--force]
      (<id> = cyrene:chat or cyrene:work: Cyrene's own persona, without memory)
  cyrene whale inbox list [--json]
  cyrene whale inbox confirm|reject|drop <index…> [--json]
  cyrene whale inbox log
  cyrene whale conformance <dir> [--json] [--case ID]…
  cyrene whale reflex check <text…> [--model ID] [--json]

Files: DSH_WHALE_CONFIG names the config file; otherwise $DSH_HOME/whale-persona/config.json
(or whale-suite/ when that legacy config exists). DSH_HOME defaults to ~/.dsh.
Relative paths resolve against the working directory.
`

const families: Record<string, SubCommand> = {
  render: renderCommand,
  presets: presetsCommand,
  inbox: inboxCommand,
  conformance: conformanceCommand,
  reflex: reflexCommand,
}

export const whaleCommand: SubCommand = async (argv, io) => {
  const [name, ...rest] = argv
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    io.stdout(HELP)
    return name === undefined ? 2 : 0
  }
  const family = families[name]
  if (family === undefined) throw new CliError(`unknown sub-command "${name}". Run \`cyrene whale --help\` for the list.`)
  try {
    return await family(rest, io)
  } catch (error) {
    // a file the system will not let us read or write is a refusal to explain, not a crash
    const code = (error as NodeJS.ErrnoException | null)?.code
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) throw new CliError(`${(error as Error).message}. Check the path and its permissions; nothing else was changed.`, 1)
    throw error
  }
}

