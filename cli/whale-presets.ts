import { importCard } from '../whale/card-import.ts'
import { exists, locationsFor, MAX_JSON_BYTES, readBytesBounded, resolveIn, writeTextAtomic, type FsContext } from '../whale/files.ts'
import { isRecord, toJsonText, type JsonRecord } from '../whale/json.ts'
import { MAX_PNG_BYTES } from '../whale/png.ts'
import { isCharx, MAX_CHARX_BYTES, MAX_CHARX_CARD_BYTES } from '../whale/charx.ts'
import {
  applyPresetById,
  deletePreset,
  listPresets,
  loadPreset,
  placeImportedPreset,
  PresetError,
  saveImportedPreset,
  saveLivePersona,
} from '../whale/preset-files.ts'
import { AUTOSAVE_ID, exportPersona, isPresetId, presetFile } from '../whale/presets.ts'
import { toTavern } from '../whale/tavern.ts'
import { cyrenePreset, isCyreneExportId } from './whale-cyrene.ts'
import { CliError, saidRefusal, type CliIO } from './io.ts'
import { storePlaceHolding, storeRootFor } from './store-places.ts'
import type { CyreneCommand } from './command.ts'
import { visibleControls, writeJson } from './terminal.ts'
import { help } from './help-text.ts'
import { waitOutGuardWindows } from './guard-wait.ts'
import { DEFAULT_LANG, t, type Lang, type MessageKey } from '../i18n/index.ts'
import { whaleErrorText, whaleSaidOr } from '../i18n/whale-said.ts'

/** The options of `cyrene whale presets`; each action shows those it uses and, as always, accepts the others. */
const options = (io: CliIO) =>
  ({
    json: ['--json', help(io, 'cli.whale.opt.json')],
    tavern: ['--tavern', help(io, 'cli.whale.presets.tavern')],
    force: ['--force', help(io, 'cli.whale.presets.force')],
    dryRun: ['--dry-run', help(io, 'cli.whale.presets.dryRun')],
    id: ['--id <ID>', help(io, 'cli.whale.presets.id')],
    config: ['--config <FILE>', help(io, 'cli.whale.opt.config')],
  }) as const
type OptionKey = keyof ReturnType<typeof options>

type PresetOptions = { json?: true; tavern?: true; force?: true; dryRun?: true; id?: string; config?: string }
type Run = (o: PresetOptions, args: string[], command: CyreneCommand) => Promise<number>

/** whale/'s refusal, worded from its said in the person's language (decision 085). */
function refused(error: unknown, lang: Lang): unknown {
  return error instanceof PresetError ? saidRefusal((l) => whaleErrorText(error, l), lang) : error
}

function guarded<T>(action: () => T, lang: Lang): T {
  try {
    return action()
  } catch (error) {
    throw refused(error, lang)
  }
}

async function guardedAsync<T>(action: () => Promise<T>, lang: Lang): Promise<T> {
  try {
    return await action()
  } catch (error) {
    throw refused(error, lang)
  }
}

type What = 'whale.out.what.presetId' | 'whale.out.what.newId' | 'whale.out.what.cardFile'

function one(args: string[], what: What, command: CyreneCommand): string {
  const value = args[0]
  const lang = command.io.lang ?? DEFAULT_LANG
  if (value === undefined) throw saidRefusal((l) => t('whale.out.give', l, { what: t(what, l), usage: `${command.path()} ${command.usage()}` }), lang)
  return value
}

