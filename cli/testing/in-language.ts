import type { Lang } from '../../i18n/index.ts'
import { memoryIO } from '../io.ts'
import { main } from '../main.ts'

/** One `cyrene` invocation in-process on `home`, in `lang` (by `--lang`), with what it printed. */
export async function runInLanguage(home: string, args: string[], lang: Lang): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ DSH_HOME: home, PATH: process.env.PATH, HOME: home }, home)
  const code = await main([...args, '--lang', lang], io)
  return { code, out: io.out(), err: io.err() }
}
