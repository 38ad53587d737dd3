import { confirmEntries, InboxInputError, loadInbox, parseIndices, removeEntries, type InboxState } from '../whale/inbox-actions.ts'
import { opLine, viewOf } from '../whale/inbox.ts'
import { recordConfirms, vouchedState } from './whale-record.ts'
import { RefusedError } from '../memory/validate.ts'
import { LockBusyError } from '../durable/lock.ts'
import { resolveIn, readBounded, MAX_LOG_BYTES, withFileLock } from '../whale/files.ts'
import { CliError, type CliIO } from './io.ts'
import type { CyreneCommand } from './command.ts'
import { writeJson } from './terminal.ts'
import { help } from './help-text.ts'
import type { MessageKey } from '../i18n/index.ts'

/** Who confirmed, as recorded in sink lines and the sink log. */
const DEFAULT_SOURCE = 'cyrene'

function load(io: CliIO, config: string | undefined): InboxState {
  try {
    return vouchedState(loadInbox({ env: io.env, cwd: io.cwd }, config), io.env)
  } catch (error) {
    if (error instanceof InboxInputError) throw new CliError(error.message)
    throw error
  }
}

function guarded<T>(action: () => T): T {
  try {
    return action()
  } catch (error) {
    if (error instanceof InboxInputError) throw new CliError(error.message + '. Nothing was written.')
    throw error
  }
}

/** The options of `cyrene whale inbox`; each action shows those it uses and, as always, accepts the others. */
const options = (io: CliIO) =>
  ({
    json: ['--json', help(io, 'cli.whale.opt.json')],
    config: ['--config <FILE>', help(io, 'cli.whale.opt.config')],
    source: ['--source <NAME>', help(io, 'cli.whale.inbox.source', { source: DEFAULT_SOURCE })],
  }) as const
type OptionKey = keyof ReturnType<typeof options>

type InboxOptions = { json?: true; config?: string; source?: string }
type Run = (o: InboxOptions, args: string[]) => Promise<number>

export function addInbox(whale: CyreneCommand): void {
  const io = whale.io
  const ctx = { env: io.env, cwd: io.cwd }
  const inbox = whale.command('inbox').description(help(io, 'cli.whale.inbox'))
  const table = options(io)
  const action = (name: string, about: MessageKey, uses: OptionKey[], run: Run): CyreneCommand =>
    inbox.command(name).description(help(io, about)).sharedOptions(table, uses).act<InboxOptions>(run)

  action('list', 'cli.whale.inbox.list', ['json', 'config'], async (values) => {
    const state = load(io, values.config)
    const view = viewOf(state.entries)
    if (values.json === true) writeJson(io, view)
    else if (!view.length) io.stdout(`The inbox is empty (${state.inboxFile}).\n`)
    else
      io.stdout(
        view
          .map((e, i) => `[${i}] ${e.status.padEnd(9)} ${e.kind === 'memory' ? '' : `(${e.kind || 'invalid kind'}) `}${e.text}${e.tag ? `  #${e.tag}` : ''}`)
          .join('\n') + '\n',
      )
    return 0
  })
  action('confirm', 'cli.whale.inbox.confirm', ['json', 'config', 'source'], async (values, rest) => {
    // the view is read again under the lock so indices refer to what is appended to
    return withFileLock(resolveIn(ctx, load(io, values.config).inboxFile), async () => {
      const state = load(io, values.config)
      const indices = guarded(() => parseIndices(rest, state.entries.length))
      const source = values.source?.replace(/[\r\n]+/g, ' ').trim() || DEFAULT_SOURCE
      const now = new Date()
      // The person's record first (the host injects only what it backs), with the very lines confirmEntries appends.
      const planned = indices.filter((i) => state.entries[i]!.status !== 'confirmed').map((i) => opLine('confirm', state.entries[i]!.text, now.toISOString()))
      await recordConfirms(io.env, state.rawText, planned).catch((e: unknown) => {
        // A refusal of the store (a broken record, a busy lock) is exit 2 with its own words; a system error stays one.
        if (e instanceof RefusedError || e instanceof LockBusyError) throw new CliError(`${e.message} Nothing was confirmed.`, 2)
        throw e
      })
      const result = guarded(() => confirmEntries(ctx, state, indices, source, now))
      const r = result.report
      if (values.json === true) writeJson(io, r)
      else {
        io.stdout(`Confirmed ${r.confirmed} entr${r.confirmed === 1 ? 'y' : 'ies'}.\n`)
        for (const s of r.sunk) io.stdout(`  [${s.index}] ${s.kind} → appended to ${s.path}\n`)
        for (const s of r.skipped)
          io.stdout(
            `  [${s.index}] ${s.kind} was already written to ${s.path} (the sink log has it): not written again, kept in the inbox (drop it with \`cyrene whale inbox drop\`)\n`,
          )
        for (const s of r.noRoute) io.stdout(`  [${s.index}] kind "${s.kind}" has no route in memory.sinks: kept in the inbox, not written anywhere\n`)
        for (const s of r.errors) io.stdout(`  [${s.index}] ${s.kind}: not written (${s.error}); kept in the inbox\n`)
      }
      return r.errors.length ? 1 : 0
    })
  }).argument('<index...>')
  for (const verb of ['reject', 'drop'] as const) {
    action(verb, `cli.whale.inbox.${verb}`, ['json', 'config'], async (values, rest) => {
      return withFileLock(resolveIn(ctx, load(io, values.config).inboxFile), () => {
        const state = load(io, values.config)
        const indices = guarded(() => parseIndices(rest, state.entries.length))
        const lines = guarded(() => removeEntries(ctx, state, verb, indices, new Date()))
        if (values.json === true) writeJson(io, { op: verb, appended: lines.length, lines: lines.map((l) => JSON.parse(l) as unknown) })
        else
          io.stdout(
            `${verb === 'drop' ? 'Dropped' : 'Rejected'} ${lines.length} entr${lines.length === 1 ? 'y' : 'ies'} (one line each appended to ${state.inboxFile}).\n`,
          )
        return 0
      })
    }).argument('<index...>')
  }
  action('log', 'cli.whale.inbox.log', ['config'], async (values) => {
    const state = load(io, values.config)
    const read = readBounded(resolveIn(ctx, state.inboxFile), MAX_LOG_BYTES)
    if (read.kind !== 'text') {
      io.stdout(`No inbox file at ${state.inboxFile}.\n`)
      return 0
    }
    // the raw lines, numbered: the audit view of spec §5.5
    const raw = read.text.split(/\r?\n/)
    if (raw.at(-1) === '') raw.pop()
    io.stdout(`# ${state.inboxFile}\n` + raw.map((l, i) => `${String(i + 1).padStart(5)}  ${l}`).join('\n') + (raw.length ? '\n' : ''))
    return 0
  })
}
