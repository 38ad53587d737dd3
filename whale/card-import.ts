import path from 'node:path'
import { isRecord, parseJson, type JsonRecord } from './json.ts'
import { cardJsonFromPng, looksLikePng, PngCardError } from './png.ts'
import { isPresetId, readPreset, validPersonaValue, type PersonaKey, type Preset } from './presets.ts'
import { detectCard, fromTavern, slugId, type CardKind, type ImportedPreset } from './tavern.ts'

/**
 * Turns the bytes of a file a person wants to import into a preset and a
 * report, or a refusal that says why. Pure: no disk access.
 */
export type CardImport =
  | {
      ok: true
      detected: Exclude<CardKind, 'unknown'>
      preset: ImportedPreset | (Preset & { extensions?: JsonRecord })
      mapped: string[]
      unmapped: string[]
      notes: string[]
    }
  | { ok: false; detected: CardKind; error: string }

const refuse = (error: string, detected: CardKind = 'unknown'): CardImport => ({ ok: false, detected, error })

export function importCard(bytes: Buffer, fileName: string): CardImport {
  let text: string
  if (looksLikePng(bytes)) {
    try {
      text = cardJsonFromPng(bytes)
    } catch (error) {
      if (error instanceof PngCardError) return refuse(`cannot read the PNG card: ${error.message}`)
      throw error
    }
  } else {
    if (bytes.includes(0)) return refuse('the file is binary, not a JSON card; export the card as JSON (or as a PNG card) and try again')
    text = bytes.toString('utf8').replace(/^\uFEFF/, '')
  }
  const parsed = parseJson(text)
  if (!parsed.ok) return refuse(`the card is not valid JSON (${parsed.error})`)
  const raw = parsed.value
  const detected = detectCard(raw)
  if (detected === 'unknown' || !isRecord(raw)) {
    return refuse('not a card this engine knows: neither a SillyTavern character card (v1/v2/v3) nor a whale-persona preset')
  }
  if (detected === 'whale-preset') return importWhalePreset(raw, fileName)
  const report = fromTavern(raw, detected)
  // Nothing taken at all (no text field, no whale_persona extension): an empty preset would only mislead.
  if (report.mapped.length === 0) {
    const inner = detected === 'tavern-v2' && isRecord(raw.data) ? raw.data : raw
    const at = inner === raw ? '' : 'data.'
    const holds = Object.entries(inner)
      .filter(
        ([k, v]) =>
          !['spec', 'spec_version'].includes(k) &&
          v !== null &&
          v !== '' &&
          !(Array.isArray(v) && v.length === 0) &&
          !(isRecord(v) && Object.keys(v).length === 0),
      )
      .map(([k]) => at + k)
    return refuse(
      `the card has nothing this engine takes (no description, personality, scenario, system_prompt or post_history_instructions with text); it holds ${holds.join(', ') || 'nothing'} — nothing was saved`,
      detected,
    )
  }
  return { ok: true, detected, ...report }
}

function importWhalePreset(raw: JsonRecord, fileName: string): CardImport {
  const label = typeof raw.label === 'string' ? raw.label : ''
  const id = typeof raw.id === 'string' && isPresetId(raw.id) ? raw.id : slugId(label || path.basename(fileName).replace(/\.[^.]*$/, ''))
  const read = readPreset(raw, id)
  if (read === null) return refuse('not a whale-persona preset')
  const preset: Preset & { extensions?: JsonRecord } = read.preset
  if (isRecord(raw.extensions)) preset.extensions = raw.extensions
  // A value of the wrong type is not taken (apply skips it): named once, under not taken.
  const mapped = Object.entries(read.preset.persona)
    .filter(([k, v]) => v !== null && validPersonaValue(k as PersonaKey, v))
    .map(([k]) => 'persona.' + k)
  if (read.preset.thinkingLanguage !== undefined) mapped.push('thinkingLanguage')
  const notes = read.ignored.length ? [`Ignored (outside the preset whitelist of spec §4.2): ${read.ignored.join(', ')}`] : []
  notes.push('An import never switches the persona on: check it with `cyrene whale presets show <id>` and apply it yourself.')
  return { ok: true, detected: 'whale-preset', preset, mapped, unmapped: read.ignored, notes }
}
