import { isRecord, jsonFileText, parseJson, type JsonRecord } from './json.ts'
import { zipDirectory, zipMemberBytes, type Member, type ZipWords } from './charx.ts'
import { WhaleError } from './said.ts'

/**
 * A Backyard AI archive (`.byaf`): a zip holding `manifest.json`, which names the character's JSON file
 * and its scenarios' JSON files. SillyTavern imports one as a V2 card it builds from them; this reads the
 * same fields into the same card (decision 330), so the rest of the import reads it as any V2 card. Only
 * the zip's directory and the JSON members the manifest names are read; images and chats are never
 * inflated. Pure: bytes in, the card out.
 */

/** The largest archive read: its images come along, as a CharX's do. */
const MAX_BYAF_BYTES = 64 * 1024 * 1024
/** What one JSON member may hold inflated (a scenario carries its chat), and all of them together. */
export const MAX_BYAF_MEMBER_BYTES = 8 * 1024 * 1024
const MAX_BYAF_JSON_BYTES = 32 * 1024 * 1024

export class ByafError extends WhaleError {}

const again = 'export the character again from Backyard AI, or as a PNG or JSON card, and import that'

const WORDS: ZipWords = {
  notZip: () => new ByafError(`the file is not a zip (no end of its directory), so it is not a Backyard AI archive; ${again}`, 'byaf.damaged'),
  split: () => new ByafError(`the archive is a zip split over several files; ${again}`, 'byaf.damaged'),
  zip64: () => new ByafError(`the archive is a ZIP64 zip (over 4 GiB or 65,535 files), more than a character needs; ${again}`, 'byaf.damaged'),
  broken: (why) => new ByafError(`the Backyard AI archive is damaged (${why}); ${again}`, 'byaf.damaged'),
  tooBig: (member, max) =>
    new ByafError(`its ${member} would inflate past ${max} bytes (a zip bomb, or not a character), so it is not read; ${again}`, 'byaf.member-too-large', {
      member,
      max,
    }),
  encrypted: (member) => new ByafError(`its ${member} is encrypted; ${again}`, 'byaf.damaged'),
  method: (member, method) => new ByafError(`its ${member} is compressed with method ${method}, not deflate; ${again}`, 'byaf.damaged'),
}

/** A Backyard AI archive by its name, as SillyTavern goes by the name; or a zip whose top holds manifest.json and no card.json. */
export function isByaf(bytes: Buffer, fileName: string): boolean {
  if (/\.byaf$/i.test(fileName)) return true
  try {
    const names = zipDirectory(bytes, WORDS).map((m) => m.name)
    return names.includes('manifest.json') && !names.some((n) => n === 'card.json' || n.endsWith('/card.json'))
  } catch {
    return false
  }
}

export interface ByafRead {
  /** The V2 card SillyTavern builds from the archive. */
  card: JsonRecord
  /** Scenario files the manifest names that could not be read (SillyTavern skips them too). */
  skipped: string[]
  /** Characters after the first the manifest names (SillyTavern imports only the first). */
  otherCharacters: number
}

