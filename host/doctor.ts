import { closeSync, existsSync, openSync, readSync, statSync } from 'node:fs'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import {
  describeSnapshots,
  findRetiredPlugins,
  KEEP_OTHER_SNAPSHOTS,
  KEEP_SNAPSHOTS,
  journalRel,
  kindOfName,
  LAYOUT,
  listPending,
  MemoryStore,
  newVolumeCommand,
  readNightRecord,
  readRegistry,
  readVolumes,
  REGISTRY_FILE,
  resolveDshHome,
  resolveRoot,
  volumeDrift,
} from '../memory/index.ts'
import {
  lastLedgerRecords,
  loadReflexText,
  loadRenderInput,
  locationsFor,
  parseReflexRules,
  reflexLedgerFile,
  reflexProblems,
  renderSegments,
  resolveIn,
} from '../whale/index.ts'
import { compareBase, drifted, snapshotBases, type BaseCheck } from './base-drift.ts'
import { packagePath } from './package-root.ts'
import { PERSONA_SOURCES } from './persona-sources.ts'
import type { SyncState } from './panel/deps.ts'
import type { MirrorNote, VoiceNote } from './service.ts'
import { worldbookLines, type WorldbookNote } from './worldbook-doctor.ts'
import type { DreamState } from './night/service.ts'

/**
 * The one doctor: every line of `cyrene doctor` and `/cyrene doctor`, and how
 * they are printed. The command line loads this module outside DSH, so it
 * imports no DSH package (type-only imports are erased); the chat command
 * hands it the host service's state as plain data. Reads only.
 */

/** One doctor line: what was checked, how it stands, what to do. */
export interface DoctorLine {
  check: string
  status: 'ok' | 'warn' | 'fail' | 'missing'
  detail: string
  /** Details shown only by `--verbose` (one per line, under this line). */
  more?: string[]
}

const MARK: Record<DoctorLine['status'], string> = { ok: '✓', warn: '!', fail: '✗', missing: '…' }

export function doctorReport(lines: DoctorLine[], opts: { verbose?: boolean } = {}): string {
  const shown = (l: DoctorLine) => [`${MARK[l.status]} ${l.check}: ${l.detail}`, ...(opts.verbose === true ? (l.more ?? []).map((m) => `    ${m}`) : [])]
  const hint = !opts.verbose && lines.some((l) => (l.more ?? []).length > 0) ? ['（细节：--verbose）'] : []
  return [`昔涟 · 新卷 — doctor: ${doctorVerdict(lines)}`, ...lines.flatMap(shown), ...hint].join('\n')
}

/**
 * The first line, one sentence: all is well, or how many lines need a look
 * and the one to start with (the first ✗, else the first !), whose detail says
 * what to do. `…` lines (not built, not there yet) are not problems.
 */
function doctorVerdict(lines: readonly DoctorLine[]): string {
  const fails = lines.filter((l) => l.status === 'fail')
  const warns = lines.filter((l) => l.status === 'warn')
  const first = fails[0] ?? warns[0]
  if (first === undefined) return 'everything is fine (nothing failed, nothing to warn about).'
  const counts = [fails.length > 0 ? `${fails.length} ✗` : '', warns.length > 0 ? `${warns.length} !` : ''].filter((c) => c !== '').join(', ')
  return `${fails.length + warns.length === 1 ? 'one line needs' : `${fails.length + warns.length} lines need`} a look (${counts}); start with ${first.check}: ${first.detail}`
}

/** Where the doctor looks: a DSH_HOME (from env), the working folder, and the store root when configured. */
export interface DoctorIO {
  env: NodeJS.ProcessEnv
  cwd: string
  rootDir?: string | undefined
}

/** `cyrene doctor`: the files of a DSH_HOME as a person sees them from outside a chat. */
export async function cliDoctorLines(io: DoctorIO, builtins?: BuiltinPresets): Promise<DoctorLine[]> {
  return [
    ...(await storeLines(io)),
    ...(await retiredLines(io)),
    ...worldbookLines(io),
    ...whaleLines(io),
    ...(builtins === undefined ? [] : [baseDriftLine(builtins)]),
  ]
}

/**
 * The running DSH's built-in presets by id → their composition file, or why
 * they could not be found. The chat asks DSH's roster; the command line looks
 * for the DSH this package is installed with.
 */
export type BuiltinPresets = { found: Map<string, string>; dshVersion?: string | undefined } | { missing: string }

