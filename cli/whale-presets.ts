import { importCard } from '../whale/card-import.ts'
import { exists, locationsFor, MAX_JSON_BYTES, readBytesBounded, resolveIn, writeTextAtomic, type FsContext } from '../whale/files.ts'
import { isRecord, toJsonText, type JsonRecord } from '../whale/json.ts'
import { MAX_PNG_BYTES } from '../whale/png.ts'
import { applyPresetById, deletePreset, listPresets, loadPreset, PresetError, saveImportedPreset, saveLivePersona } from '../whale/preset-files.ts'
import { AUTOSAVE_ID, exportPersona, isPresetId, presetFile } from '../whale/presets.ts'
import { toTavern } from '../whale/tavern.ts'
import { cyrenePreset, isCyreneExportId } from './whale-cyrene.ts'
import { CliError, type CliIO } from './io.ts'
import type { CyreneCommand } from './command.ts'
import { writeJson } from './terminal.ts'
import { help } from './help-text.ts'
import type { MessageKey } from '../i18n/index.ts'

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

function guarded<T>(action: () => T): T {
  try {
    return action()
  } catch (error) {
    if (error instanceof PresetError) throw new CliError(error.message)
    throw error
  }
}

async function guardedAsync<T>(action: () => Promise<T>): Promise<T> {
  try {
    return await action()
  } catch (error) {
    if (error instanceof PresetError) throw new CliError(error.message)
    throw error
  }
}

function one(args: string[], what: string, command: CyreneCommand): string {
  const value = args[0]
  if (value === undefined) throw new CliError(`give ${what}. Usage: ${command.path()} ${command.usage()}`)
  return value
}

export function addPresets(whale: CyreneCommand): void {
  const io = whale.io
  const ctx: FsContext = { env: io.env, cwd: io.cwd }
  const presets = whale.command('presets').description(help(io, 'cli.whale.presets'))
  const table = options(io)
  const action = (name: string, about: MessageKey, uses: OptionKey[], run: Run): CyreneCommand =>
    presets.command(name).description(help(io, about)).sharedOptions(table, uses).act<PresetOptions>(run)

  action('list', 'cli.whale.presets.list', ['json', 'config'], async (values) => {
    const where = locationsFor(ctx, values.config)
    const list = listPresets(ctx, where)
    if (values.json === true) writeJson(io, list)
    else if (!list.length) io.stdout(`No presets in ${where.presetsDir}.\n`)
    else
      io.stdout(
        list
          .map((p) => (p.valid ? `${p.id.padEnd(24)} ${p.label}${p.description ? ` — ${p.description}` : ''}` : `${p.id.padEnd(24)} (not a valid preset)`))
          .join('\n') + '\n',
      )
    return 0
  })
  action('show', 'cli.whale.presets.show', ['json', 'config'], async (values, rest, command) => {
    const loaded = guarded(() => loadPreset(ctx, locationsFor(ctx, values.config), one(rest, 'a preset id', command)))
    if (values.json === true) writeJson(io, loaded.preset)
    else {
      io.stdout(toJsonText(loaded.preset))
      if (loaded.ignored.length) io.stdout(`# ignored when applied: ${loaded.ignored.join(', ')}\n`)
    }
    return 0
  }).argument('<id>')
  action('apply', 'cli.whale.presets.apply', ['json', 'config'], async (values, rest, command) => {
    const id = one(rest, 'a preset id', command)
    const outcome = await guardedAsync(() => applyPresetById(ctx, id, values.config))
    if (values.json === true) writeJson(io, outcome)
    else if (outcome.ok) {
      io.stdout(
        !outcome.changed && !outcome.configExists
          ? `Preset "${id}" sets nothing (no persona field of its own), and there is no ${outcome.configFile}; nothing was written.\n`
          : !outcome.changed
            ? `Preset "${id}" is already what ${outcome.configFile} holds; nothing changed.\n`
            : `Applied "${id}" to ${outcome.configFile}.${outcome.autosaveWritten ? ` The previous persona is saved as "${AUTOSAVE_ID}" (cyrene whale presets apply ${AUTOSAVE_ID} to go back).` : ''}\n`,
      )
    }
    if (!outcome.ok) {
      if (values.json !== true) throw new CliError(outcome.error ?? 'apply refused')
      return 2
    }
    return 0
  }).argument('<id>')
  action('save', 'cli.whale.presets.save', ['force', 'config'], async (values, rest, command) => {
    const id = one(rest, 'an id for the new preset', command)
    const file = await guardedAsync(() =>
      saveLivePersona(ctx, id, rest.slice(1).join(' '), { overwrite: values.force === true, ...(values.config ? { configOverride: values.config } : {}) }),
    )
    io.stdout(`Saved the current persona as "${id}" in ${file}.\n`)
    return 0
  })
    .argument('<id>')
    .argument('[label...]')
  action('delete', 'cli.whale.presets.delete', [], async (_, rest, command) => {
    const file = guarded(() => deletePreset(ctx, one(rest, 'a preset id', command)))
    io.stdout(`Deleted ${file}.\n`)
    return 0
  }).argument('<id>')
  action('dir', 'cli.whale.presets.dir', ['config'], async (values) => {
    io.stdout(locationsFor(ctx, values.config).presetsDir + '\n')
    return 0
  })
  action(
    'import',
    'cli.whale.presets.import',
    ['json', 'dryRun', 'force', 'id'],
    async (values, rest, command) =>
      await importAction(ctx, io, one(rest, 'the card file to import', command), {
        json: values.json === true,
        dryRun: values.dryRun === true,
        force: values.force === true,
        ...(values.id !== undefined ? { id: values.id } : {}),
      }),
  ).argument('<file>')
  action('export', 'cli.whale.presets.export', ['tavern', 'force', 'config'], async (values, rest, command) => {
    const id = one(rest, 'a preset id', command)
    const preset = isCyreneExportId(id)
      ? cyrenePreset(id)
      : (() => {
          const loaded = guarded(() => loadPreset(ctx, locationsFor(ctx, values.config), id))
          const persona = exportPersona(loaded.raw, loaded.preset)
          return { ...loaded.preset, persona, ...(isRecord(loaded.raw.extensions) ? { extensions: loaded.raw.extensions } : {}) }
        })()
    const content = toJsonText(values.tavern === true ? toTavern(preset) : presetFile(preset))
    const out = rest[1]
    if (out === undefined) {
      io.stdout(content)
      return 0
    }
    const target = resolveIn(ctx, out)
    if (exists(target) && values.force !== true) throw new CliError(`${out} already exists; pass --force to replace it`)
    await writeTextAtomic(target, content)
    io.stdout(`Exported "${id}" as ${values.tavern === true ? 'a SillyTavern v2 card' : 'a whale-persona preset'} to ${out}.\n`)
    return 0
  })
    .argument('<id>')
    .argument('[OUT]')
}

