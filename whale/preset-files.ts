import { readdirSync, rmSync } from 'node:fs'
import path from 'node:path'
import { exists, locationsFor, withFileLock, MAX_JSON_BYTES, readBounded, resolveIn, writeTextAtomic, type FsContext } from './files.ts'
import { parseJson, parseJsonExact, toJsonText, type JsonRecord } from './json.ts'
import {
  applyPreset,
  ApplyRefused,
  AUTOSAVE_ID,
  isPresetId,
  presetFile,
  readPreset,
  sameCardContent,
  snapshotPreset,
  type Preset,
  type ReadPreset,
} from './presets.ts'
import type { WhaleLocations } from './paths.ts'
import { WhaleError, type WhaleSaid } from './said.ts'

/** The presets folder and the config write-back (spec §2.6, §4). Every refusal leaves the disk as it was. */
export class PresetError extends WhaleError {}

function presetPath(where: WhaleLocations, id: string): string {
  if (!isPresetId(id)) throw new PresetError(`"${id}" is not a valid preset id: use 1–64 letters, digits, "-" or "_"`, 'preset.bad-id', { id })
  return path.join(where.presetsDir, id + '.json')
}

export interface LoadedPreset extends ReadPreset {
  file: string
  raw: JsonRecord
}

export function loadPreset(ctx: FsContext, where: WhaleLocations, id: string): LoadedPreset {
  const file = presetPath(where, id)
  const read = readBounded(resolveIn(ctx, file), MAX_JSON_BYTES)
  if (read.kind === 'missing')
    throw new PresetError(`no preset "${id}" in ${where.presetsDir}; see \`cyrene whale presets list\``, 'preset.missing', {
      id,
      dir: where.presetsDir,
    })
  if (read.kind === 'unreadable') throw new PresetError(`cannot read ${file}: ${read.reason}`, 'preset.unreadable', { file, reason: read.reason })
  const parsed = parseJson(read.text)
  if (!parsed.ok) throw new PresetError(`${file} is not valid JSON (${parsed.error}); fix or delete it`, 'preset.json', { file, error: parsed.error })
  const result = readWithin(() => readPreset(parsed.value, id), file)
  if (result === null)
    throw new PresetError(
      `${file} is not a whale-persona preset (it needs a "persona" object, or the early top-level "character"/"contracts")`,
      'preset.not-preset',
      { file },
    )
  return { ...result, file, raw: parsed.value as JsonRecord }
}

/** Copying a value nested thousands deep overflows the stack: such a file is refused like a broken one. */
function readWithin<T>(read: () => T, file: string): T {
  try {
    return read()
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    throw new PresetError(`${file} holds a value nested too deeply to read; make it shallower or delete it`, 'preset.too-deep', { file })
  }
}

export interface PresetListing {
  id: string
  label: string
  description: string
  valid: boolean
}

export function listPresets(ctx: FsContext, where: WhaleLocations): PresetListing[] {
  let names: string[]
  try {
    names = readdirSync(resolveIn(ctx, where.presetsDir))
  } catch {
    return []
  }
  return names
    .filter((n) => n.endsWith('.json') && isPresetId(n.slice(0, -5)))
    .sort()
    .map((n) => {
      const id = n.slice(0, -5)
      try {
        const { preset } = loadPreset(ctx, where, id)
        return { id, label: preset.label, description: preset.description, valid: true }
      } catch {
        return { id, label: '', description: '', valid: false }
      }
    })
}

export interface ApplyOutcome {
  ok: boolean
  id: string
  changed: boolean
  autosaveWritten: boolean
  configFile: string
  /** False when there is no config file (an apply that changes nothing then creates none). */
  configExists: boolean
  error?: string
  /** `error` as a said, for the person's language; not in `--json`. */
  errorSaid?: WhaleSaid
}

/** Reads the live config text: missing means `{}`; invalid JSON refuses so the file is never overwritten. */
function liveConfig(ctx: FsContext, where: WhaleLocations): unknown {
  const read = readBounded(resolveIn(ctx, where.configFile), MAX_JSON_BYTES)
  if (read.kind === 'missing') return {}
  if (read.kind === 'unreadable')
    throw new ApplyRefused(`cannot read ${where.configFile}: ${read.reason}; nothing was changed`, 'apply.unreadable', {
      file: where.configFile,
      reason: read.reason,
    })
  // exact numbers: keys this engine does not know are written back as they were (§2.6)
  const parsed = parseJsonExact(read.text)
  if (!parsed.ok)
    throw new ApplyRefused(`${where.configFile} is not valid JSON (${parsed.error}); fix it first — it was not overwritten`, 'apply.json', {
      file: where.configFile,
      error: parsed.error,
    })
  return parsed.value
}