export function addPresets(whale: CyreneCommand): void {
  const io = whale.io
  const ctx: FsContext = { env: io.env, cwd: io.cwd }
  const L = io.lang ?? DEFAULT_LANG
  const presets = whale.command('presets').description(help(io, 'cli.whale.presets')).jsonRefusals()
  const table = options(io)
  const action = (name: string, about: MessageKey, uses: OptionKey[], run: Run): CyreneCommand =>
    presets.command(name).description(help(io, about)).sharedOptions(table, uses).act<PresetOptions>(run)
  // What writes the whale-persona files waits for a model tool call running in DSH first (decision 295).
  const writing =
    (run: Run): Run =>
    async (o, args, command) => {
      if (o.dryRun !== true) await waitOutGuardWindows(io)
      return await run(o, args, command)
    }

  action('list', 'cli.whale.presets.list', ['json', 'config'], async (values) => {
    const where = locationsFor(ctx, values.config)
    const list = listPresets(ctx, where)
    if (values.json === true) writeJson(io, list)
    else if (!list.length) io.stdout(`${t('whale.out.presets.none', L, { dir: where.presetsDir })}\n`)
    else
      io.stdout(
        list
          .map((p) =>
            // A card's label comes from a stranger: its control characters are shown, not obeyed.
            p.valid
              ? visibleControls(`${p.id.padEnd(24)} ${p.label}${p.description ? ` — ${p.description}` : ''}`)
              : `${p.id.padEnd(24)} ${t('whale.out.presets.invalid', L)}`,
          )
          .join('\n') + '\n',
      )
    return 0
  }).jsonRefusals()
  action('show', 'cli.whale.presets.show', ['json', 'config'], async (values, rest, command) => {
    const loaded = guarded(() => loadPreset(ctx, locationsFor(ctx, values.config), one(rest, 'whale.out.what.presetId', command)), L)
    if (values.json === true) writeJson(io, loaded.preset)
    else {
      io.stdout(toJsonText(loaded.preset))
      if (loaded.ignored.length) io.stdout(`${t('whale.out.presets.ignored', L, { fields: loaded.ignored.join(', ') })}\n`)
    }
    return 0
  })
    .argument('<id>')
    .jsonRefusals()
  action(
    'apply',
    'cli.whale.presets.apply',
    ['json', 'config'],
    writing(async (values, rest, command) => {
      const id = one(rest, 'whale.out.what.presetId', command)
      let applied: Awaited<ReturnType<typeof applyPresetById>>
      try {
        applied = await applyPresetById(ctx, id, values.config)
      } catch (error) {
        if (!(error instanceof PresetError) || values.json !== true) throw refused(error, L)
        // --json: a preset that cannot be read (no such id, not a preset, a bad id) is an outcome too, as a refused config is,
        // so a script (the conformance runner) reads ok:false on stdout, never nothing (decision 307)
        const where = locationsFor(ctx, values.config)
        const configExists = exists(resolveIn(ctx, where.configFile))
        writeJson(io, { ok: false, id, changed: false, autosaveWritten: false, configFile: where.configFile, configExists, error: error.message })
        return 2
      }
      const { errorSaid, ...outcome } = applied
      if (values.json === true) writeJson(io, outcome)
      else if (outcome.ok) {
        const file = outcome.configFile
        io.stdout(
          `${
            !outcome.changed && !outcome.configExists
              ? t('whale.out.presets.setsNothing', L, { id, file })
              : !outcome.changed
                ? t('whale.out.presets.already', L, { id, file })
                : t('whale.out.presets.applied', L, {
                    id,
                    file,
                    autosave: outcome.autosaveWritten ? t('whale.out.presets.autosaved', L, { autosave: AUTOSAVE_ID }) : '',
                  })
          }\n`,
        )
      }
      if (!outcome.ok) {
        // Why whale/ refused (preset-files.ts), worded from its said.
        if (values.json !== true)
          throw new CliError(outcome.error === undefined ? t('whale.out.presets.applyRefused', L) : whaleSaidOr(errorSaid, outcome.error, L))
        return 2
      }
      return 0
    }),
  )
    .argument('<id>')
    .jsonRefusals({ changed: false, autosaveWritten: false })
  action(
    'save',
    'cli.whale.presets.save',
    ['json', 'force', 'config'],
    writing(async (values, rest, command) => {
      const id = one(rest, 'whale.out.what.newId', command)
      const file = await guardedAsync(
        () =>
          saveLivePersona(ctx, id, rest.slice(1).join(' '), { overwrite: values.force === true, ...(values.config ? { configOverride: values.config } : {}) }),
        L,
      )
      // Named as import names the preset it saved.
      if (values.json === true) writeJson(io, { ok: true, savedId: id, savedFile: file })
      else io.stdout(`${t('whale.out.presets.saved', L, { id, file })}\n`)
      return 0
    }),
  )
    .argument('<id>')
    .argument('[label...]')
    .jsonRefusals({ savedId: null, savedFile: null })
  action(
    'delete',
    'cli.whale.presets.delete',
    ['json'],
    writing(async (values, rest, command) => {
      const id = one(rest, 'whale.out.what.presetId', command)
      const file = guarded(() => deletePreset(ctx, id), L)
      if (values.json === true) writeJson(io, { ok: true, deletedId: id, deletedFile: file })
      else io.stdout(`${t('whale.out.presets.deleted', L, { file })}\n`)
      return 0
    }),
  )
    .argument('<id>')
    .jsonRefusals({ deletedId: null, deletedFile: null })
  action('dir', 'cli.whale.presets.dir', ['json', 'config'], async (values) => {
    const presetsDir = locationsFor(ctx, values.config).presetsDir
    if (values.json === true) writeJson(io, { ok: true, presetsDir })
    else io.stdout(presetsDir + '\n')
    return 0
  }).jsonRefusals()
  action(
    'import',
    'cli.whale.presets.import',
    ['json', 'dryRun', 'force', 'id'],
    writing(
      async (values, rest, command) =>
        await importAction(ctx, io, one(rest, 'whale.out.what.cardFile', command), {
          json: values.json === true,
          dryRun: values.dryRun === true,
          force: values.force === true,
          ...(values.id !== undefined ? { id: values.id } : {}),
        }),
    ),
  )
    .argument('<file>')
    .jsonRefusals({ detected: 'unknown', savedId: null, savedFile: null })
  action('export', 'cli.whale.presets.export', ['json', 'tavern', 'force', 'config'], async (values, rest, command) => {
    const id = one(rest, 'whale.out.what.presetId', command)
    const preset = isCyreneExportId(id)
      ? cyrenePreset(id)
      : (() => {
          const loaded = guarded(() => loadPreset(ctx, locationsFor(ctx, values.config), id), L)
          const persona = exportPersona(loaded.raw, loaded.preset)
          return { ...loaded.preset, persona, ...(isRecord(loaded.raw.extensions) ? { extensions: loaded.raw.extensions } : {}) }
        })()
    const content = toJsonText(values.tavern === true ? toTavern(preset) : presetFile(preset))
    const out = rest[1]
    // Without OUT the card itself is the output, with --json too: it is one JSON object already (as show --json prints the preset).
    if (out === undefined) {
      io.stdout(content)
      return 0
    }
    const target = resolveIn(ctx, out)
    // Never over a memory, with or without --force (as memory export): the store, its snapshots, its index.
    const root = storeRootFor(io.env, io.cwd)
    const inside = root === undefined ? undefined : storePlaceHolding(target, root)
    // Worded in the person's language, its English kept for --json (decision 320).
    if (inside !== undefined) throw saidRefusal((l) => t('store.export.inside', l, { file: out, where: inside }), L)
    if (exists(target) && values.force !== true) throw saidRefusal((l) => t('whale.out.presets.exists', l, { out }), L)
    await writeTextAtomic(target, content)
    if (values.json === true) writeJson(io, { ok: true, id, format: values.tavern === true ? 'tavern' : 'whale-persona', savedFile: target })
    else io.stdout(`${t(values.tavern === true ? 'whale.out.presets.exportedTavern' : 'whale.out.presets.exportedWhale', L, { id, out })}\n`)
    return 0
  })
    .argument('<id>')
    .argument('[OUT]')
    .jsonRefusals({ savedFile: null })
}

