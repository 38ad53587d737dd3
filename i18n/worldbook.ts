import { tKey, zh, type Lang, type MessageKey } from './index.ts'

/**
 * A note of the SillyTavern import (worldbook/import-notes.ts: a code, its
 * values, and values that are notes themselves) in the person's language.
 * Structural, so i18n/ imports nothing from worldbook/; a code this catalogue
 * does not know is shown as the code, not hidden.
 */
export interface CodedNote {
  code: string
  params?: Record<string, string | number | CodedNote>
}

export function worldNoteText(note: CodedNote, lang: Lang): string {
  const key = `worldbook.note.${note.code}`
  if (!Object.hasOwn(zh, key)) return note.code
  const params: Record<string, string | number> = {}
  for (const [name, value] of Object.entries(note.params ?? {})) params[name] = typeof value === 'object' ? worldNoteText(value, lang) : value
  return tKey(key as MessageKey, lang, params)
}