export async function applyPresetById(ctx: FsContext, id: string, configOverride?: string): Promise<ApplyOutcome> {
  const where = locationsFor(ctx, configOverride)
  const { preset } = loadPreset(ctx, where, id)
  return withFileLock(resolveIn(ctx, where.configFile), () => applyLocked(ctx, where, id, preset))
}

async function applyLocked(ctx: FsContext, where: WhaleLocations, id: string, preset: Preset): Promise<ApplyOutcome> {
  try {
    const configExists = exists(resolveIn(ctx, where.configFile))
    const live = liveConfig(ctx, where)
    const result = withinDepth(() => applyPreset(live, preset), where.configFile)
    if (!result.changed) return { ok: true, id, changed: false, autosaveWritten: false, configFile: where.configFile, configExists }
    const configText = withinDepth(() => toJsonText(result.config), where.configFile)
    const autosaveText = result.autosave === null ? null : withinDepth(() => toJsonText(result.autosave), where.configFile)
    // autosave first: if writing the config then fails, the previous persona is still safe
    if (autosaveText !== null) await writeTextAtomic(resolveIn(ctx, presetPath(where, AUTOSAVE_ID)), autosaveText)
    await writeTextAtomic(resolveIn(ctx, where.configFile), configText)
    return { ok: true, id, changed: true, autosaveWritten: result.autosave !== null, configFile: where.configFile, configExists: true }
  } catch (error) {
    if (error instanceof ApplyRefused)
      return {
        ok: false,
        id,
        changed: false,
        autosaveWritten: false,
        configFile: where.configFile,
        configExists: exists(resolveIn(ctx, where.configFile)),
        error: error.message,
        errorSaid: error.said,
      }
    throw error
  }
}

/** Copying or writing the config, before anything is written: a value nested too deeply for the stack refuses the apply, not half of it. */
function withinDepth<T>(make: () => T, file: string): T {
  try {
    return make()
  } catch (error) {
    if (!(error instanceof RangeError)) throw error
    throw new ApplyRefused(tooDeep(file), 'apply.too-deep', { file })
  }
}

const tooDeep = (file: string): string => `${file} holds a value nested too deeply to write back; make it shallower first (nothing was changed)`

export interface SaveOptions {
  overwrite: boolean
}

async function writePreset(
  ctx: FsContext,
  where: WhaleLocations,
  preset: Omit<Preset, 'spec'> & { extensions?: JsonRecord },
  options: SaveOptions,
): Promise<string> {
  const file = presetPath(where, preset.id)
  if (!options.overwrite && exists(resolveIn(ctx, file))) {
    const message = `a preset "${preset.id}" already exists; pass --force to replace it${preset.id === AUTOSAVE_ID ? '' : ' or choose another id'}`
    throw new PresetError(message, preset.id === AUTOSAVE_ID ? 'preset.exists-autosave' : 'preset.exists', { id: preset.id })
  }
  await writeTextAtomic(resolveIn(ctx, file), toJsonText(presetFile(preset)))
  return file
}

export interface ImportWrite {
  file: string
  /** The id the preset was saved under (or already held under). */
  id: string
  /** The preset already held this content: nothing was written. */
  unchanged: boolean
}

export interface ImportSaveOptions extends SaveOptions {
  /**
   * The id is the card's own (no `--id`): when a different preset holds it, the
   * card goes to the first free `<id>-2`, `<id>-3`, … as the reference
   * implementation's import does, never over the other preset.
   */
  chooseFreeId?: boolean
}

/** Enough tries for any real folder; past it the import is refused rather than searching on. */
const MAX_ID_TRIES = 999

/** The ids an imported card may take, in order: its own (unless reserved), then `<id>-2`, `<id>-3`, … within 64 characters. */
function candidateIds(id: string): string[] {
  const out = id === AUTOSAVE_ID ? [] : [id]
  for (let n = 2; out.length < MAX_ID_TRIES; n++) {
    const suffix = '-' + n
    out.push(id.slice(0, 64 - suffix.length) + suffix)
  }
  return out
}