/** What `/cyrene doctor` needs from the DSH rows, narrowed to plain data and calls. */
export interface ChatDoctorInput {
  env: NodeJS.ProcessEnv
  cwd: string
  /** The `cyreneMemory` service, when mounted. */
  memory: { doctorState(): HostServiceState; config: { rootDir: string } } | undefined
  /** The whale row's service, when mounted. */
  whaleRow: WhaleRowState | undefined
  /** The store guard of the host row (CONTRACT §2.4), when mounted. */
  guard?: { doctorState(): StoreGuardState } | undefined
  /** The built-in presets of the DSH this runs in (from its roster). */
  builtins?: BuiltinPresets
  /** The night's service (host/night/), when mounted. */
  dream?: DreamState | undefined
}

/** `/cyrene doctor`: the host service's own lines, then the store as `cyrene doctor` sees it (quotas, snapshots, volume…). */
export async function chatDoctorLines(input: ChatDoctorInput): Promise<DoctorLine[]> {
  let lines: DoctorLine[]
  let worldbook: WorldbookNote | undefined
  try {
    const state = input.memory!.doctorState()
    worldbook = state.worldbook
    lines = hostServiceLines(state)
    lines.push(...dreamServiceLines(input.dream))
  } catch (error) {
    lines = [{ check: 'host service', status: 'fail', detail: String((error as Error).message ?? error) }]
  }
  const rootDir = input.memory?.config.rootDir
  const io = { env: input.env, cwd: input.cwd, rootDir: rootDir === '' ? undefined : rootDir }
  try {
    lines.push(...(await storeLines(io, { engine: false })), ...(await retiredLines(io)))
  } catch (error) {
    lines.push({ check: 'memory store', status: 'fail', detail: (error as Error).message })
  }
  const drift = input.builtins === undefined ? [] : [baseDriftLine(input.builtins)]
  return [
    ...lines,
    ...worldbookLines(io, worldbook ?? { hits: [] }),
    guardLine(input.guard?.doctorState()),
    ...drift,
    whaleRowLine(input.whaleRow),
    ...whaleLines(io, input.whaleRow?.reflex.ledgerError),
  ]
}

/** The store guard as plain data (host/store-guard.ts). */
export type StoreGuardState =
  | { kind: 'off'; detail: string }
  | { kind: 'on'; root: string; refusals: number; last: { at: string; tool: string; target: string } | undefined; checkErrors: number }

/** One line: whether the model's generic tools are kept out of 元/ and base entries, and how often they were refused. */
function guardLine(state: StoreGuardState | undefined): DoctorLine {
  const check = 'store guard'
  if (state === undefined)
    return {
      check,
      status: 'warn',
      detail: "not mounted: the model's write/edit/bash tools could change 元/ and base entries. Restart DSH with this plugin's bundle layer.",
    }
  if (state.kind === 'off') return { check, status: 'warn', detail: `off: ${state.detail}` }
  const last = state.last === undefined ? '' : `; last: ${state.last.tool} → ${state.last.target} at ${state.last.at}`
  const errors = state.checkErrors > 0 ? `; ${state.checkErrors} calls it could not check (refused when they named the store)` : ''
  return {
    check,
    status: state.checkErrors > 0 ? 'warn' : 'ok',
    detail: `on in every preset: the model's file, shell and program tools cannot change 元/, 锚/ or day files with base entries under ${state.root} (reads stay open); ${state.refusals} refused since start${last}${errors}`,
  }
}

/**
 * The presets were built on snapshots of DSH's built-in presets
 * (`modes/base/`, shipped): when the DSH running now has other capability
 * rows, a Cyrene preset lacks what its base gained (CONTRACT.md §6).
 */
