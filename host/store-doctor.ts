import { existsSync } from 'node:fs'
import { describeSnapshots, findRetiredPlugins, MemoryStore, readVolumes, resolveDshHome, resolveRoot } from '../memory/index.ts'
import { loadRenderInput, locationsFor, renderSegments } from '../whale/index.ts'
import { personaDrift } from './persona-sources.ts'
import type { DoctorLine } from './service.ts'

/**
 * Doctor lines about the files of a DSH_HOME — root, engine holder, quotas,
 * settings, snapshots, volume, retired plugins, whale-persona — shared by
 * `cyrene doctor` and `/cyrene doctor`, so every limit shows in both. Reads only.
 */
export interface StoreDoctorIO { env: NodeJS.ProcessEnv; cwd: string; rootDir?: string | undefined }

const MB = 1024 * 1024
const mb = (bytes: number) => `${(bytes / MB).toFixed(1)} MB`

/** The store as a person sees it from outside a chat; reads only. */
export async function storeLines(io: StoreDoctorIO, opts: { engine: boolean } = { engine: true }): Promise<DoctorLine[]> {
  let root: string
  try {
    root = resolveRoot({ env: io.env, rootDir: io.rootDir })
  } catch (error) {
    return [{ check: 'memory root', status: 'fail', detail: (error as Error).message }]
  }
  if (!existsSync(root)) return [{ check: 'memory root', status: 'missing', detail: `${root} does not exist yet: it is created when DSH starts with this plugin, or by \`cyrene memory write\`` }]
  const store = await MemoryStore.open({ env: io.env, rootDir: io.rootDir })
  const lines: DoctorLine[] = [{ check: 'memory root', status: 'ok', detail: root }]
  const engine = await store.engineStatus()
  if (opts.engine) lines.push(engine.held && engine.alive !== false
    ? { check: 'memory engine', status: 'ok', detail: `held by ${engine.owner?.purpose ?? 'an engine'} (pid ${engine.owner?.pid ?? '?'} on ${engine.owner?.host ?? '?'}) since ${engine.owner?.at ?? '?'}` }
    : { check: 'memory engine', status: 'ok', detail: engine.held ? 'a stale lock of a process that is gone; the next DSH start takes it over' : 'free (no DSH running on this DSH_HOME)' })
  const usage = await store.measureUsage(true)
  const { totalBytes, marginBytes } = store.limits
  const quota = (used: number, limit: number, what: string): DoctorLine => ({
    check: `quota: ${what}`,
    status: used >= limit ? 'fail' : used >= limit * 0.9 ? 'warn' : 'ok',
    detail: `${mb(used)} of ${mb(limit)}`,
  })
  lines.push(quota(usage.total, totalBytes, 'the whole store'), quota(usage.margin, marginBytes, '余页'))
  const anchors = Object.entries(store.settings.anchor).map(([k, v]) => `${k} ${v}`).join(', ')
  lines.push({ check: 'limits', status: 'ok', detail: `entry ≤ ${store.limits.entryChars} chars, injected entry ≤ ${store.limits.injectChars}, anchors ${anchors} (元/settings.json)` })
  for (const problem of store.settingsProblems) lines.push({ check: 'settings', status: 'warn', detail: problem })
  const snapshots = await describeSnapshots(store)
  const unverified = snapshots.filter((s) => !s.verified).map((s) => s.name)
  lines.push(snapshots.length === 0
    ? { check: 'snapshots', status: 'warn', detail: 'none yet: `cyrene backup` takes one now (DSH takes one a day while it runs)' }
    : { check: 'snapshots', status: 'ok', detail: `${snapshots.length} kept, newest ${snapshots.at(-1)!.name}` })
  if (unverified.length > 0) lines.push({ check: 'snapshots', status: 'ok', detail: `unverified (taken before checksums; a restore checks their format only; they age out within a week): ${unverified.join(', ')}` })
  try {
    const volumes = await readVolumes(store)
    lines.push({ check: 'volume', status: 'ok', detail: volumes === undefined ? 'volume 0 is completed when DSH first starts' : `current volume ${volumes.current} of ${volumes.volumes.length}` })
  } catch (error) {
    lines.push({ check: 'volume', status: 'fail', detail: (error as Error).message })
  }
  for (const drift of await personaDrift(store)) lines.push({ check: 'volume', status: 'warn', detail: drift })
  return lines
}

export async function retiredLines(io: StoreDoctorIO): Promise<DoctorLine[]> {
  try {
    const found = await findRetiredPlugins(resolveDshHome({ env: io.env }))
    return found.length === 0
      ? [{ check: 'retired plugins', status: 'ok', detail: 'none installed' }]
      : found.map((r) => ({ check: 'retired plugins', status: 'fail' as const, detail: `${r.name} is installed in ${r.where}: back up, \`cyrene migrate --from …\`, then uninstall it` }))
  } catch (error) {
    return [{ check: 'retired plugins', status: 'warn', detail: `could not look: ${(error as Error).message}` }]
  }
}

export function whaleLines(io: StoreDoctorIO): DoctorLine[] {
  const ctx = { env: io.env, cwd: io.cwd }
  const where = locationsFor(ctx)
  const segments = renderSegments(loadRenderInput(ctx, {}))
  const { total, budget } = segments.measure
  if (!existsSync(where.configFile)) return [{ check: 'whale-persona', status: 'ok', detail: `no config at ${where.configFile}: nothing is injected` }]
  return [{
    check: 'whale-persona',
    status: budget.over ? 'warn' : 'ok',
    detail: `${where.configFile}: ${total} chars injected${budget.enabled && budget.max > 0 ? ` of a ${budget.max} budget${budget.over ? ' (over)' : ''}` : ''}`,
  }]
}

