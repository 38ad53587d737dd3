import { resolveRoot } from '../memory/index.ts'
import {
  constantEntries,
  HITS_CAP,
  HITS_TITLE,
  RAIL_CAP,
  RAIL_TITLE,
  renderEntries,
  WorldbookLibrary,
  worldbookFolders,
  type LoadedWorldbook,
} from '../worldbook/index.ts'
import type { DoctorIO, DoctorLine } from './doctor.ts'

/**
 * The worldbook's doctor lines, for `cyrene doctor` and `/cyrene doctor`: what
 * is in force, every file skipped and why, constant entries the 140 rail has
 * no room for, entries too long ever to be shown as a hit, and — in a chat —
 * the latest hits. Reads only; the caps are the contract's (CONTRACT §4.5).
 */

/** What the runtime row saw, handed to the doctor as plain data through the host service. */
export interface WorldbookNote {
  rail?: { chars: number; shown: number; leftOut: string[] }
  /** Newest first. */
  hits: { at: string; shown: string[]; leftOut: string[] }[]
  /** The latest failure of each part, cleared when it works again. */
  rootError?: string | undefined
  railError?: string | undefined
  hitsError?: string | undefined
}

export function worldbookLines(io: DoctorIO, note?: WorldbookNote): DoctorLine[] {
  let root: string | undefined
  const lines: DoctorLine[] = []
  try {
    root = resolveRoot({ env: io.env, rootDir: io.rootDir })
  } catch (error) {
    lines.push({ check: 'worldbook', status: 'warn', detail: `no store root (${(error as Error).message}): only the starter entries` })
  }
  const folders = worldbookFolders(root)
  let book: LoadedWorldbook
  try {
    book = new WorldbookLibrary(folders).current()
  } catch (error) {
    return [...lines, { check: 'worldbook', status: 'fail', detail: `cannot be read: ${(error as Error).message}` }]
  }
  const enabled = book.entries.filter((e) => e.enabled)
  const constants = constantEntries(book.entries)
  const person = book.entries.filter((e) => e.source === 'person').length
  lines.push({
    check: 'worldbook',
    status: 'ok',
    detail:
      `${enabled.length} entries in force (${constants.length} constant, ${enabled.length - constants.length} by keyword; ${person} yours` +
      `${book.overridden.length > 0 ? `, ${book.overridden.length} starter entries replaced or switched off by yours` : ''}); ` +
      `yours in ${folders[1]?.dir ?? '(no store)'}, starter in ${folders[0]!.dir}`,
  })
  for (const u of book.unreadable) lines.push({ check: 'worldbook', status: 'warn', detail: `${u.file} ${u.why}` })
  for (const s of book.skipped) lines.push({ check: 'worldbook', status: 'warn', detail: `skipped ${s.file}: ${s.why}` })
  for (const w of book.warnings) lines.push({ check: 'worldbook', status: 'warn', detail: `${w.file}: ${w.why}` })
  const rail = renderEntries(RAIL_TITLE, constants, RAIL_CAP)
  if (rail.leftOut.length > 0)
    lines.push({
      check: 'worldbook',
      status: 'warn',
      detail: `constant entries left out of the 140 rail (${rail.text.length === 0 ? 0 : [...rail.text].length}/${RAIL_CAP} chars used): ${rail.leftOut.map((l) => `${l.name} (${l.why}, ${l.chars} chars)`).join(', ')} — shorten them or make them keyword entries`,
    })
  const tooLong = enabled.filter((e) => !e.constant && renderEntries(HITS_TITLE, [e], HITS_CAP).shown.length === 0)
  if (tooLong.length > 0)
    lines.push({
      check: 'worldbook',
      status: 'warn',
      detail: `keyword entries too long ever to be shown (a hit block holds ${HITS_CAP} chars with its frame): ${tooLong.map((e) => e.name).join(', ')}`,
    })
  for (const error of [note?.rootError, note?.railError, note?.hitsError])
    if (error !== undefined) lines.push({ check: 'worldbook', status: 'warn', detail: error })
  if (note !== undefined)
    lines.push({
      check: 'worldbook',
      status: 'ok',
      detail:
        note.hits.length === 0
          ? 'no keyword hits yet in this DSH run'
          : `last hits: ${note.hits.map((h) => `${h.at} ${h.shown.join(', ')}${h.leftOut.length > 0 ? ` (left out: ${h.leftOut.join(', ')})` : ''}`).join('; ')}`,
    })
  return lines
}
