import { t, type Lang } from '../i18n/index.ts'
import type { DoctorLine } from '../doctor/index.ts'

/** Whether the person can pair the settings page (CONTRACT#pairing): the code is shown only in a terminal. */
export function doctorLines(pairing: { shown: boolean; wrongGuesses: number } | undefined, lang: Lang): DoctorLine[] {
  if (pairing === undefined) return []
  const check = t('doctor.check.pairing', lang)
  const guesses = pairing.wrongGuesses > 0 ? t('doctor.pairing.guessed', lang, { n: pairing.wrongGuesses }) : ''
  return [
    pairing.shown
      ? { area: 'memory', check, status: pairing.wrongGuesses > 0 ? 'warn' : 'ok', detail: t('doctor.pairing.shown', lang) + guesses }
      : { area: 'memory', check, status: 'warn', detail: t('doctor.pairing.hidden', lang) + guesses },
  ]
}
