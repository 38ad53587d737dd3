import type { StoreTexts } from '../host/store-file.ts'
import { FORMS_OVERRIDE, STYLES_OVERRIDE, voiceTexts, type VoiceTexts } from './voice-texts.ts'

/**
 * What the `/cyrene` voice commands and the rails share in one process: the
 * form pinned per session (`/cyrene form <name>`; in memory only, so a
 * restarted DSH starts every session on `auto` again) and the forms/styles in
 * force. Kept on `globalThis`, like the frame token, so the commands row and
 * the runtime row see the same pins however they were loaded.
 */
const PINS_KEY = Symbol.for('dsh-cyrene-philia093-0/form-pins')

function pins(): Map<string, string> {
  const slot = globalThis as unknown as Record<symbol, unknown>
  let map = slot[PINS_KEY] as Map<string, string> | undefined
  if (map === undefined) {
    map = new Map()
    slot[PINS_KEY] = map
  }
  return map
}

export function pinnedForm(sessionId: string): string | undefined {
  return pins().get(sessionId)
}

/** Pin a form for a session, or free it (`undefined` = auto). */
export function pinForm(sessionId: string, name: string | undefined): void {
  if (name === undefined) pins().delete(sessionId)
  else pins().set(sessionId, name)
}

let memo: { forms: string | undefined; styles: string | undefined; texts: VoiceTexts } | undefined

/** Forms and styles now: the store's overrides when the service knows the store, else the shipped files; parsed again only when a file changed. */
export function voiceTextsFor(store: Pick<StoreTexts, 'read'> | undefined): VoiceTexts {
  let forms: string | undefined
  let styles: string | undefined
  try {
    forms = store?.read(FORMS_OVERRIDE)
    styles = store?.read(STYLES_OVERRIDE)
  } catch {
    forms = styles = undefined
  }
  if (memo === undefined || memo.forms !== forms || memo.styles !== styles) memo = { forms, styles, texts: voiceTexts(forms, styles) }
  return memo.texts
}
