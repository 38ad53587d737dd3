import type { Context } from '@deepseek-ai/cordis'
import { isLang, type Lang } from '../i18n/index.ts'
import { PanelError } from './http.ts'

/**
 * The language DSH web resolved to, as the page reported it (`POST /locale`):
 * when no choice is stored in DSH's settings, the browser's language decides
 * in the page, and the host cannot see it otherwise (decision 076). Kept in
 * memory only, one per DSH process (its root context); a restart forgets it
 * until the page reports again.
 */
export class PageLocale {
  private lang: Lang | undefined
  get(): Lang | undefined {
    return this.lang
  }
  set(lang: Lang): void {
    this.lang = lang
  }
}

/**
 * Kept on the root context under a registered symbol, not in a module-level
 * map: a second copy of this module (the source beside the built one, in the
 * tests) must find the same object.
 */
const KEY = Symbol.for('dsh-cyrene-philia093-0.pageLocale')

/** The page's language of this DSH process: the same object for the route that sets it and `uiLang` that reads it. */
export function pageLocaleOf(ctx: Context): PageLocale {
  const root = ((ctx as { root?: object }).root ?? ctx) as { [KEY]?: PageLocale }
  root[KEY] ??= new PageLocale()
  return root[KEY]
}

/** `{"lang": "zh" | "en"}` and nothing else; any other body is refused whole and changes nothing. */
export function reportLocale(locale: PageLocale, body: Record<string, unknown>): { ok: true; lang: Lang } {
  const extra = Object.keys(body).filter((k) => k !== 'lang')
  if (extra.length > 0) throw new PanelError(400, `send only {"lang": "zh" | "en"}; unknown field(s): ${extra.join(', ')}; nothing was changed`)
  if (!isLang(body.lang)) throw new PanelError(400, 'lang must be "zh" or "en"; nothing was changed')
  locale.set(body.lang)
  return { ok: true, lang: body.lang }
}
