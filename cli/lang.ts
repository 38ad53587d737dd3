import { DEFAULT_LANG, isLang, langFromEnv, t, type Lang } from '../i18n/index.ts'
import { CliError } from './io.ts'

/**
 * The language of this invocation: `--lang zh|en` anywhere before `--`
 * (taken out of the words, so every command accepts it), else LC_ALL /
 * LC_MESSAGES / LANG, else zh. A value that is neither is refused (exit 2).
 */
export function takeLang(argv: readonly string[], env: NodeJS.ProcessEnv): { lang: Lang; argv: string[] } {
  const rest: string[] = []
  let chosen: string | undefined
  let ended = false
  for (let i = 0; i < argv.length; i++) {
    const word = argv[i]!
    if (ended || word === '--') {
      ended = true
      rest.push(word)
    } else if (word === '--lang') {
      chosen = argv[++i] ?? ''
    } else if (word.startsWith('--lang=')) {
      chosen = word.slice('--lang='.length)
    } else rest.push(word)
  }
  const fallback = langFromEnv(env) ?? DEFAULT_LANG
  if (chosen === undefined) return { lang: fallback, argv: rest }
  if (!isLang(chosen)) throw new CliError(t('cli.lang.bad', fallback, { value: JSON.stringify(chosen) }), 2)
  return { lang: chosen, argv: rest }
}