interface ImportOptions {
  json: boolean
  dryRun: boolean
  force: boolean
  id?: string
}

async function importAction(ctx: FsContext, io: CliIO, file: string, options: ImportOptions): Promise<number> {
  const refuse = (detected: string, error: string): number => {
    if (!options.json) throw new CliError(error)
    writeJson(io, { ok: false, detected, error, savedId: null, savedFile: null })
    return 2
  }
  const read = readBytesBounded(resolveIn(ctx, file), Math.max(MAX_JSON_BYTES, MAX_PNG_BYTES))
  if (!read.ok) return refuse('unknown', `cannot read ${file}: ${read.reason}`)
  const isPng = read.bytes.subarray(0, 4).toString('latin1') === '\x89PNG'
  if (!isPng && read.bytes.length > MAX_JSON_BYTES) return refuse('unknown', `${file} is larger than ${MAX_JSON_BYTES} bytes; a JSON card is never that big`)
  const result = importCard(read.bytes, file)
  if (!result.ok) return refuse(result.detected, result.error)
  const preset = result.preset
  if (options.id !== undefined) {
    if (!isPresetId(options.id)) return refuse(result.detected, `"${options.id}" is not a valid preset id: use 1–64 letters, digits, "-" or "_"`)
    preset.id = options.id
  }
  if (preset.id === AUTOSAVE_ID && options.id === undefined) return refuse(result.detected, '"autosave" is reserved; import with --id NEW_ID')
  let savedFile: string | null = null
  let unchanged = false
  if (!options.dryRun) {
    const where = locationsFor(ctx)
    try {
      ;({ file: savedFile, unchanged } = await saveImportedPreset(ctx, where, preset, { overwrite: options.force }))
    } catch (error) {
      if (error instanceof PresetError) return refuse(result.detected, error.message)
      throw error
    }
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
    io.stdout(
      unchanged
        ? `Preset "${preset.id}" already holds what this ${result.detected} card carries; left as it was (${savedFile}).\n`
        : `${savedFile === null ? 'Would import' : 'Imported'} a ${result.detected} card as "${preset.id}"${savedFile === null ? ' (dry run: nothing written)' : ` → ${savedFile}`}.\n`,
    )
    io.stdout(`  taken: ${result.mapped.join(', ') || '(nothing)'}\n  not taken: ${result.unmapped.join(', ') || '(nothing)'}\n`)
    for (const note of result.notes) io.stdout(`  note: ${note}\n`)
  }
  return 0
}