/** The card SillyTavern makes of a Backyard AI archive; a damaged archive or one without a character is refused (`ByafError`). */
export function byafCard(bytes: Buffer): ByafRead {
  if (bytes.length > MAX_BYAF_BYTES)
    throw new ByafError(`the archive is larger than ${MAX_BYAF_BYTES} bytes; export the character as a PNG or JSON card`, 'byaf.too-large', {
      max: MAX_BYAF_BYTES,
    })
  const members = zipDirectory(bytes, WORDS)
  let budget = MAX_BYAF_JSON_BYTES
  /** A member's JSON value, or why not: missing, too much, not JSON. */
  const json = (name: string): { ok: true; value: unknown } | { ok: false; why: string } => {
    const member: Member | undefined = members.find((m) => m.name === name)
    if (member === undefined) return { ok: false, why: 'not in the archive' }
    const data = zipMemberBytes(bytes, member, Math.min(MAX_BYAF_MEMBER_BYTES, budget), WORDS)
    budget -= data.length
    const text = jsonFileText(data)
    const parsed = text === undefined ? undefined : parseJson(text)
    return parsed?.ok === true ? { ok: true, value: parsed.value } : { ok: false, why: 'not JSON' }
  }
  const manifest = json('manifest.json')
  if (!manifest.ok && manifest.why === 'not in the archive')
    throw new ByafError(`the zip holds no manifest.json, so it is not a Backyard AI archive; ${again}`, 'byaf.no-manifest')
  if (!manifest.ok || !isRecord(manifest.value)) throw new ByafError(`its manifest.json is not a JSON object; ${again}`, 'byaf.bad-manifest')
  const m = manifest.value
  const characters = Array.isArray(m.characters) ? m.characters : []
  const path = characters[0]
  if (typeof path !== 'string' || path === '')
    throw new ByafError(`its manifest.json names no character (its "characters" list is missing or empty); ${again}`, 'byaf.no-character')
  const character = json(path)
  if (!character.ok || !isRecord(character.value))
    throw new ByafError(
      `the character file ${path} its manifest names is ${character.ok || character.why === 'not JSON' ? 'not a JSON object' : character.why}; ${again}`,
      character.ok || character.why === 'not JSON' ? 'byaf.character-not-json' : 'byaf.character-missing',
      { file: path },
    )
  const c = character.value
  const scenarios: JsonRecord[] = []
  const skipped: string[] = []
  for (const file of Array.isArray(m.scenarios) ? m.scenarios : []) {
    const read = typeof file === 'string' ? json(file) : { ok: false as const, why: 'not a file name' }
    if (read.ok && isRecord(read.value)) scenarios.push(read.value)
    else skipped.push(typeof file === 'string' ? file : JSON.stringify(file))
  }
  const first: JsonRecord = scenarios[0] ?? {}
  const author = isRecord(m.author) ? m.author : {}
  const card: JsonRecord = {
    spec: 'chara_card_v2',
    spec_version: '2.0',
    data: {
      name: text(c.name) || text(c.displayName),
      description: macros(c.persona),
      personality: '',
      scenario: macros(first.narrative),
      first_mes: macros(firstMessage(first)),
      mes_example: examples(first.exampleMessages),
      creator_notes: text(author.backyardURL),
      system_prompt: macros(first.formattingInstructions),
      post_history_instructions: '',
      alternate_greetings: scenarios
        .slice(1)
        .map((s) => macros(firstMessage(s)))
        .filter((g) => g !== ''),
      ...lore(c.loreItems),
      tags: [],
      creator: text(author.name),
      character_version: '',
      extensions: {},
    },
  }
  return { card, skipped, otherCharacters: Math.max(0, characters.length - 1) }
}

/** A value SillyTavern writes with `|| ''`: text kept, anything else empty. */
const text = (v: unknown): string => (typeof v === 'string' ? v : '')

/** Backyard AI's names for the speakers, as SillyTavern turns them into its macros. */
function macros(v: unknown): string {
  return text(v)
    .replace(/#\{user\}:/gi, '{{user}}:')
    .replace(/#\{character\}:/gi, '{{char}}:')
    .replace(/\{character\}(?!\})/gi, '{{char}}')
    .replace(/\{user\}(?!\})/gi, '{{user}}')
}

/** A scenario holds at most one first message. */
function firstMessage(scenario: JsonRecord): unknown {
  const list = scenario.firstMessages
  return Array.isArray(list) && isRecord(list[0]) ? list[0].text : undefined
}

/** Example messages, each after a `<START>` line, as SillyTavern's examples are written. */
function examples(v: unknown): string {
  if (!Array.isArray(v)) return ''
  return v
    .filter((e): e is JsonRecord => isRecord(e) && text(e.text) !== '')
    .map((e) => `<START>\n${macros(e.text)}\n`)
    .join('')
    .trimEnd()
}

/** Lore items (a comma-separated key, a value) as a card book, in their order. */
function lore(v: unknown): { character_book: JsonRecord } | undefined {
  if (!Array.isArray(v) || v.length === 0) return undefined
  // Each keeps its place in the list as its order, as SillyTavern numbers them.
  const entries = v.flatMap((item: unknown, index) =>
    isRecord(item)
      ? [
          {
            keys: macros(item.key)
              .split(',')
              .map((k) => k.trim())
              .filter((k) => k !== ''),
            content: macros(item.value),
            extensions: {},
            enabled: true,
            insertion_order: index,
          },
        ]
      : [],
  )
  return { character_book: { entries, extensions: {} } }
}