interface ImportOptions {
  json: boolean
  dryRun: boolean
  force: boolean
  id?: string
}

async function importAction(ctx: FsContext, io: CliIO, file: string, options: ImportOptions): Promise<number> {
  const L = io.lang ?? DEFAULT_LANG
  // A refusal in the person's language; --json keeps the English a script reads (whale/'s own, by its said: decision 085).
  const refuse = (detected: string, said: (lang: Lang) => string): number => {
    if (!options.json) throw new CliError(said(L))
    writeJson(io, { ok: false, detected, error: said('en'), savedId: null, savedFile: null })
    return 2
  }
  const read = readBytesBounded(resolveIn(ctx, file), Math.max(MAX_JSON_BYTES, MAX_PNG_BYTES, MAX_CHARX_BYTES))
  if (!read.ok) return refuse('unknown', (lang) => t('whale.out.import.cannotRead', lang, { file, reason: read.reason }))
  const isPng = read.bytes.subarray(0, 4).toString('latin1') === '\x89PNG'
  // A JSON card as large as the same card.json may be in a CharX (and a PNG's card text): a big lorebook inside is common.
  if (!isPng && !isCharx(read.bytes, file) && read.bytes.length > MAX_CHARX_CARD_BYTES)
    return refuse('unknown', (lang) => t('whale.out.import.tooBig', lang, { file, max: MAX_CHARX_CARD_BYTES }))
  const result = importCard(read.bytes, file)
  if (!result.ok) {
    const { said, error } = result
    return refuse(result.detected, (lang) => whaleSaidOr(said, error, lang))
  }
  const preset = result.preset
  if (options.id !== undefined) {
    const id = options.id
    if (!isPresetId(id)) return refuse(result.detected, (lang) => t('whale.out.import.badId', lang, { id }))
    preset.id = options.id
  }
  // spec §4.5: autosave is the persona an apply saved; no card takes its place (--id autosave is refused, a card named so goes to autosave-2)
  if (options.id === AUTOSAVE_ID) return refuse(result.detected, (lang) => t('whale.out.import.reserved', lang))
  let savedFile: string | null = null
  let unchanged = false
  const cardId = preset.id
  const where = locationsFor(ctx)
  // the card's own id when free, else the next free <id>-2, … (as the reference imports); an id given with --id is kept or refused
  const placing = { overwrite: options.force, chooseFreeId: options.id === undefined }
  try {
    // A dry run names the id the import would take (never autosave) or its refusal, writing nothing.
    if (options.dryRun) preset.id = placeImportedPreset(ctx, where, preset, placing).id
    else ({ file: savedFile, unchanged } = await saveImportedPreset(ctx, where, preset, placing))
  } catch (error) {
    if (error instanceof PresetError) return refuse(result.detected, (lang) => whaleErrorText(error, lang))
    throw error
  }
  const report: JsonRecord = {
    ok: true,
    detected: result.detected,
    savedId: savedFile === null ? null : preset.id,
    savedFile,
    unchanged,
    mapped: result.mapped,
    unmapped: result.unmapped,
    notes: result.notes,
    preset: preset as unknown as JsonRecord,
  }
  if (options.json) writeJson(io, report)
  else {
    // The whale-persona spec reads v2 and v3 cards as one family ("tavern-v2" in --json): a person is told both.
    const said = { id: preset.id, detected: result.detected === 'tavern-v2' ? 'tavern-v2/v3' : result.detected }
    io.stdout(
      `${
        unchanged
          ? t('whale.out.import.unchanged', L, { ...said, file: savedFile ?? '' })
          : savedFile === null
            ? t('whale.out.import.wouldImport', L, said)
            : t('whale.out.import.imported', L, { ...said, file: savedFile })
      }\n`,
    )
    // The card's own id belonged to another preset: said, so the person knows which file is the card.
    if (savedFile !== null && preset.id !== cardId) io.stdout(`${t('whale.out.import.idTaken', L, { taken: cardId, id: preset.id })}\n`)
    // The card's field names are the card's; the notes are whale/card-import.ts's, worded from their saids.
    const nothing = t('whale.out.import.nothing', L)
    // A stranger's card names its own fields and values: its control characters are shown, not obeyed (decision 134).
    io.stdout(
      `${visibleControls(t('whale.out.import.fields', L, { taken: result.mapped.join(', ') || nothing, left: result.unmapped.join(', ') || nothing }))}\n`,
    )
    result.notes.forEach((note, i) => {
      io.stdout(`${visibleControls(t('whale.out.import.note', L, { note: whaleSaidOr(result.notesSaid[i], note, L) }))}\n`)
    })
  }
  return 0
}
