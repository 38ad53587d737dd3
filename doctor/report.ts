import { t, tKey, type Lang, type MessageKey } from '../i18n/index.ts'
import { DOCTOR_AREAS, type DoctorArea, type DoctorLine } from './line.ts'

/**
 * How the doctor's lines are printed, for `cyrene doctor` and `/cyrene doctor`
 * alike: one row per area a person understands (记忆, 回忆, 夜梦 …), then under
 * `--verbose` every line of that area. A room adds its lines with its `area`;
 * the rows are made from them. Pure: lines in, text out.
 */

const MARK: Record<DoctorLine['status'], string> = { ok: '✓', warn: '!', fail: '✗', missing: '…' }
const RANK: Record<DoctorLine['status'], number> = { ok: 0, missing: 1, warn: 2, fail: 3 }

/** One row of the first layer: an area, how it stands, one sentence. */
export interface DoctorRow {
  area: DoctorArea
  status: DoctorLine['status']
  text: string
}

/** The first layer: per area, its worst line's detail (and how many more need a look), or its summary when all is well. */
export function doctorRows(lines: readonly DoctorLine[], lang: Lang): DoctorRow[] {
  const rows: DoctorRow[] = []
  for (const area of DOCTOR_AREAS) {
    const own = lines.filter((l) => l.area === area)
    if (own.length === 0) continue
    const worst = own.reduce((a, b) => (RANK[b.status] > RANK[a.status] ? b : a))
    const label = tKey(`doctor.area.${area}` as MessageKey, lang)
    if (worst.status === 'ok') {
      rows.push({
        area,
        status: 'ok',
        text: `${label}${t('doctor.colon', lang)}${own.find((l) => l.summary !== undefined)?.summary ?? t('doctor.allWell', lang)}`,
      })
      continue
    }
    const others = own.filter((l) => l !== worst && RANK[l.status] >= RANK.warn).length
    const tail = others > 0 ? t('doctor.moreProblems', lang, { n: others }) : ''
    rows.push({ area, status: worst.status, text: `${label}${t('doctor.colon', lang)}${worst.detail}${tail}` })
  }
  return rows
}

export function doctorReport(lines: DoctorLine[], opts: { verbose?: boolean; lang: Lang }): string {
  const { lang } = opts
  const rows = doctorRows(lines, lang)
  const out = [`${t('doctor.title', lang)}${doctorVerdict(rows, lang)}`]
  for (const row of rows) {
    out.push(`${MARK[row.status]} ${row.text}`)
    if (opts.verbose !== true) continue
    for (const l of lines.filter((x) => x.area === row.area)) {
      out.push(`    ${MARK[l.status]} ${l.check}${t('doctor.colon', lang)}${l.detail}`)
      for (const m of l.more ?? []) out.push(`        ${m}`)
    }
  }
  if (opts.verbose !== true) out.push(t('doctor.verboseHint', lang))
  return out.join('\n')
}

/**
 * The first line, one sentence: all is well, or how many areas need a look
 * and the one to start with (the first ✗, else the first !), whose text says
 * what to do. `…` rows (not built, not there yet) are not problems.
 */
function doctorVerdict(rows: readonly DoctorRow[], lang: Lang): string {
  const bad = rows.filter((r) => r.status === 'fail' || r.status === 'warn')
  const first = rows.find((r) => r.status === 'fail') ?? rows.find((r) => r.status === 'warn')
  if (first === undefined) return t('doctor.verdict.ok', lang)
  return t(bad.length === 1 ? 'doctor.verdict.one' : 'doctor.verdict.many', lang, {
    n: bad.length,
    area: tKey(`doctor.area.${first.area}` as MessageKey, lang),
  })
}