export function baseDriftLine(builtins: BuiltinPresets, snapshotsDir = packagePath('modes', 'base')): DoctorLine {
  const check = 'base presets'
  const bases = snapshotBases(snapshotsDir)
  if (bases.length === 0) return { check, status: 'warn', detail: `no snapshots in ${snapshotsDir}: reinstall the plugin` }
  if ('missing' in builtins) return { check, status: 'missing', detail: `not compared: ${builtins.missing}` }
  const checks: BaseCheck[] = bases.map((base) => {
    const file = builtins.found.get(base)
    return file === undefined ? { base, problem: `the running DSH has no built-in preset "${base}"` } : compareBase(snapshotsDir, base, file)
  })
  const off = checks.filter(drifted)
  const dsh = builtins.dshVersion === undefined ? 'the running DSH' : `DSH ${builtins.dshVersion}`
  const more = checks.map((c) =>
    'problem' in c
      ? `${c.base}: ${c.problem}`
      : `${c.base}: snapshot of DSH ${c.snapshotVersion} vs ${c.file}: ${drifted(c) ? [rowList('new rows', c.added), rowList('rows gone', c.removed), rowList('rows changed', c.changed)].filter((t) => t !== '').join('; ') : 'the same rows'}`,
  )
  if (off.length === 0) return { check, status: 'ok', detail: `Cyrene presets stand on the same rows as ${dsh}'s built-in ${bases.join(', ')}`, more }
  const what = off.map((c) =>
    'problem' in c ? `${c.base} (${c.problem})` : `${c.base} (${c.added.length} new, ${c.removed.length} gone, ${c.changed.length} changed)`,
  )
  return {
    check,
    status: 'warn',
    detail: `${dsh}'s built-in ${what.join(', ')} differ from the snapshots the Cyrene presets were built on, so they may lack or misuse a capability: install a plugin version built for this DSH (in a checkout: npm run build -- --snapshot && npm run build)`,
    more,
  }
}

function rowList(label: string, ids: string[]): string {
  return ids.length === 0 ? '' : `${label} ${ids.join(', ')}`
}

const MB = 1024 * 1024
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`

/** The store as a person sees it from outside a chat; reads only. */
export async function storeLines(io: DoctorIO, opts: { engine: boolean } = { engine: true }): Promise<DoctorLine[]> {
  let root: string
  try {
    root = resolveRoot({ env: io.env, rootDir: io.rootDir })
  } catch (error) {
    return [{ check: 'memory root', status: 'fail', detail: (error as Error).message }]
  }
  if (!existsSync(root))
    return [
      {
        check: 'memory root',
        status: 'missing',
        detail: `${root} does not exist yet: it is created when DSH starts with this plugin, or by \`cyrene memory write\``,
      },
    ]
  const store = await MemoryStore.open({ env: io.env, rootDir: io.rootDir })
  const lines: DoctorLine[] = [{ check: 'memory root', status: 'ok', detail: root }]
  const engine = await store.engineStatus()
  if (opts.engine)
    lines.push(
      engine.held && engine.alive !== false
        ? {
            check: 'memory engine',
            status: 'ok',
            detail: `held by ${engine.owner?.purpose ?? 'an engine'} (pid ${engine.owner?.pid ?? '?'} on ${engine.owner?.host ?? '?'}) since ${engine.owner?.at ?? '?'}`,
          }
        : {
            check: 'memory engine',
            status: 'ok',
            detail: engine.held ? 'a stale lock of a process that is gone; the next DSH start takes it over' : 'free (no DSH running on this DSH_HOME)',
          },
    )
  const usage = await store.measureUsage(true)
  const { totalBytes, marginBytes } = store.limits
  const quota = (used: number, limit: number, what: string): DoctorLine => ({
    check: `quota: ${what}`,
    status: used >= limit ? 'fail' : used >= limit * 0.9 ? 'warn' : 'ok',
    detail: `${mb(used)} of ${mb(limit)}`,
  })
  lines.push(quota(usage.total, totalBytes, 'the whole store'), quota(usage.margin, marginBytes, '余页'))
  const anchors = Object.entries(store.settings.anchor)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')
  lines.push({
    check: 'limits',
    status: 'ok',
    detail: `entry ≤ ${store.limits.entryChars} chars, injected entry ≤ ${store.limits.injectChars}, anchors ${anchors} (元/settings.json)`,
  })
  for (const problem of store.settingsProblems) lines.push({ check: 'settings', status: 'warn', detail: problem })
  lines.push(personMarksLine(store))
  const snapshots = await describeSnapshots(store)
  const unverified = snapshots.filter((s) => !s.verified).map((s) => s.name)
  lines.push(
    snapshots.length === 0
      ? { check: 'snapshots', status: 'warn', detail: 'none yet: `cyrene backup` takes one now (DSH takes one a day while it runs)' }
      : { check: 'snapshots', status: 'ok', detail: snapshotsDetail(snapshots.map((s) => s.name)) },
  )
  if (unverified.length > 0)
    lines.push({
      check: 'snapshots',
      status: 'ok',
      detail: `unverified (taken before checksums; a restore checks their format only; they age out within a week): ${unverified.join(', ')}`,
    })
  try {
    const volumes = await readVolumes(store)
    lines.push({
      check: 'volume',
      status: 'ok',
      detail: volumes === undefined ? 'volume 0 is completed when DSH first starts' : `current volume ${volumes.current} of ${volumes.volumes.length}`,
    })
  } catch (error) {
    lines.push({ check: 'volume', status: 'fail', detail: (error as Error).message })
  }
  for (const drift of await personaDrift(store)) lines.push({ check: 'volume', status: 'warn', detail: drift })
  lines.push(...(await nightLines(store)))
  return lines
}

