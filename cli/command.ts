import { Command, CommanderError, Option, type ErrorOptions, type HelpContext, type OptionValues } from 'commander'
import { CliError, type CliIO } from './io.ts'
import { EXIT } from './failures.ts'
import { t, tKey, DEFAULT_LANG, type Lang, type MessageKey } from '../i18n/index.ts'

const COMMANDER_HELP = 'display help for command'
const TITLES = ['Usage:', 'Options:', 'Commands:', 'Arguments:', 'Global Options:']

/** Help is laid out for this width whatever the terminal, so it reads the same everywhere (and in tests). */
const HELP_WIDTH = 100

/** What commander would take as a negative number and, in a command without sub-commands, as an argument. */
const NEGATIVE_NUMBER = /^-(\d+|\d*\.\d+)(e[+-]?\d+)?$/

/**
 * The one way the `cyrene` command line reads its words: a commander command
 * that writes through the injected `CliIO` and never exits the process. Help
 * is generated from the options each command declares; every parse refusal
 * becomes a one-line `CliError` (exit 2) naming the command and its `--help`.
 *
 * Where commander would take what node's `parseArgs` refused, it is still
 * refused (see cli/README.md): a negative number is an unknown option, and an
 * option value that starts with a dash is ambiguous. `-h`/`--help` anywhere
 * before `--` asks for help (never becomes a value). Missing arguments are
 * left to the action, whose message says what to give.
 */
export class CyreneCommand extends Command {
  readonly io: CliIO
  /** The exit code the action returned, kept on the command that ran it. */
  status: number | undefined
  private explain: ((error: unknown) => unknown) | undefined
  private refusalFields: Readonly<Record<string, unknown>> | undefined
  /** The words this command parses (its options and arguments), for a refusal of them. */
  private words: readonly string[] = []

  constructor(name: string, io: CliIO) {
    super(name)
    this.io = io
    this.exitOverride()
    this.configureOutput({
      writeOut: (text) => {
        io.stdout(text)
      },
      // Only help goes this way (errors are thrown, see error()): help shown because a sub-command is
      // missing is still help, on stdout as it always was; the exit code (2) says it was not asked for.
      writeErr: (text) => {
        io.stdout(text)
      },
      getOutHelpWidth: () => HELP_WIDTH,
      getErrHelpWidth: () => HELP_WIDTH,
      getOutHasColors: () => false,
      getErrHasColors: () => false,
    })
    // Help is laid out in the person's language: commander's own titles and its --help line too.
    const lang = io.lang ?? DEFAULT_LANG
    this.configureHelp({
      styleTitle: (title) => (TITLES.includes(title) ? tKey(`cli.title.${title}` as MessageKey, lang) : title),
      // Commander's implicit `help [command]` row carries its own English description.
      // Commander adds "(default: …)" in English; the same note in the person's language.
      optionDescription: (option) => withDefault(option.description, option.defaultValue, option.defaultValueDescription, lang),
      argumentDescription: (argument) => withDefault(argument.description, argument.defaultValue, argument.defaultValueDescription, lang),
      subcommandDescription: (command) =>
        command.name() === 'help' && command.description() === COMMANDER_HELP ? tKey('cli.helpOption', lang) : command.summary() || command.description(),
    })
    this.helpOption('-h, --help', tKey('cli.helpOption', lang))
    this.allowExcessArguments()
    // Each command reads only its own options, the rest goes untouched (`--` included) to its sub-command.
    this.enablePositionalOptions()
  }

  override createCommand(name?: string): CyreneCommand {
    return new CyreneCommand(name ?? '', this.io)
  }

  /** The action: gets this command's options and arguments, returns the exit code. */
  act<O extends OptionValues>(run: (options: O, args: string[], command: CyreneCommand) => Promise<number>): this {
    return this.action(async () => {
      try {
        this.status = await run(this.opts<O>(), this.args, this)
      } catch (error) {
        throw this.refusedAsJson(this.explained(error))
      }
    })
  }

