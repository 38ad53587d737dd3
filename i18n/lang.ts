/** The two languages the person's texts are written in. */
export type Lang = 'zh' | 'en'

export function isLang(value: unknown): value is Lang {
  return value === 'zh' || value === 'en'
}

/**
 * The language the locale variables ask for (LC_ALL, then LC_MESSAGES, then
 * LANG, as the C library reads them), when it is one of ours: `zh_CN.UTF-8` →
 * zh, `en_US.UTF-8` → en. `C`, `POSIX` or an unset variable decide nothing.
 */
export function langFromEnv(env: NodeJS.ProcessEnv): Lang | undefined {
  for (const name of ['LC_ALL', 'LC_MESSAGES', 'LANG']) {
    const value = env[name]?.trim()
    if (value === undefined || value === '') continue
    const primary = value.toLowerCase().split(/[_.@-]/)[0]
    return isLang(primary) ? primary : undefined
  }
  return undefined
}