/** The night as the files record it: registry, last dream, a new-volume suggestion, tombstones (contract §4.3, §6, §7). */
async function nightLines(store: MemoryStore): Promise<DoctorLine[]> {
  const lines: DoctorLine[] = []
  const reg = await readRegistry(store)
  const sessions = Object.values(reg.registry.sessions)
  if (reg.problem !== undefined)
    lines.push({ check: 'dream registry', status: 'warn', detail: `${reg.problem}; DSH keeps it aside and starts afresh at its next start` })
  else
    lines.push({
      check: 'dream registry',
      status: 'ok',
      detail: `${sessions.length} session(s), ${sessions.filter((x) => x.enabled).length} in the night's dream (元/${REGISTRY_FILE}; /cyrene dream on|off)`,
    })
  let aside: string[] = []
  try {
    aside = (await readdir(join(store.root, LAYOUT.meta))).filter((n) => n.startsWith(`${REGISTRY_FILE}.corrupt-`))
  } catch {
    /* no 元/ yet */
  }
  if (aside.length > 0)
    lines.push({
      check: 'dream registry',
      status: 'warn',
      detail: `a corrupt registry was kept aside as 元/${aside.sort().at(-1)!} (${aside.length} in all); read it, then delete it`,
    })
  const { record, problem } = await readNightRecord(store)
  const last = record.runs.at(-1)
  if (problem !== undefined) lines.push({ check: 'dream', status: 'warn', detail: problem })
  lines.push(
    last === undefined
      ? { check: 'dream', status: 'missing', detail: 'no dream yet: the first one runs at the night time (default 23:30) while DSH runs, or now with /dream' }
      : {
          check: 'dream',
          status: last.outcome.startsWith('failed') ? 'warn' : 'ok',
          detail: `last night dreamt ${record.lastNight ?? '—'}; last run ${last.at} (${last.trigger}): ${last.outcome === 'journal' ? 'journal written' : last.outcome === 'no-output' ? '本次未产出' : last.outcome}; ${journalRel(last.night)}`,
        },
  )
  if (record.suggestion !== undefined)
    lines.push({
      check: 'new volume suggested',
      status: 'warn',
      detail: `the dream of ${record.suggestion.night} suggests a new volume: ${record.suggestion.reason} (${record.suggestion.changed}). Only you decide; to open one: ${newVolumeCommand(record.suggestion.reason)}`,
    })
  try {
    const pending = await listPending(store)
    const tombs = pending.filter((x) => x.record.tombstoned_at !== undefined)
    const open = pending.filter((x) => x.record.tombstoned_at === undefined && x.record.promoted_id === undefined)
    lines.push({
      check: '余页/待定',
      status: 'ok',
      detail: `${open.length} pending, re-checked by the first dream of each month (last month check ${record.lastMonthCheck ?? 'none yet'}); ${tombs.length} tombstoned${tombs.length > 0 ? ` (cyrene memory untomb ${tombs[0]!.id} brings one back)` : ''}`,
    })
  } catch (error) {
    lines.push({ check: '余页/待定', status: 'warn', detail: (error as Error).message })
  }
  return lines
}

/** What the running night service reports (timers, last outcome, snapshot errors). */
function dreamServiceLines(state: DreamState | undefined): DoctorLine[] {
  if (state === undefined)
    return [{ check: 'night', status: 'warn', detail: 'the night service is not mounted (row cyrene-host): no dreams, no daily snapshot while DSH runs' }]
  const lines: DoctorLine[] = [
    state.enabled
      ? {
          check: 'night',
          status: 'ok',
          detail: `dreams at ${state.at} local; host timer next looks at ${state.nextWakeAt ?? '—'}; nightly tasks of live sessions: ${state.tasks.length === 0 ? 'none' : state.tasks.join(', ')}`,
        }
      : { check: 'night', status: 'ok', detail: 'off in the config (dream.enabled); /dream still dreams on request' },
  ]
  if (state.lastOutcome !== undefined) lines.push({ check: 'night', status: 'ok', detail: `last: ${state.lastOutcome}` })
  if (state.lastError !== undefined) lines.push({ check: 'night', status: 'warn', detail: `last dream: ${state.lastError}` })
  if (state.registryProblem !== undefined) lines.push({ check: 'dream registry', status: 'warn', detail: state.registryProblem })
  if (state.snapshotError !== undefined) lines.push({ check: 'snapshots', status: 'warn', detail: `the daily snapshot failed: ${state.snapshotError}` })
  return lines
}