  /**
   * With `--json`, a refusal of this command is also one JSON object on stdout, `{ok: false, error, …fields}`
   * in English, beside its message and exit code: a script reads stdout and would otherwise find nothing.
   * `fields` are the command's own report with nothing done, so a script reads the shape it knows.
   */
  jsonRefusals(fields: Readonly<Record<string, unknown>> = {}): this {
    this.refusalFields = fields
    return this
  }

  private refusedAsJson(error: unknown): unknown {
    if (error instanceof CliError && this.refusalFields !== undefined && this.asksJson())
      this.io.stdout(`${JSON.stringify({ ok: false, error: error.english, ...this.refusalFields }, null, 2)}\n`)
    return error
  }

  /** `--json` given: parsed, or among the words still being parsed when the refusal is of how they were written. */
  private asksJson(): boolean {
    if (this.opts().json === true) return true
    const end = this.words.indexOf('--')
    return (end < 0 ? this.words : this.words.slice(0, end)).includes('--json')
  }

  /** How the actions of this command and of those below it turn their own errors into refusals (a family's habit). */
  explainErrors(explain: (error: unknown) => unknown): this {
    this.explain = explain
    return this
  }

  private explained(error: unknown): unknown {
    let e = error
    for (let c: Command | null = this; c !== null; c = c.parent) if (c instanceof CyreneCommand && c.explain !== undefined) e = c.explain(e)
    return e
  }

  /**
   * Options of a family of actions that all took the same set: the ones in `uses` are shown in help;
   * the others this action ignores, but it still accepts them as it always did (scripts pass them).
   */
  sharedOptions<K extends string>(table: Readonly<Record<K, readonly [flags: string, help: string]>>, uses: readonly K[]): this {
    const unused: string[] = []
    for (const [key, [flags, help]] of Object.entries(table) as Array<[K, readonly [string, string]]>) {
      if (uses.includes(key)) this.addOption(new Option(flags, help))
      else {
        const option = new Option(flags).hideHelp()
        unused.push(option.long ?? flags)
        this.addOption(option)
      }
    }
    // Help names every flag the parser takes: the ones this action ignores on one line of their own.
    if (unused.length > 0) this.addHelpText('after', `\n${t('cli.sharedUnused', this.io.lang ?? DEFAULT_LANG, { flags: unused.join(' ') })}`)
    return this
  }

  /** `cyrene memory write`: this command's words, for messages. */
  path(): string {
    const names: string[] = []
    for (let c: Command | null = this; c !== null; c = c.parent) names.unshift(c.name())
    return names.join(' ')
  }

  override parseOptions(argv: string[]): { operands: string[]; unknown: string[] } {
    this.words = argv
    if (this.commands.length === 0) this.refuseWhatParseArgsRefused(argv)
    return super.parseOptions(argv)
  }

  private refuseWhatParseArgsRefused(argv: string[]): void {
    const end = argv.indexOf('--')
    const words = end < 0 ? argv : argv.slice(0, end)
    // Asking for help wins over everything else, so `--reason --help` never writes an entry.
    if (words.some((w) => w === '-h' || w === '--help')) this.help()
    for (let i = 0; i < words.length; i++) {
      const word = words[i]!
      const option = this.options.find((o) => o.long === word || o.short === word)
      if (option?.required) {
        const value = argv[i + 1]
        if (value !== undefined && value.length > 1 && value.startsWith('-')) this.refuse((lang) => t('cli.error.ambiguous', lang, { option: word, value }))
        i++
      } else if (NEGATIVE_NUMBER.test(word)) {
        this.refuse((lang) => t('cli.error.unknownOption', lang, { option: word, hint: '' }))
      }
    }
  }

  /** Commander's own check would refuse with its words; each action says what to give instead. */
  missingArgument(): void {}

