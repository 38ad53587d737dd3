import path from 'node:path'
import { isRecord, jsonFileText, parseJson, type JsonRecord } from './json.ts'
import { looksLikePng, PngCardError, pngCard } from './png.ts'
import { cardJsonFromCharx, CharxError, isCharx } from './charx.ts'
import { isPresetId, readPreset, validPersonaValue, type PersonaKey, type Preset } from './presets.ts'
import { detectCard, fromTavern, neverSwitches, slugId, type CardKind, type ImportedPreset } from './tavern.ts'
import { WhaleNotes, type WhaleSaid } from './said.ts'
import { isYamlName, YAML_FIELD_NAMES, yamlCharacter } from './yaml-card.ts'
import { ByafError, byafCard, isByaf } from './byaf.ts'

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
      notesSaid: WhaleSaid[]
    }
  | { ok: false; detected: CardKind; error: string; said: WhaleSaid }

const refuse = (error: string, said: WhaleSaid, detected: CardKind = 'unknown'): CardImport => ({ ok: false, detected, error, said })

export function importCard(bytes: Buffer, fileName: string): CardImport {
  let text: string
  let otherCard: string | undefined
  if (looksLikePng(bytes)) {
    try {
      ;({ text, chara: otherCard } = pngCard(bytes))
    } catch (error) {
      if (error instanceof PngCardError) return refuse(`cannot read the PNG card: ${error.message}`, { code: 'card.png', params: { why: error.said } })
      throw error
    }
  } else {
    // A Backyard AI archive (a zip with manifest.json): the V2 card SillyTavern builds from it (decision 330).
    if (isByaf(bytes, fileName)) return importByaf(bytes)
    let json = bytes
    // A CharX card (a zip): its card.json, read like a JSON card file.
    if (isCharx(bytes, fileName))
      try {
        json = cardJsonFromCharx(bytes)
      } catch (error) {
        if (error instanceof CharxError) return refuse(`cannot read the CharX card: ${error.message}`, { code: 'card.charx', params: { why: error.said } })
        throw error
      }
    const decoded = jsonFileText(json)
    if (decoded === undefined)
      return refuse('the file is binary, not a JSON card; export the card as JSON (or as a PNG card) and try again', { code: 'card.binary' })
    text = decoded
  }
  const parsed = parseJson(text)
  // A .yaml/.yml file that is not JSON: a text-generation-webui character, as SillyTavern imports one (decision 323).
  if (!parsed.ok && otherCard === undefined && !looksLikePng(bytes) && isYamlName(fileName)) return importYaml(text)
  if (!parsed.ok) return refuse(`the card is not valid JSON (${parsed.error})`, { code: 'card.json', params: { error: parsed.error } })
  try {
    return importParsed(parsed.value, fileName, otherCard)
  } catch (error) {
    // copying a value nested thousands deep overflows the stack: a refusal, not a crash
    if (!(error instanceof RangeError)) throw error
    return refuse('the card holds a value nested too deeply to read; nothing was saved', { code: 'card.too-deep' })
  }
}

function importParsed(raw: unknown, fileName: string, otherCard: string | undefined): CardImport {
  const detected = detectCard(raw)
  // Pygmalion's (Gradio's) older character file: SillyTavern converts it on import; here it is named with the way through there.
  if (detected === 'unknown' && isRecord(raw) && typeof raw.char_name === 'string')
    return refuse(
      'this is a Pygmalion (Gradio) character file (char_name, char_persona), which SillyTavern converts on import; import it there, export the character as a V2 card and import that — nothing was saved',
      { code: 'card.pygmalion' },
    )
  // A lorebook (SillyTavern World Info, NovelAI, Agnai, RisuAI) brought here by mistake: said where it goes.
  if (
    detected === 'unknown' &&
    isRecord(raw) &&
    (isRecord(raw.entries) || Array.isArray(raw.entries) || raw.lorebookVersion !== undefined || raw.kind === 'memory' || raw.type === 'risu')
  )
    return refuse(
      'this is a lorebook (World Info), not a character card; import it into the worldbook with `cyrene worldbook import <file>` — nothing was saved',
      { code: 'card.lorebook' },
    )
  if (detected === 'unknown' || !isRecord(raw)) {
    return refuse('not a card this engine knows: neither a SillyTavern character card (v1/v2/v3) nor a whale-persona preset', { code: 'card.unknown' })
  }
  if (detected === 'whale-preset') return importWhalePreset(raw, fileName)
  const report = fromTavern(raw, detected)
  // Nothing of the persona taken (no text field, no whale_persona extension; tags alone are no persona): an empty preset would only mislead.
  if (report.mapped.every((field) => field === 'tags')) {
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
    const fields = holds.join(', ')
    return refuse(
      `the card has nothing this engine takes (no description, personality, scenario, system_prompt or post_history_instructions with text); it holds ${fields || 'nothing'} — nothing was saved`,
      fields === '' ? { code: 'card.nothing-taken.empty' } : { code: 'card.nothing-taken', params: { fields } },
      detected,
    )
  }
  const differ = otherCard === undefined ? undefined : differentCard(raw, otherCard)
  if (differ !== undefined) {
    // Said before the last note (the import never switches the persona on), which stays last.
    const at = report.notes.length - 1
    report.notes.splice(
      at,
      0,
      `The PNG carries two cards: its ccv3 chunk (${differ.taken}) was read, as SillyTavern reads it; its chara chunk (${differ.other}) was not.`,
    )
    report.notesSaid.splice(at, 0, { code: 'note.png-chunks-differ', params: differ })
  }
  return { ok: true, detected, ...report }
}