/** Whether the preset file `id` holds exactly this card's content; a file that cannot be read as a preset does not. */
function holdsSameContent(ctx: FsContext, where: WhaleLocations, id: string, preset: Omit<Preset, 'spec'> & { extensions?: JsonRecord }): boolean {
  let existing: LoadedPreset | null = null
  try {
    existing = loadPreset(ctx, where, id)
  } catch (error) {
    if (!(error instanceof PresetError)) throw error
  }
  return existing !== null && sameCardContent({ ...existing.preset, extensions: existing.raw.extensions }, preset)
}

/**
 * Where an imported card goes, read only: a preset of the same id with the same content (a card
 * exported from this home and imported back, spec §4.6) is left exactly as it is (`unchanged`).
 * Different content is never replaced without `overwrite`: with `chooseFreeId` the card takes the
 * next free id (`<id>-2`, …; one of those holding this very content counts as the same preset),
 * without it (an id the person chose) the import is refused. An existing file that cannot be read as
 * a preset counts as different. A dry run reports this; `saveImportedPreset` writes it.
 */
export function placeImportedPreset(
  ctx: FsContext,
  where: WhaleLocations,
  preset: Omit<Preset, 'spec'> & { extensions?: JsonRecord },
  options: ImportSaveOptions,
): { id: string; file: string; unchanged: boolean } {
  if (options.chooseFreeId === true && !(options.overwrite && preset.id !== AUTOSAVE_ID)) {
    for (const id of candidateIds(preset.id)) {
      const file = presetPath(where, id)
      if (!exists(resolveIn(ctx, file))) return { id, file, unchanged: false }
      if (holdsSameContent(ctx, where, id, preset)) return { id, file, unchanged: true }
    }
    throw new PresetError(
      `"${preset.id}" and the ids after it up to "${preset.id}-${MAX_ID_TRIES}" are all taken; import with --id NEW_ID`,
      'preset.no-free-id',
      { id: preset.id },
    )
  }
  const file = presetPath(where, preset.id)
  if (!options.overwrite && exists(resolveIn(ctx, file))) {
    if (holdsSameContent(ctx, where, preset.id, preset)) return { id: preset.id, file, unchanged: true }
    throw new PresetError(
      `a preset "${preset.id}" already exists with different content; pass --force to replace it, or give another --id (without --id the card takes the next free id)`,
      'preset.exists-different',
      { id: preset.id },
    )
  }
  return { id: preset.id, file, unchanged: false }
}

/** Saves an imported card where `placeImportedPreset` puts it (the card's id becomes the one it took). */
export async function saveImportedPreset(
  ctx: FsContext,
  where: WhaleLocations,
  preset: Omit<Preset, 'spec'> & { extensions?: JsonRecord },
  options: ImportSaveOptions,
): Promise<ImportWrite> {
  // A free id is written only while it is still free; an id the person chose is replaced only with `overwrite`.
  const tookFreeId = options.chooseFreeId === true && !(options.overwrite && preset.id !== AUTOSAVE_ID)
  const place = placeImportedPreset(ctx, where, preset, options)
  preset.id = place.id
  if (place.unchanged) return place
  return { file: await writePreset(ctx, where, preset, { overwrite: tookFreeId ? false : options.overwrite }), id: place.id, unchanged: false }
}

export async function saveLivePersona(ctx: FsContext, id: string, label: string, options: SaveOptions & { configOverride?: string }): Promise<string> {
  if (id === AUTOSAVE_ID) throw new PresetError('"autosave" is reserved for the persona saved before an apply; choose another id', 'preset.reserved')
  const where = locationsFor(ctx, options.configOverride)
  let config: unknown
  try {
    config = liveConfig(ctx, where)
  } catch (error) {
    if (error instanceof WhaleError) throw new PresetError(error.message, error.said.code, error.said.params)
    throw error
  }
  try {
    return await writePreset(ctx, where, snapshotPreset(config, id, label), options)
  } catch (error) {
    // the snapshot and its text are made before the write: nothing was written
    if (!(error instanceof RangeError)) throw error
    throw new PresetError(tooDeep(where.configFile), 'apply.too-deep', { file: where.configFile })
  }
}

export function deletePreset(ctx: FsContext, id: string): string {
  const where = locationsFor(ctx)
  const file = presetPath(where, id)
  if (!exists(resolveIn(ctx, file))) throw new PresetError(`no preset "${id}" in ${where.presetsDir}`, 'preset.missing-delete', { id, dir: where.presetsDir })
  rmSync(resolveIn(ctx, file))
  return file
}