  override help(context?: HelpContext): never
  override help(cb: (text: string) => string): never
  override help(context?: HelpContext | ((text: string) => string)): never {
    const asked = typeof context !== 'object' || !context.error
    if (!asked && this.refusalFields !== undefined && this.asksJson()) {
      // Help nobody asked for (no sub-command named) is a refusal: given --json it is one JSON object, not the help.
      const names = this.commands.map((c) => c.name()).filter((n) => n !== 'help')
      const said = (lang: Lang): string => t('cli.error.noSubCommand', lang, { names: names.join(', '), path: this.path() })
      throw this.refusedAsJson(new CliError(said(this.lang), EXIT.refused, said('en')))
    }
    this.outputHelp({ error: !asked })
    // Help that was not asked for (a sub-command is missing) is a refusal: exit 2, as before.
    throw new CommanderError(asked ? EXIT.ok : EXIT.refused, 'commander.help', '(outputHelp)')
  }

  private get lang(): Lang {
    return this.io.lang ?? DEFAULT_LANG
  }

  /** A refusal of how the command was written: what was wrong, the usage and where the options are, in the person's language. */
  private refuse(said: (lang: Lang) => string): never {
    const frame = (lang: Lang): string => t('cli.error.frame', lang, { said: said(lang), path: this.path(), usage: this.usage() })
    throw this.refusedAsJson(new CliError(frame(this.lang), EXIT.refused, frame('en')))
  }

  override error(message: string, options?: ErrorOptions): never {
    // Commander's words are English: the cases a person meets are said again from the catalogue, its suggestion kept.
    const [head = '', ...more] = message.replace(/^error: /, '').split('\n')
    const suggestion = /\(Did you mean (.+?)\?\)/.exec(message)?.[1]
    const hint = (lang: Lang): string => (suggestion === undefined ? '' : t('cli.error.hint', lang, { suggestion }))
    const quoted = /'([^']+)'/.exec(head)?.[1] ?? ''
    if (options?.code === 'commander.unknownCommand') {
      const said = (lang: Lang): string =>
        t('cli.error.unknownCommand', lang, {
          what: t(this.parent === null ? 'cli.error.command' : 'cli.error.subCommand', lang),
          name: this.args[0] ?? '',
          hint: hint(lang),
          path: this.path(),
        })
      // A group that marks itself (jsonRefusals) answers an unknown sub-command given --json as JSON too.
      throw this.refusedAsJson(new CliError(said(this.lang), EXIT.refused, said('en')))
    }
    if (options?.code === 'commander.unknownOption') this.refuse((lang) => t('cli.error.unknownOption', lang, { option: quoted, hint: hint(lang) }))
    if (options?.code === 'commander.optionMissingArgument') this.refuse((lang) => t('cli.error.missingValue', lang, { option: quoted }))
    // Anything else keeps commander's words, capitalised as node's parseArgs said them.
    const said = [head, ...more.map((m) => m.trim())].filter((w) => w !== '').join(' ')
    this.refuse(() => `${said.charAt(0).toUpperCase()}${said.slice(1)}`)
  }
}

function withDefault(description: string, value: unknown, shown: string | undefined, lang: Lang): string {
  if (value === undefined) return description
  const note = t('cli.default', lang, { value: shown ?? JSON.stringify(value) })
  return `${description}${note}`.trim()
}

/** Parses `argv` with `root` and runs the action it names; refusals throw `CliError`, help returns 0 (2 when not asked for). */
export async function runCommand(root: CyreneCommand, argv: string[]): Promise<number> {
  let ran: CyreneCommand | undefined
  root.hook('preAction', (_, action) => {
    ran = action as CyreneCommand
  })
  try {
    await root.parseAsync(argv, { from: 'user' })
  } catch (error) {
    if (error instanceof CommanderError && (error.code === 'commander.help' || error.code === 'commander.helpDisplayed')) return error.exitCode
    if (error instanceof CommanderError) throw new CliError(error.message.replace(/^error: /, ''), EXIT.refused)
    throw error
  }
  return ran?.status ?? EXIT.ok
}

/** Collects a repeatable option (`--link a --link b`) in the order given. */
export function repeated(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value]
}