/** Daily and the other kinds are kept apart (7 daily, 5 others), so the doctor counts them apart. */
function snapshotsDetail(names: readonly string[]): string {
  const daily = names.filter((n) => kindOfName(n) === 'daily')
  const other = names.filter((n) => kindOfName(n) === 'other')
  const part = (list: readonly string[], keep: number, what: string) =>
    list.length === 0 ? `no ${what}` : `${list.length} ${what} (of ${keep} kept), newest ${list.at(-1)!}`
  return `${part(daily, KEEP_SNAPSHOTS, 'daily')}; ${part(other, KEEP_OTHER_SNAPSHOTS, 'manual/pre-restore/pre-migrate')}`
}

const AB_COMMAND = 'npm run persona:ab -- --base <the commit before the change>'

/**
 * A persona changed without a new volume, or a volume opened for a changed
 * persona without its A/B (contract §7, §9), is worth a doctor line, never a failure.
 */
async function personaDrift(store: MemoryStore): Promise<string[]> {
  try {
    const drift = await volumeDrift(store, PERSONA_SOURCES)
    if (drift.drift)
      return [
        `the persona or the five virtues changed since volume ${drift.current ?? '?'} was opened and has no A/B yet: run \`${AB_COMMAND}\` in the plugin's repository, read the report, then \`cyrene volume new --reason … --confirm new-volume --ab-report <report.md> --verdict keep|revert\``,
      ]
    const volumes = await readVolumes(store)
    const ordered = [...(volumes?.volumes ?? [])].sort((a, b) => a.id - b.id)
    const at = ordered.findIndex((v) => v.id === volumes?.current)
    const current = ordered[at]
    const previous = ordered[at - 1]
    // Only a volume whose persona differs from the one before it needed an A/B.
    if (current === undefined || previous === undefined || previous.persona_hash === current.persona_hash) return []
    if (current.ab?.change_fingerprint === drift.actual) return []
    return [
      `volume ${current.id} was opened for a changed persona without a persona A/B: run \`${AB_COMMAND}\` and keep the report with the change (contract §9)`,
    ]
  } catch (error) {
    return [`volume check: ${(error as Error).message}`]
  }
}

async function retiredLines(io: DoctorIO): Promise<DoctorLine[]> {
  try {
    const found = await findRetiredPlugins(resolveDshHome({ env: io.env }))
    return found.length === 0
      ? [{ check: 'retired plugins', status: 'ok', detail: 'none installed' }]
      : found.map((r) => ({
          check: 'retired plugins',
          status: 'fail' as const,
          detail: `${r.name} is installed in ${r.where}: back up, \`cyrene migrate --from …\`, then uninstall it`,
        }))
  } catch (error) {
    return [{ check: 'retired plugins', status: 'warn', detail: `could not look: ${(error as Error).message}` }]
  }
}

/** The whale-persona config: where it is and how much of it is injected. */
function whaleLines(io: DoctorIO, ledgerError?: string): DoctorLine[] {
  const ctx = { env: io.env, cwd: io.cwd }
  const where = locationsFor(ctx)
  const segments = renderSegments(loadRenderInput(ctx, {}))
  const { total, budget } = segments.measure
  const reflex = reflexLines(io, ledgerError)
  if (!existsSync(where.configFile))
    return [{ check: 'whale-persona', status: 'ok', detail: `no config at ${where.configFile}: nothing is injected` }, ...reflex]
  return [
    {
      check: 'whale-persona',
      status: budget.over ? 'warn' : 'ok',
      detail: `${where.configFile}: ${total} chars injected${budget.enabled && budget.max > 0 ? ` of a ${budget.max} budget${budget.over ? ' (over)' : ''}` : ''}`,
    },
    ...reflex,
  ]
}

/** How many of the newest ledger lines the doctor shows. */
const LAST_HITS = 3
/** The ledger only grows; its newest lines are in this many bytes at its end. */
const LEDGER_TAIL_BYTES = 16 * 1024

