import { claimEngine } from './engine-lock.ts'
import { findRetiredPlugins } from './migrate.ts'
import { resolveDshHome } from './paths.ts'
import { snapshotIfDue, type SnapshotInfo } from './snapshots.ts'
import { MemoryStore, type OpenOptions } from './store.ts'
import { migrateMarks } from './person-marks.ts'
import { ensureVolumePersonaHash, type PersonaSource, type VolumesFile } from './volumes.ts'

/**
 * Open the store as the running engine of this DSH_HOME (the DSH host does
 * this once). A second engine is refused with EngineBusyError, never shared.
 * Command-line tools use `MemoryStore.open` and share the per-write lock.
 */
export async function openEngine(opts: OpenOptions = {}): Promise<MemoryStore> {
  const store = await MemoryStore.open(opts)
  await claimEngine(store)
  return store
}

export interface EngineStart {
  store: MemoryStore
  volumes: VolumesFile | undefined
  snapshot: SnapshotInfo | undefined
  /** Things `/cyrene doctor` should show; none of them stops the engine. */
  problems: string[]
}

/**
 * What the DSH host calls once at start: open the store as the engine of this
 * DSH_HOME (a second engine throws EngineBusyError), complete the current
 * volume's persona fingerprint, take today's snapshot if due, and collect
 * what doctor should report. Fails open on everything but the engine lock:
 * a broken 卷.json or a failed snapshot is a problem to show, not a dead host.
 */
export async function startEngine(opts: OpenOptions & { persona?: readonly PersonaSource[] } = {}): Promise<EngineStart> {
  const store = await openEngine(opts)
  const problems = [...store.settingsProblems]
  let volumes: VolumesFile | undefined
  if (opts.persona !== undefined && opts.persona.length > 0) {
    try {
      volumes = await ensureVolumePersonaHash(store, opts.persona)
    } catch (e) {
      problems.push(`volume: ${(e as Error).message}`)
    }
  }
  try {
    // Once, for a store older than the person-marks record (CONTRACT#person-marks); before the snapshot, so today's holds it.
    const migrated = await migrateMarks(store)
    if (migrated !== undefined && migrated > 0)
      problems.push(
        `person marks: ${migrated} existing entries that say they are the person's were recorded as the person's once; review them with \`cyrene memory marks\``,
      )
  } catch (e) {
    problems.push(`person marks: ${(e as Error).message}`)
  }
  const marksProblem = store.marks().problem
  if (marksProblem !== undefined) problems.push(`person marks: ${marksProblem}; no entry reads as the person's until it is restored`)
  let snapshot: SnapshotInfo | undefined
  try {
    snapshot = await snapshotIfDue(store)
  } catch (e) {
    problems.push(`snapshot: ${(e as Error).message}`)
  }
  try {
    for (const r of await findRetiredPlugins(resolveDshHome(opts))) problems.push(`retired plugin ${r.name} is installed in ${r.where}; uninstall it`)
  } catch {
    /* no DSH_HOME to look in (rootDir given without one) */
  }
  return { store, volumes, snapshot, problems }
}
