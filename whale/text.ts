/** Text primitives shared by the segment builders (spec §3.0). */

/** CRLF and lone CR become LF before anything is split into lines (spec wins over the reference). */
function normaliseNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n')
}

/**
 * One `- ` per line with content; a blank or whitespace-only line stays an empty
 * line, so no lone dash is left behind. Indentation inside a line is kept.
 */
export function bullet(text: string): string {
  return normaliseNewlines(text)
    .split('\n')
    .map((line) => (line.trim() ? '- ' + line : ''))
    .join('\n')
}

export interface NameVars {
  selfName: string
  userName: string
}

/**
 * Replaces every `{selfName}`, then every `{userName}`. A `{{…}}` form is a
 * host variable and stays exactly as written, `{{selfName}}` included (spec
 * wins over the reference). The replacement is literal: a `$` in a name is
 * never read as a pattern.
 */
export function fillNames(text: string, vars: NameVars): string {
  return replaceSingle(replaceSingle(text, 'selfName', vars.selfName), 'userName', vars.userName)
}

function replaceSingle(text: string, name: string, value: string): string {
  const pattern = new RegExp('\\{\\{[^{}]*\\}\\}|\\{' + name + '\\}', 'g')
  return text.replace(pattern, (match) => (match.startsWith('{{') ? match : value))
}

/**
 * A text field as the reference reads it: a string as is, a finite number as
 * its decimal form (the reference calls String() on it); anything else is absent.
 */
export function textOf(value: unknown): string {
  if (typeof value === 'string') return value
  return typeof value === 'number' && Number.isFinite(value) ? String(value) : ''
}

/** Inbox text and tags: surrounding space trimmed, each run of CR/LF folded to one space. */
export function foldLine(value: unknown): string {
  return textOf(value)
    .trim()
    .replace(/[\r\n]+/g, ' ')
}

/** 「 and 」 are removed so data can never close its own quotes (spec §3.3). */
export function stripCornerQuotes(text: string): string {
  return text.replace(/[「」]/g, '')
}

/** Length as the spec measures it: UTF-16 code units, i.e. JavaScript `.length`. */
export function charCount(text: string): number {
  return text.length
}

/**
 * SillyTavern's name macros in a text, as written: `{{char}}`, `{{user}}` and the older `<BOT>`, `<USER>`
 * (filled there at each step; here nothing fills them). The card import and the World Info import (worldbook/) both name them.
 */
export function tavernMacrosIn(text: string): string[] {
  const found = [...text.matchAll(/\{\{\s*(char|user)\s*\}\}|<(BOT|USER|CHAR)>/gi)].map((m) =>
    m[1] !== undefined ? `{{${m[1].toLowerCase()}}}` : `<${m[2]!.toUpperCase()}>`,
  )
  return [...new Set(found)]
}