/** The reflex rules (spec §8): how many apply, what is wrong with the file, the newest hits of the ledger. */
function reflexLines(io: DoctorIO, ledgerError: string | undefined): DoctorLine[] {
  const fsCtx = { env: io.env, cwd: io.cwd }
  const loaded = loadReflexText(fsCtx)
  const file = resolveIn(fsCtx, loaded.file)
  if (loaded.off) return [{ check: 'reflex', status: 'ok', detail: `switched off by DSH_REFLEX_OFF=1 (${file}): nothing is matched` }]
  const lines: DoctorLine[] = []
  if (loaded.unreadable !== undefined) lines.push({ check: 'reflex', status: 'warn', detail: `${file} cannot be read (${loaded.unreadable}): no rule applies` })
  else if (loaded.text === null) lines.push({ check: 'reflex', status: 'ok', detail: `no rules at ${file}: nothing is added` })
  else {
    const rules = parseReflexRules(loaded.text)
    const mode = !rules.enabled ? ' (enabled: false, none applies)' : rules.dryRun ? ' (dryRun: hits are recorded, nothing is added)' : ''
    lines.push({ check: 'reflex', status: 'ok', detail: `${rules.rules.length} rule(s) in ${file}${mode}` })
    for (const problem of reflexProblems(loaded.text)) lines.push({ check: 'reflex', status: 'warn', detail: `${file}: ${problem}` })
  }
  if (ledgerError !== undefined) lines.push({ check: 'reflex', status: 'warn', detail: `the hit ledger could not be written: ${ledgerError}` })
  const hits = lastLedgerRecords(readTail(reflexLedgerFile(file), LEDGER_TAIL_BYTES), LAST_HITS)
  if (hits.length > 0)
    lines.push({
      check: 'reflex',
      status: 'ok',
      detail: `last hits: ${hits.map((h) => `${h.at} ${h.id} (${h.tier}${h.dryRun ? ', dry run' : ''}) ${JSON.stringify(h.excerpt)}`).join('; ')}`,
    })
  return lines
}

/** The last `bytes` of a file as text ('' when there is none); a first line cut in half is skipped by the reader. */
function readTail(file: string, bytes: number): string {
  let fd: number | undefined
  try {
    const size = statSync(file).size
    const length = Math.min(size, bytes)
    const buffer = Buffer.alloc(length)
    fd = openSync(file, 'r')
    readSync(fd, buffer, 0, length, size - length)
    return buffer.toString('utf8')
  } catch {
    return ''
  } finally {
    if (fd !== undefined) closeSync(fd)
  }
}

/** The whale row as `/cyrene doctor` sees it: its registrations that failed, if it is mounted. */
interface WhaleRowState {
  readonly failures: readonly string[]
  readonly reflex: { readonly ledgerError: string | undefined }
}

function whaleRowLine(whale: WhaleRowState | undefined): DoctorLine {
  if (whale === undefined)
    return { check: 'whale-persona', status: 'missing', detail: 'row not mounted: no whale-persona sections, /memory on|off unavailable' }
  if (whale.failures.length > 0)
    return { check: 'whale-persona', status: 'warn', detail: `registered with failures (another whale-persona plugin?): ${whale.failures.join('; ')}` }
  return { check: 'whale-persona', status: 'ok', detail: 'sections registered; config re-read at every assembly' }
}

/** The host service's state, as plain data: the service lives in DSH, its lines are written here. */
export interface HostServiceState {
  startedAt: Date
  engine:
    | { kind: 'starting' }
    | { kind: 'busy'; root: string; detail: string }
    | { kind: 'failed'; detail: string }
    | { kind: 'ready'; root: string; problems: readonly string[] }
  /** `{{cyrene_memory}}` at the latest assembly: its length, its budget, what was cut, a failed refresh. */
  memoryBlock: { chars: number; budget: number; cut: number; refreshError: string | undefined }
  recall:
    | { kind: 'off' }
    | { kind: 'building' }
    | { kind: 'failed'; detail: string }
    | {
        kind: 'ready'
        size: number
        /** Where the index runs: its own worker thread, or DSH's thread when a worker could not start. */
        where?: 'worker' | 'in-process'
        /** Why the file watcher cannot be trusted (each step then looks at every file), when it cannot. */
        watch?: string
      }
  /** The last recall problem (a failed refresh or search). */
  recallError: string | undefined
  mirror: MirrorNote | undefined
  /** What the worldbook rail and its hits did in this DSH run (runtime/worldbook-rail.ts). */
  worldbook?: WorldbookNote | undefined
  /** The 4,000 pass on the latest Cyrene assembly (rails, memory, pre-step blocks). */
  voice?: VoiceNote | undefined
  /** The SiYuan sync's state, when it runs in this process (row cyrene-panel). */
  sync?: SyncState | undefined
  /** The settings page's pairing code: where it was shown, and how often guesses replaced it (row cyrene-panel, web only). */
  pairing?: { shown: boolean; rotations: number } | undefined
}

