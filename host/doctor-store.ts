import { gitLines } from '../gitsync/index.ts'
import { existsSync } from 'node:fs'
import { lockShape, lockState, processStopped } from '../durable/lock.ts'
import { heldList, windowsOpenElsewhere } from '../durable/guard-window.ts'
import { frozenLine, putBackLine } from '../guard/index.ts'
import { linkTarget } from '../memory/files.ts'
import { join } from 'node:path'
import { t, type Lang } from '../i18n/index.ts'
import { errorText, saidOr } from '../i18n/store-said.ts'
import {
  checkStore,
  deniedPlace,
  describeSnapshots,
  findRetiredPlugins,
  KEEP_OTHER_SNAPSHOTS,
  KEEP_SNAPSHOTS,
  kindOfName,
  snapshotDamage,
  type CheckReport,
} from '../memory/upkeep.ts'
import { MemoryStore } from '../memory/index.ts'
import { readVolumes, volumeDrift } from '../memory/person.ts'
import { LAYOUT, resolveDshHome, resolveRoot, WRITE_LOCK } from '../memory/paths.ts'
import { messageOf, type DoctorIO, type DoctorLine } from '../doctor/index.ts'
import { PERSONA_SOURCES } from './persona-sources.ts'
import { recordLines as nightRecordLines } from '../night/index.ts'

/** The doctor's lines on the store's files, as `cyrene doctor` and `/cyrene doctor` both see them; reads only. */

