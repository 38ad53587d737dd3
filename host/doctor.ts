import { t, type Lang } from '../i18n/index.ts'
import { baseDriftLine, whaleLines, whaleRowLine, type BuiltinPresets, type WhaleRowState } from './doctor-whale.ts'
import { hostServiceLines, type HostServiceState } from './doctor-service.ts'
import type { SeatsState } from './service-seat.ts'
import { doctorLines as guardLines, type StoreGuardState } from '../guard/index.ts'
import { retiredLines, storeLines } from './doctor-store.ts'
import { doctorLines as worldbookLines, type WorldbookNote } from '../worldbook/index.ts'
import { railDoctorLines, railsReport } from '../rails/index.ts'
import { doctorLines as nightLines, type DreamState } from '../night/index.ts'
import { messageOf, type DoctorIO, type DoctorLine } from '../doctor/index.ts'

export { baseDriftLine, type BuiltinPresets } from './doctor-whale.ts'
export { storeLines } from './doctor-store.ts'

/**
 * The one doctor: every line of `cyrene doctor` and `/cyrene doctor`, gathered
 * from the rooms (doctor/ prints them). The command line loads this module
 * outside DSH, so it imports no DSH package (type-only imports are erased);
 * the chat command hands it the host service's state as plain data. Reads only.
 */

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
  /** Where row cyrene-panel seats its syncs and pairing code (host/service-seat.ts), when mounted. */
  seats?: { doctorState(): SeatsState } | undefined
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
    lines = hostServiceLines(state, lang, railDoctorLines(rails, lang), input.seats?.doctorState())
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