function hostServiceLines(state: HostServiceState): DoctorLine[] {
  return [
    { check: 'host service', status: 'ok', detail: `cyreneMemory up since ${state.startedAt.toISOString()}` },
    ...engineLines(state),
    recallLine(state),
    voiceLine(state.voice),
    ...(state.voice?.problems ?? []).map((p): DoctorLine => ({ check: 'voice texts', status: 'warn', detail: p })),
    siyuanLine(state.sync),
    ...pairingLines(state.pairing),
    mirrorLine(state.mirror),
  ]
}

/** Whether the person can pair the settings page (CONTRACT §2.5): the code is shown only in a terminal. */
function pairingLines(pairing: HostServiceState['pairing']): DoctorLine[] {
  if (pairing === undefined) return []
  const guesses = pairing.rotations > 0 ? `; replaced ${pairing.rotations}× after wrong guesses (something tried to guess it)` : ''
  return [
    pairing.shown
      ? {
          check: 'settings page',
          status: pairing.rotations > 0 ? 'warn' : 'ok',
          detail: `every change needs the pairing code printed in the terminal DSH runs in${guesses}`,
        }
      : {
          check: 'settings page',
          status: 'warn',
          detail: `read-only: DSH's stderr is not a terminal, so no pairing code was shown; change settings with cyrene, or start DSH with CYRENE_PAIRING_STDERR=1 if only you read its log${guesses}`,
        },
  ]
}

/** One sentence on the 4,000 total: how much the latest step used, and each block the pass shortened or left out and why. */
function voiceLine(voice: VoiceNote | undefined): DoctorLine {
  if (voice === undefined) return { check: 'voice budget', status: 'missing', detail: 'no Cyrene step assembled yet' }
  const cut = voice.blocks.filter((b) => b.why !== undefined)
  const shown = voice.blocks.filter((b) => b.chars > 0).map((b) => `${b.id} ${b.chars}`)
  return {
    check: 'voice budget',
    status: cut.length > 0 ? 'warn' : 'ok',
    detail:
      `${voice.total}/${voice.budget} chars in the latest step (${shown.join(', ') || 'nothing'})` +
      (cut.length > 0 ? `; cut from the lowest priority: ${cut.map((b) => `${b.id} −${b.cut} (${b.why})`).join('; ')}` : '; nothing cut'),
  }
}

/** The SiYuan sync of this process (row cyrene-panel): off, waiting on SiYuan, or its last run. */
function siyuanLine(sync: SyncState | undefined): DoctorLine {
  if (sync === undefined) return { check: 'SiYuan sync', status: 'ok', detail: 'not running in this process (it runs where the memory engine is held)' }
  if (!sync.enabled) return { check: 'SiYuan sync', status: 'ok', detail: 'off (siyuan.enabled in 元/settings.json or the panel)' }
  const last = sync.lastReport
  if (last === undefined) return { check: 'SiYuan sync', status: 'ok', detail: 'on; no run yet' }
  return { check: 'SiYuan sync', status: last.ok ? 'ok' : 'warn', detail: `${sync.lastRunAt ?? ''} ${last.message}`.trim() }
}

function engineLines({ engine, memoryBlock: block }: HostServiceState): DoctorLine[] {
  switch (engine.kind) {
    case 'starting':
      return [{ check: 'memory engine', status: 'warn', detail: 'still starting' }]
    case 'busy':
      return [
        {
          check: 'memory engine',
          status: 'fail',
          detail: `${engine.root} is held by another engine (${engine.detail}); this process injects no memory. Close the other DSH, or run one DSH per DSH_HOME.`,
        },
      ]
    case 'failed':
      return [{ check: 'memory engine', status: 'fail', detail: `${engine.detail}; the turn goes on without memory` }]
    case 'ready':
      return [
        { check: 'memory engine', status: 'ok', detail: `${engine.root} (engine lock held by this process)` },
        ...engine.problems.map((p): DoctorLine => ({ check: 'memory store', status: 'warn', detail: p })),
        block.refreshError !== undefined
          ? { check: '{{cyrene_memory}}', status: 'warn', detail: `could not be refreshed: ${block.refreshError}` }
          : {
              check: '{{cyrene_memory}}',
              status: block.cut > 0 ? 'warn' : 'ok',
              detail: `${block.chars}/${block.budget} chars${block.cut > 0 ? `; ${block.cut} anchors or entries shortened or left out` : ''}`,
            },
      ]
  }
}

