import { CliError, saidRefusal, type CliIO } from './io.ts'
import { CyreneCommand } from './command.ts'
import { addRender } from './whale-render.ts'
import { addPresets } from './whale-presets.ts'
import { addInbox } from './whale-inbox.ts'
import { addConformance } from './whale-conformance.ts'
import { addReflex } from './whale-reflex.ts'
import { help } from './help-text.ts'
import { describeBug, describeSystemFailure, EXIT } from './failures.ts'
import { DEFAULT_LANG, t, type Lang } from '../i18n/index.ts'

/** `cyrene whale …`: whale-persona v1 files on the command line. */
export function whaleFamily(io: CliIO): CyreneCommand {
  const whale = new CyreneCommand('whale', io)
    .description(help(io, 'cli.whale'))
    .addHelpText('after', help(io, 'cli.whale.files'))
    .explainErrors((error) => fileRefusal(error, io.lang ?? DEFAULT_LANG, io.env.CYRENE_DEBUG === '1'))
    // An unknown sub-command given --json is answered as JSON too (decision 329).
    .jsonRefusals()
  addRender(whale)
  addPresets(whale)
  addInbox(whale)
  addConformance(whale)
  addReflex(whale)
  return whale
}

/**
 * A file the system will not let us read or write is a refusal to explain, not a crash. Anything else
 * that is not a refusal is a bug (exit 70), said as main.ts says one, so that with --json it is JSON too.
 */
function fileRefusal(error: unknown, lang: Lang, debug: boolean): unknown {
  // A full disk, a permission, a read-only file system: the system refused (exit 3), said as for every command.
  const system = (l: Lang) => describeSystemFailure(error, { command: 'whale', argv: [], lang: l })
  const said = system(lang)
  if (said !== undefined) return new CliError(said.message, said.exit, system('en')?.message)
  const code = (error as NodeJS.ErrnoException | null)?.code
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code))
    // The system's own words (EACCES: …, the path) are a parameter, as it said them.
    return saidRefusal((l) => t('whale.out.fileRefusal', l, { error: (error as Error).message }), lang, 1)
  if (error instanceof CliError) return error
  return new CliError(describeBug(error, debug, lang), EXIT.bug, describeBug(error, false, 'en'))
}
