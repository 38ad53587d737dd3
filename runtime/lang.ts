import type { Context } from '@deepseek-ai/cordis'
import { DEFAULT_LANG, isLang, langFromEnv, type Lang } from '../i18n/index.ts'
import { pageLocaleOf } from '../panel/index.ts'

/**
 * The language of DSH's UI, for the texts a command shows the person. DSH web
 * keeps the person's choice (Settings → General → Language) in its settings
 * document, namespace `locale`, field `preference` (`zh` | `en`), registered on
 * the host by @deepseek-ai/dsh-client-locale; `ctx.settings.get(ns)` returns
 * the section as resolved. When no choice is stored the browser's language
 * decides in the page; the page reports what it resolved to (`POST /locale`,
 * panel/locale.ts, decision 076), and that decides next. Then the DSH
 * process's LC_ALL/LC_MESSAGES/LANG, then zh. Read per command, so a change
 * in the page counts from the next command on.
 */
const LOCALE_NAMESPACE = 'locale'

interface SettingsReader {
  get(ns: string): unknown
}

export function uiLang(ctx: Context, env: NodeJS.ProcessEnv = process.env): Lang {
  return storedLocale(ctx) ?? pageLocaleOf(ctx).get() ?? langFromEnv(env) ?? DEFAULT_LANG
}

function storedLocale(ctx: Context): Lang | undefined {
  try {
    const settings = ctx.get('settings') as SettingsReader | undefined
    const section = settings?.get(LOCALE_NAMESPACE) as { preference?: unknown } | undefined
    return isLang(section?.preference) ? section.preference : undefined
  } catch {
    // A settings provider that throws (a stored section gone bad) decides nothing; the command still answers.
    return undefined
  }
}
