import { t, tKey, type Lang, type MessageKey } from '../i18n/index.ts'
import { baseDriftLine, whaleLines, whaleRowLine, type BuiltinPresets, type WhaleRowState } from './doctor-whale.ts'
import { hostServiceLines, type HostServiceState } from './doctor-service.ts'
import { doctorLines as guardLines, type StoreGuardState } from '../guard/index.ts'
import { retiredLines, storeLines } from './doctor-store.ts'
import { worldbookLines } from './worldbook-doctor.ts'
import { railDoctorLines, railsReport, type WorldbookNote } from '../rails/index.ts'
import { doctorLines as nightLines, type DreamState } from '../night/index.ts'
import { DOCTOR_AREAS, messageOf, type DoctorArea, type DoctorIO, type DoctorLine } from './doctor-line.ts'

export { baseDriftLine, type BuiltinPresets } from './doctor-whale.ts'
export type { HostServiceState } from './doctor-service.ts'
export { storeLines } from './doctor-store.ts'
export type { DoctorIO, DoctorLine } from './doctor-line.ts'

/**
 * The one doctor: every line of `cyrene doctor` and `/cyrene doctor`, and how
 * they are printed. The command line loads this module outside DSH, so it
 * imports no DSH package (type-only imports are erased); the chat command
 * hands it the host service's state as plain data. Reads only.
 *
 * Two layers: one row per area a person understands (记忆, 回忆, 夜梦 …),
 * then under `--verbose` every line of that area. A feature adds its lines
 * with its `area`; the rows are made from them.
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

/** `cyrene doctor`: the files of a DSH_HOME as a person sees them from outside a chat. */
export async function cliDoctorLines(io: DoctorIO, lang: Lang, builtins?: BuiltinPresets): Promise<DoctorLine[]> {
  return [
    ...(await storeLines(io, lang)),
    ...(await retiredLines(io, lang)),
    ...worldbookLines(io, lang),
    ...whaleLines(io, lang),
    ...(builtins === undefined ? [] : [baseDriftLine(builtins, lang)]),
  ]
}

/** What `/cyrene doctor` needs from the DSH rows, narrowed to plain data and calls. */
export interface ChatDoctorInput {
  env: NodeJS.ProcessEnv
  cwd: string
  lang: Lang
  /** The `cyreneMemory` service, when mounted. */
  memory: { doctorState(): HostServiceState; levelRecall?(): Promise<void>; config: { rootDir: string } } | undefined
  /** The whale row's service, when mounted. */
  whaleRow: WhaleRowState | undefined
  /** The store guard of the host row (CONTRACT#store-guard), when mounted. */
  guard?: { doctorState(): StoreGuardState } | undefined
  /** The built-in presets of the DSH this runs in (from its roster). */
  builtins?: BuiltinPresets
  /** The night's service (night/), when mounted. */
  dream?: DreamState | undefined
}

/** `/cyrene doctor`: the host service's own lines, then the store as `cyrene doctor` sees it (quotas, snapshots, volume…). */
export async function chatDoctorLines(input: ChatDoctorInput): Promise<DoctorLine[]> {
  const { lang } = input
  let lines: DoctorLine[]
  let worldbook: WorldbookNote | undefined
  try {
    // Levelled first: the count is what the store holds now, not what it held at the last turn.
    await input.memory!.levelRecall?.()
    const state = input.memory!.doctorState()
    const rails = railsReport(input.memory)
    worldbook = rails.worldbook
    lines = hostServiceLines(state, lang, railDoctorLines(rails, lang))
    lines.push(...nightLines(input.dream, lang))
  } catch (error) {
    lines = [
      { area: 'memory', check: t('doctor.check.hostService', lang), status: 'fail', detail: t('doctor.service.down', lang, { error: messageOf(error) }) },
    ]
  }
  const rootDir = input.memory?.config.rootDir
  const io = { env: input.env, cwd: input.cwd, rootDir: rootDir === '' ? undefined : rootDir }
  try {
    lines.push(...(await storeLines(io, lang, { engine: false })), ...(await retiredLines(io, lang)))
  } catch (error) {
    lines.push({
      area: 'memory',
      check: t('doctor.check.store', lang),
      status: 'fail',
      detail: t('doctor.store.unreadable', lang, { error: messageOf(error) }),
    })
  }
  const drift = input.builtins === undefined ? [] : [baseDriftLine(input.builtins, lang)]
  return [
    ...lines,
    ...worldbookLines(io, lang, worldbook ?? { hits: [] }),
    ...guardLines(input.guard?.doctorState(), lang),
    ...drift,
    whaleRowLine(input.whaleRow, lang),
    ...whaleLines(io, lang, input.whaleRow?.reflex.ledgerError),
  ]
}
