import { isAbsolute, join } from 'node:path'
import { homedir } from 'node:os'
import { processIO, CliError, type CliIO } from './io.ts'
import { describeBug, describeSystemFailure, EXIT, type FailureContext } from './failures.ts'
import { visibleControls } from './terminal.ts'
import { CyreneCommand, runCommand } from './command.ts'
import { withProfileHome } from './profile-home.ts'
import { takeLang } from './lang.ts'
import { help } from './help-text.ts'
import { DEFAULT_LANG, langFromEnv, t, type Lang, type MessageKey } from '../i18n/index.ts'

/** A command family: builds its commands (options, help, actions) for one invocation. */
type Family = (io: CliIO) => CyreneCommand

/**
 * The `cyrene` command line. Each family lives in its own module and is loaded
 * only when asked for, so `cyrene whale …` never pays for the memory engine.
 */
const families: Record<string, { summary: MessageKey; load: () => Promise<Family> }> = {
  doctor: { summary: 'cli.family.doctor', load: async () => (await import('./doctor.ts')).doctorFamily },
  memory: { summary: 'cli.family.memory', load: async () => (await import('./memory.ts')).memoryFamily },
  backup: { summary: 'cli.family.backup', load: async () => (await import('./memory.ts')).backupFamily },
  restore: { summary: 'cli.family.restore', load: async () => (await import('./memory.ts')).restoreFamily },
  volume: { summary: 'cli.family.volume', load: async () => (await import('./memory.ts')).volumeFamily },
  migrate: { summary: 'cli.family.migrate', load: async () => (await import('./memory.ts')).migrateFamily },
  settings: { summary: 'cli.family.settings', load: async () => (await import('./settings.ts')).settingsFamily },
  sync: { summary: 'cli.family.sync', load: async () => (await import('./sync.ts')).syncFamily },
  whale: { summary: 'cli.family.whale', load: async () => (await import('./whale.ts')).whaleFamily },
  worldbook: { summary: 'cli.family.worldbook', load: async () => (await import('./worldbook.ts')).worldbookFamily },
}

/**
 * The whole command line for one invocation, with the family `argv` names
 * loaded (`cyrene help <family>` too); every family when `argv` is not given.
 */
export async function program(io: CliIO, argv?: readonly string[]): Promise<CyreneCommand> {
  const root = new CyreneCommand('cyrene', io).description(help(io, 'cli.about')).addHelpText('after', help(io, 'cli.afterHelp'))
  const wanted = argv === undefined ? undefined : argv[0] === 'help' ? argv[1] : argv[0]
  for (const [name, family] of Object.entries(families)) {
    const command = argv === undefined || wanted === name ? (await family.load())(io) : new CyreneCommand(name, io)
    root.addCommand(command.summary(help(io, family.summary)))
  }
  return root
}

/** One command line, refusals thrown as `CliError`: what `main` reports, and what tests and `whale conformance` call. */
export async function run(argv: string[], io: CliIO): Promise<number> {
  const chosen = takeLang(argv, io.env)
  const withLang: CliIO = { ...io, lang: chosen.lang, run }
  return await runCommand(await program(withLang, chosen.argv), chosen.argv)
}

export async function main(argv: string[], io: CliIO = processIO()): Promise<number> {
  try {
    return await run(argv, io)
  } catch (error) {
    return await reportFailure(error, argv, io)
  }
}

/** The language of an invocation whose run failed (a bad --lang falls back to the locale's). */
function langOfArgv(argv: readonly string[], env: NodeJS.ProcessEnv): Lang {
  try {
    return takeLang(argv, env).lang
  } catch {
    return langFromEnv(env) ?? DEFAULT_LANG
  }
}

/** Where the memory store is for this invocation, for messages (never throws). */
function storeRootOf(argv: readonly string[], env: NodeJS.ProcessEnv): string | undefined {
  const i = argv.indexOf('--root')
  if (i >= 0 && argv[i + 1] !== undefined && isAbsolute(argv[i + 1]!)) return argv[i + 1]
  const eq = argv.find((a) => a.startsWith('--root='))
  if (eq !== undefined && isAbsolute(eq.slice(7))) return eq.slice(7)
  const home = env.DSH_HOME?.trim()
    ? env.DSH_HOME.trim()
    : (() => {
        try {
          return join(homedir(), '.dsh')
        } catch {
          return undefined
        }
      })()
  return home !== undefined && isAbsolute(home) ? join(home, 'cyrene-philia093-0') : undefined
}

/**
 * Every failure ends here as one message and an exit code (never a stack,
 * unless CYRENE_DEBUG=1 and it is a bug): refusals 2, the system refusing 3,
 * anything unexpected 70.
 */
async function reportFailure(error: unknown, argv: string[], io: CliIO): Promise<number> {
  const [first = '', ...rest] = argv
  // A refusal of the command line itself (an unknown command) is the program's, not a family's.
  const name = Object.hasOwn(families, first) ? first : undefined
  // Families with sub-commands name them (`memory write`); for the others the first word is an argument.
  const sub = ['memory', 'volume', 'whale', 'worldbook', 'settings'].includes(first) && rest[0] !== undefined && !rest[0].startsWith('-') ? ` ${rest[0]}` : ''
  const say = (text: string): void => {
    io.stderr(`cyrene${name === undefined ? '' : ` ${name}`}: ${visibleControls(text)}\n`)
  }
  let e = error
  if (!(e instanceof CliError) && name !== undefined && name !== 'whale' && name !== 'doctor') {
    // Engine refusals (RefusedError, a busy lock, …) that a handler did not wrap; loaded only on this path.
    e = (await import('./memory-shared.ts')).asCliError(e, { lang: langOfArgv(argv, io.env) })
  }
  if (e instanceof CliError) {
    say(e.message)
    return e.code
  }
  const lang = langOfArgv(argv, io.env)
  const ctx: FailureContext = {
    command: `${name ?? first}${sub}`,
    argv: rest,
    storeRoot: storeRootOf(rest, io.env),
    lang,
    // Loaded only on this path, like the engine's refusals above.
    nothingChanged: (await import('../memory/format.ts')).leftStoreUntouched(e),
  }
  const system = describeSystemFailure(e, ctx)
  if (system !== undefined) {
    say(system.message)
    return system.exit
  }
  say(describeBug(e, io.env.CYRENE_DEBUG === '1', lang))
  return EXIT.bug
}

/**
 * What bin/cyrene.js runs: the real process, with output errors folded into the exit code.
 * `packageDir` is where this package is installed: inside a DSH profile it names that profile's DSH_HOME.
 */
export async function runCli(argv: string[], packageDir?: string): Promise<number> {
  const io = processIO()
  io.env = withProfileHome(io.env, io.cwd, packageDir)
  const code = await main(argv, io)
  const failed = io.failed()
  if (failed === undefined) return code
  io.stderr(`${t('store.main.outputFailed', langOfArgv(argv, io.env), { why: failed.code ?? failed.message, code: String(code) })}\n`)
  return code === EXIT.ok ? EXIT.system : code
}