function recallLine({ recall, recallError }: HostServiceState): DoctorLine {
  if (recallError !== undefined) return { check: 'recall', status: 'warn', detail: `last search failed: ${recallError}; turns go on without hits` }
  switch (recall.kind) {
    case 'off':
      return { check: 'recall', status: 'missing', detail: "no index: the memory engine is not this process's" }
    case 'building':
      return { check: 'recall', status: 'warn', detail: 'index still building; no memory hits until it is ready' }
    case 'failed':
      return { check: 'recall', status: 'fail', detail: `index could not be built: ${recall.detail}` }
    case 'ready': {
      const where = recall.where === 'in-process' ? "in DSH's own thread (a worker could not start)" : 'in a worker thread'
      const detail = `${recall.size} entries indexed (Chinese and English; day entries, anchors, dreams, rollups) ${where}, hits added before each step`
      if (recall.watch !== undefined) return { check: 'recall', status: 'warn', detail: `${detail}; ${recall.watch}` }
      return { check: 'recall', status: recall.where === 'in-process' ? 'warn' : 'ok', detail }
    }
  }
}

const thousands = (n: number) => n.toLocaleString('en-US')

/**
 * One sentence a person understands (「工具说明 13 段 / 4,869 字，全部带上」);
 * which sections, their sizes and what was left out go behind --verbose.
 */
function mirrorLine(mirror: MirrorNote | undefined): DoctorLine {
  const check = 'section mirror'
  if (mirror === undefined) return { check, status: 'warn', detail: '还没有组装过昔涟的预设（开一个会话后再看）' }
  const guidance = mirror.mirrored.filter((m) => m.kind === 'guidance')
  const others = mirror.mirrored.filter((m) => m.kind === 'other')
  const lost = mirror.skipped.filter((s) => s.why.includes('used up'))
  const lostGuidance = lost.filter((s) => /^(tool|plan|ui):/.test(s.name))
  const cutOthers = others.filter((m) => m.cut > 0)
  const sum = (ms: typeof guidance) => thousands(ms.reduce((n, m) => n + m.text, 0))
  const parts = [
    `工具说明 ${guidance.length} 段 / ${sum(guidance)} 字，${lostGuidance.length === 0 ? '全部带上' : `另有 ${lostGuidance.length} 段超出上限没带上`}`,
  ]
  const lostOthers = lost.length - lostGuidance.length
  if (others.length > 0 || lostOthers > 0)
    parts.push(
      `其他插件的段 ${others.length} 段 / ${sum(others)} 字${cutOthers.length + lostOthers === 0 ? '，全部带上' : `，${cutOthers.length} 段截短、${lostOthers} 段没带上（预算已满）`}`,
    )
  const more = [
    ...mirror.mirrored.map(
      (m) =>
        `mirrored ${m.name}: ${thousands(m.text)} chars${m.cut > 0 ? `, cut ${m.cut}` : ''} (${m.kind === 'guidance' ? 'DSH guidance, whole' : 'other section, bounded'})`,
    ),
    ...mirror.skipped.map((s) => `skipped ${s.name}: ${s.why}`),
  ]
  return { check, status: lost.length > 0 || cutOthers.length > 0 ? 'warn' : 'ok', detail: parts.join('；'), more }
}

/** The person-marks record (CONTRACT §12.19): how many entries it backs; a claim without it is the model's. */
function personMarksLine(store: MemoryStore): DoctorLine {
  const { marks, problem } = store.marks()
  if (problem !== undefined)
    return { check: 'person marks', status: 'fail', detail: `${problem}: no entry counts as yours until it is restored (cyrene restore)` }
  const migrated = marks.migrated_at === undefined ? '' : `; ${marks.migrated ?? 0} taken over from older comments on ${marks.migrated_at.slice(0, 10)}`
  return {
    check: 'person marks',
    status: 'ok',
    detail: `${Object.keys(marks.entries).length} entries recorded as yours in 元/person-marks.json${migrated}; a "base"/"by: person" comment without a record counts as Cyrene's (cyrene memory marks, cyrene memory check)`,
  }
}