/** A YAML character read into the v1 card SillyTavern makes of it; the report names the file's own fields. */
function importYaml(text: string): CardImport {
  const read = yamlCharacter(text)
  if (!read.ok) return refuse(read.error, read.said)
  const result = importParsed(read.card, 'character.yaml', undefined)
  if (!result.ok) return result
  const own = (field: string): string => YAML_FIELD_NAMES[field] ?? field
  const rename = (line: string): string => line.replace(/\b(?:data\.first_mes|description)\b/g, (field) => own(field))
  const notes = new WhaleNotes()
  notes.add(
    'Read as SillyTavern imports a text-generation-webui YAML character: context as the description, greeting as the first message; nothing else.',
    'note.yaml-read',
  )
  if (read.left.length > 0)
    notes.add(`Not taken, as SillyTavern's import leaves them too: ${read.left.join(', ')}`, 'note.yaml-left', { fields: read.left.join(', ') })
  return {
    ...result,
    mapped: result.mapped.map(own),
    unmapped: [...result.unmapped.map(own), ...read.left],
    notes: [...notes.en, ...result.notes.map(rename)],
    notesSaid: [
      ...notes.said,
      ...result.notesSaid.map((said) =>
        said.params === undefined
          ? said
          : { ...said, params: Object.fromEntries(Object.entries(said.params).map(([k, v]) => [k, typeof v === 'string' ? rename(v) : v])) },
      ),
    ],
  }
}

/** A Backyard AI archive read into the V2 card SillyTavern makes of it, said so, with what it left. */
function importByaf(bytes: Buffer): CardImport {
  let read: ReturnType<typeof byafCard>
  try {
    read = byafCard(bytes)
  } catch (error) {
    if (error instanceof ByafError) return refuse(`cannot read the Backyard AI archive: ${error.message}`, { code: 'card.byaf', params: { why: error.said } })
    throw error
  }
  const result = importParsed(read.card, 'character.byaf', undefined)
  if (!result.ok) return result
  const notes = new WhaleNotes()
  notes.add(
    "Read as SillyTavern imports a Backyard AI archive: the character's persona as the description; the first scenario's narrative, first message, example messages and formatting instructions as scenario, first message, examples and system prompt; the other scenarios' first messages as alternate greetings; lore items as the card's book.",
    'note.byaf-read',
  )
  if (read.otherCharacters > 0)
    notes.add(`The archive holds ${read.otherCharacters + 1} characters; only the first was read, as SillyTavern reads only it.`, 'note.byaf-characters', {
      n: read.otherCharacters + 1,
    })
  if (read.skipped.length > 0)
    notes.add(`Scenario files not read (missing or not JSON), as SillyTavern skips them: ${read.skipped.join(', ')}`, 'note.byaf-skipped', {
      files: read.skipped.join(', '),
    })
  return { ...result, notes: [...notes.en, ...result.notes], notesSaid: [...notes.said, ...result.notesSaid] }
}

/** The two names when a PNG's `chara` card is another character than the `ccv3` card read (a stale chunk an editor left). */
function differentCard(read: JsonRecord, otherText: string): { taken: string; other: string } | undefined {
  const other = parseJson(otherText)
  const nameOf = (card: unknown): string => {
    if (!isRecord(card)) return ''
    const inner = isRecord(card.data) ? card.data : card
    return typeof inner.name === 'string' ? inner.name.trim() : ''
  }
  const taken = nameOf(read)
  const otherName = other.ok ? nameOf(other.value) : ''
  return otherName !== '' && otherName !== taken ? { taken: taken || '?', other: otherName } : undefined
}

function importWhalePreset(raw: JsonRecord, fileName: string): CardImport {
  const label = typeof raw.label === 'string' ? raw.label : ''
  const id = typeof raw.id === 'string' && isPresetId(raw.id) ? raw.id : slugId(label || path.basename(fileName).replace(/\.[^.]*$/, ''))
  const read = readPreset(raw, id)
  if (read === null) return refuse('not a whale-persona preset', { code: 'card.not-preset' })
  const preset: Preset & { extensions?: JsonRecord } = read.preset
  if (isRecord(raw.extensions)) preset.extensions = raw.extensions
  // A value of the wrong type is not taken (apply skips it): named once, under not taken.
  const mapped = Object.entries(read.preset.persona)
    .filter(([k, v]) => v !== null && validPersonaValue(k as PersonaKey, v))
    .map(([k]) => 'persona.' + k)
  if (read.preset.thinkingLanguage !== undefined) mapped.push('thinkingLanguage')
  // A `persona` object with nothing a preset holds: another program's character (Agnai's has `persona: {kind, attributes}`), not an empty preset to save.
  if (mapped.length === 0) {
    const fields = Object.keys(raw)
      .filter((k) => raw[k] !== null && raw[k] !== '')
      .join(', ')
    return refuse(
      `the file has a "persona" object but nothing a whale-persona preset holds (it holds ${fields}); if it is another program's character (Agnai, RisuAI), export it from there as a SillyTavern character card (V2) and import that — nothing was saved`,
      { code: 'card.preset-empty', params: { fields } },
      'whale-preset',
    )
  }
  const notes = new WhaleNotes()
  if (read.ignored.length)
    notes.add(`Ignored (outside the preset whitelist of spec §4.2): ${read.ignored.join(', ')}`, 'note.ignored', { fields: read.ignored.join(', ') })
  neverSwitches(notes)
  return { ok: true, detected: 'whale-preset', preset, mapped, unmapped: read.ignored, notes: notes.en, notesSaid: notes.said }
}
