import { kindLabel } from './kinds.ts'
import { t, type Lang } from './index.ts'

/**
 * Why an entry waits in 余页/待定, in the person's language. memory/gate.ts
 * gives the problem as a code (`gateProblemOf` turns a kept English sentence
 * back into one); a sentence it does not know is shown as written.
 */
export function gateProblemText(problem: { code: string; kind?: string } | string, lang: Lang): string {
  if (typeof problem === 'string') return problem
  switch (problem.code) {
    case 'axis':
      return t('gate.axis', lang)
    case 'reason-missing':
      return t('gate.reason-missing', lang)
    case 'reason-lines':
      return t('gate.reason-lines', lang)
    case 'source':
      return t('gate.source', lang, { kind: kindLabel(problem.kind ?? '', lang) })
    case 'consequence':
      return t('gate.consequence', lang)
    default:
      return problem.code
  }
}
