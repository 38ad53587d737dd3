import { confirmEntries, InboxInputError, loadInbox, parseIndices, removeEntries, type InboxState, type RefuseTarget } from '../whale/inbox-actions.ts'
import { opLine, viewOf } from '../whale/inbox.ts'
import { recordConfirms, vouchedState } from './whale-record.ts'
import { RefusedError } from '../memory/format.ts'
import { LockBusyError } from '../durable/lock.ts'
import { resolveIn, readBounded, MAX_LOG_BYTES, withFileLock } from '../whale/files.ts'
import { saidRefusal, type CliIO } from './io.ts'
import type { CyreneCommand } from './command.ts'
import { visibleControls, writeJson } from './terminal.ts'
import { help } from './help-text.ts'
import { DEFAULT_LANG, t, type Lang, type MessageKey } from '../i18n/index.ts'
import { whaleErrorText } from '../i18n/whale-said.ts'
import { refusalText } from './refusal-text.ts'
import { storePlaceHolding, storeRootFor } from './store-places.ts'
import { sayWaiting, waitOutGuardWindows } from './guard-wait.ts'

/** Who confirmed, as recorded in sink lines and the sink log. */
const DEFAULT_SOURCE = 'cyrene'

function load(io: CliIO, config: string | undefined): InboxState {
  try {
    return vouchedState(loadInbox({ env: io.env, cwd: io.cwd }, config), io.env)
  } catch (error) {
    if (error instanceof InboxInputError) throw saidRefusal((lang) => whaleErrorText(error, lang), io.lang ?? DEFAULT_LANG)
    throw error
  }
}

/** whale/'s refusal of the input (a bad index …), worded from its said (decision 085); the command says nothing was written. */
function guarded<T>(action: () => T, lang: Lang): T {
  try {
    return action()
  } catch (error) {
    if (error instanceof InboxInputError) throw saidRefusal((l) => t('whale.out.inbox.nothingWritten', l, { error: whaleErrorText(error, l) }), lang)
    throw error
  }
}

/**
 * The memory store (and its snapshots, its index) is written only through its own commands, under its
 * lock, gate and audit: an inbox, a sink or a sink log the whale config places there would bypass all three.
 */
function inStore(io: CliIO, lang: Lang = io.lang ?? DEFAULT_LANG): RefuseTarget {
  const root = storeRootFor(io.env, io.cwd)
  return (file) => {
    const place = root === undefined ? undefined : storePlaceHolding(file, root)
    return place === undefined ? null : t('whale.out.inbox.inStore', lang, { file, place })
  }
}

