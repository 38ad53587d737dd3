import type { WorldEntry } from './entry.ts'
import { patternKey } from './pattern-key.ts'

/**
 * Which keyword entries the person's recent words call up. Pure string work:
 * no model, no index. A key with a CJK character matches as a substring
 * (Chinese has no spaces between words); any other key matches as a whole
 * word, so `Cyrene` finds "cyrene's" and "我想见Cyrene" but not "Cyrenes" —
 * unless the entry says `match_whole_words: no` (SillyTavern's default, which
 * imported entries carry), then every key is a substring and "beast" fires on
 * "beasts". Case and width do not matter (NFKC, then lower case:
 * `ＣＹＲＥＮＥ` is `cyrene`), unless the entry is `case_sensitive` (width
 * still folded). A key written `/source/flags` is a regular expression, as in
 * SillyTavern (pattern-key.ts).
 */

/** Han, kana, Hangul and the CJK symbol blocks: text written without spaces between words. */
const CJK_RE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\u3000-\u303f\uff00-\uffef]/u
/** What continues a Latin (or Greek, Cyrillic…) word: a letter of a spaced script, a digit, `_`, or a combining mark. */
const WORD_CHAR_RE = /[\p{L}\p{N}\p{M}_]/u

function fold(text: string, caseSensitive = false): string {
  const wide = text.normalize('NFKC')
  return caseSensitive ? wide : wide.toLowerCase()
}

function isWordChar(ch: string | undefined): boolean {
  return ch !== undefined && WORD_CHAR_RE.test(ch) && !CJK_RE.test(ch)
}

/** The code point ending right before `index`, or undefined at the start. */
function charBefore(text: string, index: number): string | undefined {
  if (index <= 0) return undefined
  const low = text.charCodeAt(index - 1)
  return low >= 0xdc00 && low <= 0xdfff && index >= 2 ? text.slice(index - 2, index) : text[index - 1]
}

/** Whether `key` occurs in `haystack` (both folded already). */
function occurs(haystack: string, key: string, wholeWords = true): boolean {
  if (key === '') return false
  if (!wholeWords || CJK_RE.test(key)) return haystack.includes(key)
  for (let at = haystack.indexOf(key); at >= 0; at = haystack.indexOf(key, at + 1)) {
    const before = charBefore(haystack, at)
    const after = String.fromCodePoint(haystack.codePointAt(at + key.length) ?? 0x20)
    // Only the ends that are word characters need a boundary: `C++` or `.NET` still match.
    const needBefore = isWordChar(String.fromCodePoint(key.codePointAt(0)!))
    const needAfter = isWordChar(charBefore(key, key.length))
    if ((!needBefore || !isWordChar(before)) && (!needAfter || !isWordChar(after))) return true
  }
  return false
}

/** Whether one key matches the text, by the rules above (a `/…/flags` key as a pattern). */
export function keyMatches(text: string, key: string, how: { wholeWords?: boolean; caseSensitive?: boolean } = {}): boolean {
  const pattern = patternKey(key.trim())
  if (pattern !== undefined) return pattern.kind === 'pattern' && pattern.test(text)
  return occurs(fold(text, how.caseSensitive), fold(key.trim(), how.caseSensitive), how.wholeWords)
}

/** Keys folded once per list: an entry's key lists live as long as the file is unchanged. */
const foldedKeys = new WeakMap<readonly string[], string[]>()

/** The text once folded each way an entry may ask for. */
interface ScanText {
  folded: string
  /** Width folded only, for `case_sensitive` entries. */
  cased: string
  /** As written, for pattern keys (pattern-key.ts). */
  raw: string
}

function scanText(text: string): ScanText {
  return { folded: fold(text), cased: fold(text, true), raw: text }
}

/** The keys of `keys` that occur in the text, as `entry` asks them to be matched. */
function found(text: ScanText, keys: readonly string[], entry: WorldEntry): string[] {
  const cased = entry.caseSensitive === true
  let ready = foldedKeys.get(keys)
  if (ready === undefined) {
    ready = keys.map((k) => fold(k.trim(), cased))
    foldedKeys.set(keys, ready)
  }
  const haystack = cased ? text.cased : text.folded
  return keys.filter((key, i) => {
    const pattern = patternKey(key)
    if (pattern !== undefined) return pattern.kind === 'pattern' && pattern.test(text.raw)
    return occurs(haystack, ready[i]!, entry.wholeWords !== false)
  })
}

export interface EntryHit {
  entry: WorldEntry
  /** The primary keys that matched (at least one). */
  keys: string[]
}

/**
 * Whether an entry is called up by the text: one of its keys occurs, and its
 * secondary keys (when it has any) agree, with SillyTavern's logic —
 * `and-any` at least one occurs, `and-all` every one occurs, `not-any` none
 * occurs, `not-all` not every one occurs. Without secondary keys the logic is
 * ignored.
 */
function entryHit(entry: WorldEntry, text: ScanText): EntryHit | undefined {
  const keys = found(text, entry.keys, entry)
  if (keys.length === 0) return undefined
  if (entry.secondaryKeys.length === 0) return { entry, keys }
  const secondary = found(text, entry.secondaryKeys, entry).length
  const all = secondary === entry.secondaryKeys.length
  const pass = entry.logic === 'and-any' ? secondary > 0 : entry.logic === 'and-all' ? all : entry.logic === 'not-any' ? secondary === 0 : /* not-all */ !all
  return pass ? { entry, keys } : undefined
}

/** Highest priority first; equal priorities by name, so the order never depends on the folder listing. */
function byPriority(a: WorldEntry, b: WorldEntry): number {
  return b.priority - a.priority || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)
}

/**
 * The keyword entries (enabled, not constant: constant ones are in the rail
 * already) called up by the person's recent messages, highest priority first.
 * The messages are read as one text, as SillyTavern scans its window.
 */
export function matchEntries(entries: readonly WorldEntry[], messages: readonly string[]): EntryHit[] {
  const text = scanText(messages.join('\n'))
  if (text.folded.trim() === '') return []
  const hits: EntryHit[] = []
  for (const entry of entries) {
    if (!entry.enabled || entry.constant) continue
    const hit = entryHit(entry, text)
    if (hit !== undefined) hits.push(hit)
  }
  return hits.sort((a, b) => byPriority(a.entry, b.entry))
}

/** The constant entries that are enabled, highest priority first. */
export function constantEntries(entries: readonly WorldEntry[]): WorldEntry[] {
  return entries.filter((e) => e.enabled && e.constant).sort(byPriority)
}