const MB = 1024 * 1024
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`

export async function storeLines(io: DoctorIO, lang: Lang, opts: { engine: boolean } = { engine: true }): Promise<DoctorLine[]> {
  const rootCheck = t('doctor.check.root', lang)
  let root: string
  try {
    root = resolveRoot({ env: io.env, rootDir: io.rootDir })
  } catch (error) {
    return [{ area: 'memory', check: rootCheck, status: 'fail', detail: messageOf(error) }]
  }
  if (!existsSync(root)) {
    // A link to a disk that is not mounted is no store "not made yet": the memory is there, out of reach.
    const target = linkTarget(root)
    if (target !== undefined) return [{ area: 'memory', check: rootCheck, status: 'fail', detail: t('doctor.root.danglingLink', lang, { root, target }) }]
    return [{ area: 'memory', check: rootCheck, status: 'missing', detail: t('doctor.root.missing', lang, { root }) }]
  }
  // A store the system will not let us read (a link in a circle, a folder we may not enter) is one failed line; the other areas still report.
  try {
    return await openedStoreLines(root, rootCheck, io, lang, opts)
  } catch (error) {
    return [{ area: 'memory', check: rootCheck, status: 'fail', detail: t('doctor.root.unreadable', lang, { root, error: messageOf(error) }) }]
  }
}

async function openedStoreLines(root: string, rootCheck: string, io: DoctorIO, lang: Lang, opts: { engine: boolean }): Promise<DoctorLine[]> {
  const store = await MemoryStore.open({ env: io.env, rootDir: io.rootDir })
  // What `memory check` finds is what the doctor reports: its errors (which make it exit 1) are failures here (decision 290).
  let report: CheckReport | undefined
  let checkError: unknown
  try {
    report = await checkStore(store)
  } catch (error) {
    // A file it may not read (a mode set by hand): check refuses too; the lines below still say what they can.
    checkError = error
  }
  const { day, pending } = report?.stats ?? countsOf((await store.scan()).entries)
  const lines: DoctorLine[] = [
    {
      area: 'memory',
      check: rootCheck,
      status: 'ok',
      detail: t('doctor.root.ok', lang, { root, n: day, pending }),
      summary: t('doctor.memory.summary', lang, { n: day }),
    },
  ]
  const denied = deniedPlace(root)
  if (denied !== undefined)
    lines.push({ area: 'memory', check: t('doctor.check.access', lang), status: 'fail', detail: t('doctor.access.denied', lang, denied) })
  const checkLine =
    report === undefined
      ? {
          area: 'memory' as const,
          check: t('doctor.check.files', lang),
          status: 'fail' as const,
          detail: t('doctor.files.checkFailed', lang, { error: errorText(checkError, lang) }),
        }
      : checkErrorsLine(report, lang)
  if (checkLine !== undefined) lines.push(checkLine)
  const writeLock = await writeLockLine(root, store.settings.values.lock.waitSeconds * 1000, lang)
  if (writeLock !== undefined) lines.push(writeLock)
  const putBack = putBackLine(root, lang)
  if (putBack !== undefined) lines.push(putBack)
  const frozen = frozenLine(root, lang)
  if (frozen !== undefined) lines.push(frozen)
  if (opts.engine) lines.push(await engineLine(store, lang))
  // The check has just measured the store; only when it could not run is it measured here.
  const usage = report === undefined ? await store.measureUsage(true) : { total: report.stats.bytes, margin: report.stats.marginBytes }
  const { totalBytes, marginBytes } = store.limits
  const quota = (used: number, limit: number, what: 'total' | 'margin'): DoctorLine => {
    const detail = t(what === 'total' ? 'doctor.quota.total' : 'doctor.quota.margin', lang, { used: mb(used), limit: mb(limit) })
    if (used >= limit) return { area: 'memory', check: t('doctor.check.quota', lang), status: 'fail', detail: `${detail}${t('doctor.quota.full', lang)}` }
    if (used >= limit * 0.9) return { area: 'memory', check: t('doctor.check.quota', lang), status: 'warn', detail: `${detail}${t('doctor.quota.near', lang)}` }
    return { area: 'memory', check: t('doctor.check.quota', lang), status: 'ok', detail }
  }
  lines.push(quota(usage.total, totalBytes, 'total'), quota(usage.margin, marginBytes, 'margin'))
  const anchors = Object.entries(store.settings.anchor)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')
  lines.push({
    area: 'memory',
    check: t('doctor.check.limits', lang),
    status: 'ok',
    detail: t('doctor.limits', lang, {
      entry: store.limits.entryChars,
      inject: store.limits.injectChars,
      anchors,
      wait: store.settings.values.lock.waitSeconds,
    }),
  })
  for (const [i, english] of store.settingsProblems.entries()) {
    const problem = saidOr(store.settingsSaid[i], english, lang)
    lines.push({ area: 'memory', check: t('doctor.check.settings', lang), status: 'warn', detail: t('doctor.settings.problem', lang, { problem }) })
  }
  lines.push(personMarksLine(store, lang))
  lines.push(...(await snapshotLines(store, lang)))
  try {
    const volumes = await readVolumes(store)
    lines.push({
      area: 'memory',
      check: t('doctor.check.volume', lang),
      status: 'ok',
      detail: volumes === undefined ? t('doctor.volume.none', lang) : t('doctor.volume.current', lang, { id: volumes.current, n: volumes.volumes.length }),
    })
  } catch (error) {
    lines.push({ area: 'memory', check: t('doctor.check.volume', lang), status: 'fail', detail: errorText(error, lang) })
  }
  for (const drift of await personaDrift(store, lang)) lines.push({ area: 'memory', check: t('doctor.check.volume', lang), status: 'warn', detail: drift })
  lines.push(...(await nightRecordLines(store, lang)))
  lines.push(...(await gitLines(store, lang)))
  return lines
}

function countsOf(entries: readonly { area: string }[]): { day: number; pending: number } {
  const day = entries.filter((e) => e.area === 'day').length
  return { day, pending: entries.length - day }
}

/** Check's errors the doctor words in lines of its own (the same function, the same record): not counted twice. */
const OWN_LINES = new Set(['access', 'person-marks', 'quota'])

/** `memory check`'s errors (it exits 1 on them) as one failed line: how many, and the first with where it is. */
function checkErrorsLine(report: CheckReport, lang: Lang): DoctorLine | undefined {
  const errors = report.errors.filter((f) => !OWN_LINES.has(f.code))
  const first = errors[0]
  if (first === undefined) return undefined
  const where = first.file === undefined ? '' : `${first.file}${first.line === undefined ? '' : `:${first.line}`}: `
  return {
    area: 'memory',
    check: t('doctor.check.files', lang),
    status: 'fail',
    detail: t('doctor.files.errors', lang, { n: errors.length, first: `${where}${saidOr(first.said, first.message, lang)}` }),
  }
}

/**
 * The write lock when it keeps every write waiting: a holder on this host that is stopped
 * (SIGSTOP, Ctrl-Z), a link or a file where its folder goes, or another process's tool call window
 * open longer than a write waits. Undefined while it is free or a write is under way.
 */
async function writeLockLine(root: string, waitMs: number, lang: Lang): Promise<DoctorLine | undefined> {
  const lock = join(root, LAYOUT.meta, WRITE_LOCK)
  const check = t('doctor.check.writeLock', lang)
  const shape = lockShape(lock)
  if (shape !== undefined) return { area: 'memory', check, status: 'fail', detail: t('doctor.writeLock.shape', lang, { lock, shape }) }
  const state = await lockState(lock)
  const pid = state.owner?.pid
  if (state.alive === true && pid !== undefined && processStopped(pid))
    return { area: 'memory', check, status: 'warn', detail: t('doctor.writeLock.stopped', lang, { pid: String(pid) }) }
  // Another process's store guard window (decision 295) open longer than a write waits: every write from here refuses meanwhile.
  const long = windowsOpenElsewhere(join(root, LAYOUT.meta)).find((w) => Date.now() - Date.parse(w.since) > waitMs)
  if (long === undefined) return undefined
  const params = { pid: String(long.pid), since: long.since, mark: long.file }
  const detail =
    long.held.length === 0 ? t('doctor.guardWindow.long', lang, params) : t('doctor.guardWindow.held', lang, { ...params, processes: heldList(long.held) })
  return { area: 'memory', check, status: 'warn', detail }
}

async function engineLine(store: MemoryStore, lang: Lang): Promise<DoctorLine> {
  const check = t('doctor.check.engine', lang)
  const engine = await store.engineStatus()
  if (engine.held && engine.alive !== false)
    return {
      area: 'memory',
      check,
      status: 'ok',
      detail: t('doctor.engine.heldBy', lang, {
        purpose: engine.owner?.purpose ?? '?',
        pid: engine.owner?.pid ?? '?',
        host: engine.owner?.host ?? '?',
        at: engine.owner?.at ?? '?',
      }),
    }
  return { area: 'memory', check, status: 'ok', detail: t(engine.held ? 'doctor.engine.stale' : 'doctor.engine.free', lang) }
}

/**
 * Daily and the other kinds are kept apart (7 daily, 5 others), so the doctor counts them apart. A
 * snapshot a restore would refuse (a file changed, cut or missing since it was taken) is not
 * counted as kept: it is named as damaged, by the restore's own check (decision 290).
 */
async function snapshotLines(store: MemoryStore, lang: Lang): Promise<DoctorLine[]> {
  const check = t('doctor.check.snapshots', lang)
  const all = await describeSnapshots(store)
  if (all.length === 0) return [{ area: 'backup', check, status: 'warn', detail: t('doctor.snapshots.none', lang) }]
  const damaged: { name: string; why: string }[] = []
  const snapshots: typeof all = []
  for (const s of all) {
    const why = await damageOf(join(store.snapshotsDir, s.name), lang)
    if (why === undefined) snapshots.push(s)
    else damaged.push({ name: s.name, why })
  }
  const lines: DoctorLine[] = []
  const names = snapshots.map((s) => s.name)
  const daily = names.filter((n) => kindOfName(n) === 'daily')
  const other = names.filter((n) => kindOfName(n) === 'other')
  const part = (
    list: readonly string[],
    keep: number,
    none: 'doctor.snapshots.noDaily' | 'doctor.snapshots.noOther',
    some: 'doctor.snapshots.daily' | 'doctor.snapshots.other',
  ) => (list.length === 0 ? t(none, lang) : t(some, lang, { n: list.length, keep, newest: list.at(-1)! }))
  if (snapshots.length > 0)
    lines.push({
      area: 'backup',
      check,
      status: 'ok',
      detail: `${part(daily, KEEP_SNAPSHOTS, 'doctor.snapshots.noDaily', 'doctor.snapshots.daily')}${t('doctor.sep', lang)}${part(other, KEEP_OTHER_SNAPSHOTS, 'doctor.snapshots.noOther', 'doctor.snapshots.other')}`,
      summary: t('doctor.snapshots.summary', lang, { n: snapshots.length, newest: names.at(-1)! }),
    })
  if (damaged.length > 0)
    lines.push({
      area: 'backup',
      check,
      status: 'warn',
      detail: t(snapshots.length === 0 ? 'doctor.snapshots.allDamaged' : 'doctor.snapshots.damaged', lang, {
        n: damaged.length,
        names: damaged.map((d) => d.name).join(', '),
        first: `${damaged[0]!.name}: ${damaged[0]!.why}`,
      }),
    })
  const unverified = snapshots.filter((s) => !s.verified).map((s) => s.name)
  if (unverified.length > 0)
    lines.push({ area: 'backup', check, status: 'ok', detail: t('doctor.snapshots.unverified', lang, { names: unverified.join(', ') }) })
  return lines
}

/** Why a restore would refuse this snapshot (its first problem; one it cannot read is damaged too), or undefined. */
async function damageOf(dir: string, lang: Lang): Promise<string | undefined> {
  try {
    const first = (await snapshotDamage(dir))[0]
    return first === undefined ? undefined : saidOr(first.said, first.en, lang)
  } catch (error) {
    return errorText(error, lang)
  }
}

const AB_COMMAND = 'npm run persona:ab -- --base <commit>'

/**
 * A persona changed without a new volume, or a volume opened for a changed
 * persona without its A/B (CONTRACT#volumes, CONTRACT#persona-ab), is worth a doctor line, never a failure.
 */
async function personaDrift(store: MemoryStore, lang: Lang): Promise<string[]> {
  try {
    const drift = await volumeDrift(store, PERSONA_SOURCES)
    if (drift.drift) return [t('doctor.volume.drift', lang, { id: drift.current ?? '?', ab: AB_COMMAND })]
    const volumes = await readVolumes(store)
    const ordered = [...(volumes?.volumes ?? [])].sort((a, b) => a.id - b.id)
    const at = ordered.findIndex((v) => v.id === volumes?.current)
    const current = ordered[at]
    const previous = ordered[at - 1]
    // Only a volume whose persona differs from the one before it needed an A/B.
    if (current === undefined || previous === undefined || previous.persona_hash === current.persona_hash) return []
    if (current.ab?.change_fingerprint === drift.actual) return []
    return [t('doctor.volume.noAb', lang, { id: current.id, ab: AB_COMMAND })]
  } catch (error) {
    return [t('doctor.volume.checkFailed', lang, { error: errorText(error, lang) })]
  }
}

export async function retiredLines(io: DoctorIO, lang: Lang): Promise<DoctorLine[]> {
  const check = t('doctor.check.retired', lang)
  try {
    const found = await findRetiredPlugins(resolveDshHome({ env: io.env }))
    return found.length === 0
      ? [{ area: 'plugins', check, status: 'ok', detail: t('doctor.retired.none', lang), summary: t('doctor.retired.none', lang) }]
      : found.map((r) => ({
          area: 'plugins' as const,
          check,
          status: 'fail' as const,
          detail: t('doctor.retired.found', lang, { name: r.name, where: r.where }),
        }))
  } catch (error) {
    return [{ area: 'plugins', check, status: 'warn', detail: t('doctor.retired.couldNot', lang, { error: messageOf(error) }) }]
  }
}

/** The person-marks record (CONTRACT#person-marks): how many entries it backs; a claim without it is the model's. */
function personMarksLine(store: MemoryStore, lang: Lang): DoctorLine {
  const check = t('doctor.check.marks', lang)
  const { marks, problem, problemSaid } = store.marks()
  if (problem !== undefined)
    return { area: 'memory', check, status: 'fail', detail: t('doctor.marks.problem', lang, { problem: saidOr(problemSaid, problem, lang) }) }
  const migrated = marks.migrated_at === undefined ? '' : t('doctor.marks.migrated', lang, { n: marks.migrated ?? 0, date: marks.migrated_at.slice(0, 10) })
  return { area: 'memory', check, status: 'ok', detail: t('doctor.marks.ok', lang, { n: Object.keys(marks.entries).length }) + migrated }
}