/** The inbox's lock held by another process past its wait is a refusal (exit 2), never a bug. */
async function locked<T>(file: string, io: CliIO, action: () => T | Promise<T>): Promise<T> {
  if (inStore(io)(file) !== null)
    throw saidRefusal((lang) => t('whale.out.inbox.nothingWritten', lang, { error: inStore(io, lang)(file) ?? '' }), io.lang ?? DEFAULT_LANG)
  try {
    await waitOutGuardWindows(io)
    return await withFileLock(file, action)
  } catch (error) {
    if (error instanceof LockBusyError && error.path === `${file}.lock`) throw saidRefusal((lang) => refusalText(error, { lang }), io.lang ?? DEFAULT_LANG)
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
  const L = io.lang ?? DEFAULT_LANG
  const inbox = whale.command('inbox').description(help(io, 'cli.whale.inbox')).jsonRefusals()
  const table = options(io)
  const action = (name: string, about: MessageKey, uses: OptionKey[], run: Run): CyreneCommand =>
    inbox.command(name).description(help(io, about)).sharedOptions(table, uses).act<InboxOptions>(run)

  action('list', 'cli.whale.inbox.list', ['json', 'config'], async (values) => {
    const state = load(io, values.config)
    const view = viewOf(state.entries)
    if (values.json === true) writeJson(io, view)
    else if (!view.length) io.stdout(`${t('whale.out.inbox.empty', L, { file: state.inboxFile })}\n`)
    else
      io.stdout(
        view
          .map((e, i) =>
            // The model proposes these lines: a control character in them is shown, never obeyed by the terminal.
            visibleControls(
              `[${i}] ${e.status.padEnd(9)} ${e.kind === 'memory' ? '' : `(${e.kind || t('whale.out.inbox.invalidKind', L)}) `}${e.text}${e.tag ? `  #${e.tag}` : ''}`,
            ),
          )
          .join('\n') + '\n',
      )
    return 0
  }).jsonRefusals()
  action('confirm', 'cli.whale.inbox.confirm', ['json', 'config', 'source'], async (values, rest) => {
    // the view is read again under the lock so indices refer to what is appended to
    return locked(resolveIn(ctx, load(io, values.config).inboxFile), io, async () => {
      const state = load(io, values.config)
      const indices = guarded(() => parseIndices(rest, state.entries.length), L)
      const source = values.source?.replace(/[\r\n]+/g, ' ').trim() || DEFAULT_SOURCE
      const now = new Date()
      // The person's record first (the host injects only what it backs), with the very lines confirmEntries appends.
      const planned = indices.filter((i) => state.entries[i]!.status !== 'confirmed').map((i) => opLine('confirm', state.entries[i]!.text, now.toISOString()))
      await recordConfirms(io.env, state.rawText, planned, sayWaiting(io)).catch((e: unknown) => {
        // A refusal of the store (a broken record, a busy lock) is exit 2, worded in the person's language (decision 086); a system error stays one.
        if (e instanceof RefusedError || e instanceof LockBusyError)
          throw saidRefusal((lang) => t('whale.out.inbox.notConfirmed', lang, { error: refusalText(e, { lang }) }), L)
        throw e
      })
      const result = guarded(() => confirmEntries(ctx, state, indices, source, now, inStore(io)), L)
      const r = result.report
      if (values.json === true) writeJson(io, r)
      else {
        const lines = [r.confirmed === 1 ? t('whale.out.inbox.confirmedOne', L) : t('whale.out.inbox.confirmed', L, { n: r.confirmed })]
        for (const s of r.sunk) lines.push(t('whale.out.inbox.sunk', L, { index: s.index, kind: s.kind, path: s.path }))
        for (const s of r.skipped) lines.push(t('whale.out.inbox.skipped', L, { index: s.index, kind: s.kind, path: s.path }))
        for (const s of r.noRoute) lines.push(t('whale.out.inbox.noRoute', L, { index: s.index, kind: s.kind }))
        // What the system said when a sink could not be written is its own words.
        for (const s of r.errors) lines.push(t('whale.out.inbox.error', L, { index: s.index, kind: s.kind, error: s.error }))
        io.stdout(`${lines.join('\n')}\n`)
      }
      return r.errors.length ? 1 : 0
    })
  })
    .argument('<index...>')
    // a refusal is the report of a confirm that confirmed nothing, with ok: false and why
    .jsonRefusals({ confirmed: 0, sunk: [], skipped: [], noRoute: [], errors: [] })
  for (const verb of ['reject', 'drop'] as const) {
    action(verb, `cli.whale.inbox.${verb}`, ['json', 'config'], async (values, rest) => {
      return locked(resolveIn(ctx, load(io, values.config).inboxFile), io, () => {
        const state = load(io, values.config)
        const indices = guarded(() => parseIndices(rest, state.entries.length), L)
        const lines = guarded(() => removeEntries(ctx, state, verb, indices, new Date()), L)
        if (values.json === true) writeJson(io, { op: verb, appended: lines.length, lines: lines.map((l) => JSON.parse(l) as unknown) })
        else
          io.stdout(
            `${
              verb === 'drop'
                ? lines.length === 1
                  ? t('whale.out.inbox.droppedOne', L, { file: state.inboxFile })
                  : t('whale.out.inbox.dropped', L, { n: lines.length, file: state.inboxFile })
                : lines.length === 1
                  ? t('whale.out.inbox.rejectedOne', L, { file: state.inboxFile })
                  : t('whale.out.inbox.rejected', L, { n: lines.length, file: state.inboxFile })
            }\n`,
          )
        return 0
      })
    })
      .argument('<index...>')
      .jsonRefusals({ op: verb, appended: 0, lines: [] })
  }
  action('log', 'cli.whale.inbox.log', ['json', 'config'], async (values) => {
    const state = load(io, values.config)
    const read = readBounded(resolveIn(ctx, state.inboxFile), MAX_LOG_BYTES)
    if (read.kind !== 'text') {
      if (values.json === true) writeJson(io, { inboxFile: state.inboxFile, exists: false, lines: [] })
      else io.stdout(`${t('whale.out.inbox.noFile', L, { file: state.inboxFile })}\n`)
      return 0
    }
    // the raw lines, numbered: the audit view of spec §5.5 (with --json as written, line n at n - 1)
    const raw = read.text.split(/\r?\n/)
    if (raw.at(-1) === '') raw.pop()
    if (values.json === true) {
      writeJson(io, { inboxFile: state.inboxFile, exists: true, lines: raw })
      return 0
    }
    io.stdout(`# ${state.inboxFile}\n` + raw.map((l, i) => `${String(i + 1).padStart(5)}  ${visibleControls(l)}`).join('\n') + (raw.length ? '\n' : ''))
    return 0
  }).jsonRefusals({ lines: [] })
}
