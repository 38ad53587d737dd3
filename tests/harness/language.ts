import { chineseLeft, englishSentences } from '../../i18n/testing/language-rule.ts'

/**
 * The two language checks tests use on what a person sees. `wrongLanguage` is
 * the settings page's (the person's data taken out first): a Chinese page
 * shows no Latin word but DSH and MB, an English page no Han character.
 * `otherLanguage` is the catalogue's rule (docs/decisions/060) for texts that
 * carry commands, paths and names: chat replies, the doctor, the command line.
 */
const ZH_ALLOWED = new Set(['DSH', 'MB'])

export function wrongLanguage(lang: 'zh' | 'en', text: string): string[] {
  if (lang === 'en') return text.match(/\p{Script=Han}+/gu) ?? []
  return (text.match(/[A-Za-z]{2,}/g) ?? []).filter((w) => !ZH_ALLOWED.has(w))
}

export function otherLanguage(lang: 'zh' | 'en', text: string): string[] {
  if (lang === 'zh') return englishSentences(text)
  const left = chineseLeft(text)
  return left === '' ? [] : [left]
}
