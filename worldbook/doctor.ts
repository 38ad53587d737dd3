import { t, type Lang } from '../i18n/index.ts'
import { resolveRoot } from '../memory/paths.ts'
import { constantEntries } from './match.ts'
import { HITS_CAP, HITS_TITLE, RAIL_CAP, renderEntries, renderRail } from './render.ts'
import { WorldbookLibrary, type LoadedWorldbook } from './library.ts'
import { worldbookFolders } from './places.ts'
import type { DoctorIO, DoctorLine } from '../doctor/index.ts'

/** What the worldbook rail and its hits did on the latest assembly (written by rails/worldbook-rail.ts, kept in rails/report.ts). */
export interface WorldbookNote {
  rail?: { chars: number; shown: number; leftOut: string[] }
  /** Newest first. */
  hits: { at: string; shown: string[]; leftOut: string[] }[]
  /** The latest failure of each part, cleared when it works again. */
  rootError?: string | undefined
  railError?: string | undefined
  hitsError?: string | undefined
}

/**
 * The worldbook's doctor lines (area `worldbook`), for `cyrene doctor` and `/cyrene doctor`: what
 * is in force, every file skipped and why, constant entries the 140 rail has
 * no room for, entries too long ever to be shown as a hit, and — in a chat —
 * the latest hits. Reads only; the caps are the contract's (CONTRACT#worldbook).
 */

export function doctorLines(io: DoctorIO, lang: Lang, note?: WorldbookNote): DoctorLine[] {
  const check = t('doctor.check.worldbook', lang)
  const area = 'worldbook' as const
  let root: string | undefined
  const lines: DoctorLine[] = []
  try {
    root = resolveRoot({ env: io.env, rootDir: io.rootDir })
  } catch (error) {
    lines.push({ area, check, status: 'warn', detail: t('doctor.worldbook.noRoot', lang, { error: (error as Error).message }) })
  }
  const folders = worldbookFolders(root)
  let book: LoadedWorldbook
  try {
    book = new WorldbookLibrary(folders).current()
  } catch (error) {
    return [...lines, { area, check, status: 'fail', detail: t('doctor.worldbook.unreadable', lang, { error: (error as Error).message }) }]
  }
  const enabled = book.entries.filter((e) => e.enabled)
  const constants = constantEntries(book.entries)
  const person = book.entries.filter((e) => e.source === 'person').length
  lines.push({
    area,
    check,
    status: 'ok',
    detail: t('doctor.worldbook.inForce', lang, {
      n: enabled.length,
      constant: constants.length,
      keyword: enabled.length - constants.length,
      yours: person,
      replaced: book.overridden.length > 0 ? t('doctor.worldbook.replaced', lang, { n: book.overridden.length }) : '',
      dir: folders[1]?.dir ?? '—',
      starter: folders[0]!.dir,
    }),
    summary: t('doctor.worldbook.summary', lang, { n: enabled.length }),
  })
  for (const u of book.unreadable) lines.push({ area, check, status: 'warn', detail: `${u.file} ${u.why}` })
  for (const s of book.skipped) lines.push({ area, check, status: 'warn', detail: t('doctor.worldbook.skipped', lang, { file: s.file, why: s.why }) })
  for (const w of book.warnings) lines.push({ area, check, status: 'warn', detail: `${w.file}: ${w.why}` })
  const rail = renderRail(book.entries)
  if (rail.leftOut.length > 0)
    lines.push({
      area,
      check,
      status: 'warn',
      detail: t('doctor.worldbook.railFull', lang, {
        used: rail.text.length === 0 ? 0 : [...rail.text].length,
        cap: RAIL_CAP,
        names: rail.leftOut.map((l) => t('doctor.worldbook.entryChars', lang, { name: l.name, why: l.why, n: l.chars })).join(', '),
      }),
    })
  const tooLong = enabled.filter((e) => !e.constant && renderEntries(HITS_TITLE, [e], HITS_CAP).shown.length === 0)
  if (tooLong.length > 0)
    lines.push({ area, check, status: 'warn', detail: t('doctor.worldbook.tooLong', lang, { cap: HITS_CAP, names: tooLong.map((e) => e.name).join(', ') }) })
  for (const error of [note?.rootError, note?.railError, note?.hitsError]) if (error !== undefined) lines.push({ area, check, status: 'warn', detail: error })
  if (note !== undefined)
    lines.push({
      area,
      check,
      status: 'ok',
      detail:
        note.hits.length === 0
          ? t('doctor.worldbook.noHits', lang)
          : t('doctor.worldbook.hits', lang, {
              hits: note.hits.map((h) => `${h.at} ${h.shown.join(', ')}${h.leftOut.length > 0 ? ` (−${h.leftOut.join(', ')})` : ''}`).join('; '),
            }),
    })
  return lines
}
