import type { VoiceForm } from './voice-texts.ts'

/** Why a form was chosen, for the doctor and the tests. */
type FormReason = 'pinned' | 'scene' | 'time' | 'default'

export interface FormChoice {
  form: VoiceForm
  reason: FormReason
}

export interface FormInput {
  /** The form pinned for this session by `/cyrene form <name>`, if any. */
  pinned?: string | undefined
  /** The person's latest message ('' when none yet). */
  text: string
  /** Local hour 0–23. */
  hour: number
}

const LATIN_RE = /^[\p{Script=Latin}\d _'-]+$/u

/** Whether a scene word occurs in `text`: CJK and other scripts as substrings, Latin words whole, case-insensitive. */
export function sceneWordIn(text: string, word: string): boolean {
  const w = word.toLowerCase()
  const t = text.toLowerCase()
  if (!LATIN_RE.test(w)) return t.includes(w)
  for (let at = t.indexOf(w); at >= 0; at = t.indexOf(w, at + 1)) {
    const before = at === 0 ? '' : t.slice(at - 1, at)
    const after = t.slice(at + w.length, at + w.length + 1)
    if (!/[\p{L}\p{N}_]/u.test(before) && !/[\p{L}\p{N}_]/u.test(after)) return true
  }
  return false
}

function inHours(hours: VoiceForm['hours'], hour: number): boolean {
  if (hours === undefined) return false
  return hours.from < hours.to ? hour >= hours.from && hour < hours.to : hour >= hours.from || hour < hours.to
}

/**
 * Pure: her form for a step. A pinned form wins; else the form with the most
 * scene words in the latest message (file order breaks ties); else the one
 * whose hours hold the local hour; else the first. Undefined only when there
 * are no forms at all.
 */
export function chooseForm(forms: readonly VoiceForm[], input: FormInput): FormChoice | undefined {
  if (forms.length === 0) return undefined
  if (input.pinned !== undefined) {
    const pinned = forms.find((f) => f.name === input.pinned)
    if (pinned !== undefined) return { form: pinned, reason: 'pinned' }
  }
  let best: VoiceForm | undefined
  let bestHits = 0
  for (const form of forms) {
    const hits = form.scenes.filter((w) => sceneWordIn(input.text, w)).length
    if (hits > bestHits) {
      best = form
      bestHits = hits
    }
  }
  if (best !== undefined) return { form: best, reason: 'scene' }
  const timed = forms.find((f) => inHours(f.hours, input.hour))
  if (timed !== undefined) return { form: timed, reason: 'time' }
  return { form: forms[0]!, reason: 'default' }
}
