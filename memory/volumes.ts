import { createHash } from 'node:crypto'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { readRegularFileSync } from '../durable/read-regular.ts'
import type { AbReview } from './ab-review.ts'
import { audit } from './audit.ts'
import { ensureDir, fsyncDir, inspectBelow, linkRefusal } from './fsio.ts'
import { LAYOUT } from './paths.ts'
import type { StoreCore } from './store-core.ts'
import { RefusedError, type Writer } from './validate.ts'

/**
 * Volumes (卷, CONTRACT#volumes). 元/卷.json records each volume with the
 * fingerprint of the persona it started with. Only a person opens a volume;
 * opening records and snapshots, it never edits persona text.
 */
const VOLUMES_FILE = '卷.json'
export const CONFIRM_WORD = 'new-volume'

export interface Volume {
  id: number
  started_at: string
  reason: string
  persona_hash: string
  wuyu_version: string
  /** The persona A/B this volume was opened with (CONTRACT#persona-ab), when one was attached. */
  ab?: AbReview
}
export interface VolumesFile {
  current: number
  volumes: Volume[]
}

/** A persona file: `name` is how it is stored in the snapshot and hashed (e.g. "persona/chat.md"). */
export interface PersonaSource {
  name: string
  path: string
}

/** sha256 over sorted (name, content) pairs; the name is hashed so a rename changes the print. */
export async function personaFingerprint(sources: readonly PersonaSource[]): Promise<string> {
  if (sources.length === 0) throw new RefusedError('no-persona', 'no persona files were found to fingerprint; pass the persona folder', { variant: 'none' })
  const h = createHash('sha256')
  for (const s of [...sources].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))) {
    let content: Buffer
    try {
      // A FIFO or a device named as a persona file would stop the command here for good: a regular file only.
      content = readRegularFileSync(s.path, true)
    } catch (e) {
      throw new RefusedError('no-persona', `cannot read persona file ${s.path}: ${(e as Error).message}`, {
        variant: 'unreadable',
        path: s.path,
        error: (e as Error).message,
      })
    }
    h.update(`${s.name}\0${content.length}\0`)
    h.update(content)
  }
  return `sha256:${h.digest('hex')}`
}

async function wuyuVersionOf(sources: readonly PersonaSource[]): Promise<string> {
  const w = sources.find((s) => s.name.endsWith('wuyu.md'))
  if (w === undefined) return ''
  return `sha256:${createHash('sha256').update(readRegularFileSync(w.path, true)).digest('hex').slice(0, 16)}`
}

/** Pure validation of 元/卷.json content. */
function validateVolumes(v: unknown): VolumesFile {
  const bad = (why: string, code: string, params: Record<string, string> = {}): never => {
    throw new RefusedError('meta-json', `元/${VOLUMES_FILE} is not a valid volume index (${why}); fix it by hand or restore it from a snapshot`, {
      variant: 'volumes',
      file: `元/${VOLUMES_FILE}`,
      why: { code: `part.volumes.${code}`, params },
    })
  }
  if (v === null || typeof v !== 'object') bad('not an object', 'not-object')
  const o = v as Record<string, unknown>
  if (typeof o.current !== 'number' || !Array.isArray(o.volumes)) bad('needs "current" and "volumes"', 'fields')
  for (const x of o.volumes as unknown[]) {
    const vol = x as Record<string, unknown>
    if (typeof vol?.id !== 'number' || typeof vol.started_at !== 'string') bad('each volume needs id and started_at', 'volume')
  }
  if (!(o.volumes as Volume[]).some((x) => x.id === o.current))
    bad(`current volume ${String(o.current)} is not listed`, 'current', { current: String(o.current) })
  return o as unknown as VolumesFile
}

/** The volume new entries are written into (`vol`), or undefined before there is a 卷.json; lenient: a broken file gives undefined. */
export async function currentVolume(store: StoreCore): Promise<number | undefined> {
  const { value } = await store.readMetaJson<{ current?: unknown }>(VOLUMES_FILE, {})
  return typeof value.current === 'number' ? value.current : undefined
}

/** `forRewrite`: read to be written back, so a file that is not UTF-8 is refused (its bytes would change). */
export async function readVolumes(store: StoreCore, forRewrite = false): Promise<VolumesFile | undefined> {
  const { value, problem, problemSaid } = await store.readMetaJson<unknown>(VOLUMES_FILE, undefined, { forRewrite })
  if (problem !== undefined)
    throw new RefusedError('meta-json', `${problem}; fix it by hand or restore it from a snapshot — nothing was changed`, {
      variant: 'volumes-json',
      problem: problemSaid!,
    })
  return value === undefined ? undefined : validateVolumes(value)
}

function volumeDirRel(id: number): string {
  return `${LAYOUT.meta}/卷/${String(id).padStart(3, '0')}/persona`
}

/** Copy persona files to 元/卷/NNN/persona/ and make them read-only (0400 files, 0500 folder). Skips if present. */
async function snapshotPersona(store: StoreCore, id: number, sources: readonly PersonaSource[]): Promise<boolean> {
  const dir = store.path(volumeDirRel(id))
  // 元/卷 or a volume's folder a link: the copy would land (or be found) wherever it points (CONTRACT#no-links).
  const found = await inspectBelow(store.root, dir)
  if (found.kind === 'link') throw linkRefusal(found.rel)
  if (found.kind !== 'missing') return false
  const tmp = `${dir}.tmp-${process.pid}`
  await fs.rm(tmp, { recursive: true, force: true })
  try {
    for (const s of sources) {
      const target = join(tmp, s.name)
      await ensureDir(join(target, '..'))
      await fs.copyFile(s.path, target)
      const fh = await fs.open(target, 'r')
      try {
        await fh.sync()
      } finally {
        await fh.close()
      }
      await fs.chmod(target, 0o400)
    }
    await ensureDir(join(dir, '..'))
    await fs.rename(tmp, dir)
  } catch (error) {
    // A half copy (a full disk) is not left for nothing to clean up.
    await fs.rm(tmp, { recursive: true, force: true }).catch(() => undefined)
    throw error
  }
  await fsyncDir(join(dir, '..'))
  await fs.chmod(dir, 0o500)
  return true
}

/**
 * First start: record volume 0 with the persona fingerprint; later starts fill
 * an empty fingerprint (补章). Idempotent. Run by the host or migrate.
 */
export async function ensureVolumePersonaHash(store: StoreCore, sources: readonly PersonaSource[]): Promise<VolumesFile> {
  const hash = await personaFingerprint(sources)
  const wuyu = await wuyuVersionOf(sources)
  return await store.withWriteLock(async (lock) => {
    let vols = await readVolumes(store, true)
    let changed = false
    if (vols === undefined) {
      vols = { current: 0, volumes: [{ id: 0, started_at: store.now().toISOString(), reason: '卷零：首次启动', persona_hash: hash, wuyu_version: wuyu }] }
      changed = true
    } else {
      const cur = vols.volumes.find((v) => v.id === vols!.current)!
      if (typeof cur.persona_hash !== 'string' || cur.persona_hash === '') {
        cur.persona_hash = hash
        cur.wuyu_version = cur.wuyu_version || wuyu
        changed = true
      }
    }
    if (changed) {
      await store.writeMetaJson(VOLUMES_FILE, vols, lock)
      await audit(store, { op: 'volume-complete', volume: vols.current, persona_hash: hash, by: 'engine' })
    }
    const cur = vols.volumes.find((v) => v.id === vols!.current)!
    if (cur.persona_hash === hash) await snapshotPersona(store, vols.current, sources)
    return vols
  })
}

export interface OpenVolumeInput {
  reason: string
  confirm: string
  sources: readonly PersonaSource[]
  /** Checks an attached A/B report against the fingerprint the volume opens with; throws to refuse. */
  ab?: (fingerprint: string) => AbReview
}

/** A volume's reason is as long as an entry's may be. */
const VOLUME_REASON_MAX = 200
// eslint-disable-next-line no-control-regex
const VOLUME_REASON_BREAK = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

/** Open the next volume. A person only, with the confirmation word; persona text is never touched. */
export async function openVolume(store: StoreCore, input: OpenVolumeInput, ctx: { by: Writer }): Promise<Volume> {
  if (ctx.by !== 'person')
    throw new RefusedError('person-only', 'only a person opens a new volume; the companion may suggest it in the dream journal', { variant: 'volume' })
  if (input.confirm !== CONFIRM_WORD)
    throw new RefusedError(
      'confirm',
      `opening a volume is for big changes (persona text, the five virtues, the storage format). To go ahead, add --confirm ${CONFIRM_WORD}`,
      { variant: 'volume', word: CONFIRM_WORD },
    )
  const reason = typeof input.reason === 'string' ? input.reason.trim() : ''
  // It stays in 卷.json and the audit log for good, and is shown as written: one line of visible words, like an entry's reason.
  if (reason === '' || VOLUME_REASON_BREAK.test(reason) || [...reason].length > VOLUME_REASON_MAX)
    throw new RefusedError('bad-input', `give a one-line --reason for the new volume (at most ${VOLUME_REASON_MAX} characters, no control characters)`, {
      variant: 'volume-reason',
    })
  const hash = await personaFingerprint(input.sources)
  // Refused before anything is written, volume 0's completion included.
  const ab = input.ab?.(hash)
  const before = await ensureVolumePersonaHash(store, input.sources)
  const wuyu = await wuyuVersionOf(input.sources)
  const vol = await store.withWriteLock(async (lock) => {
    const vols = (await readVolumes(store, true)) ?? before
    const id = Math.max(...vols.volumes.map((v) => v.id)) + 1
    const v: Volume = { id, started_at: store.now().toISOString(), reason, persona_hash: hash, wuyu_version: wuyu, ...(ab === undefined ? {} : { ab }) }
    vols.volumes.push(v)
    vols.current = id
    // The persona copy first: a full disk then leaves no volume named in 卷.json without its persona, and a
    // retry makes the same id (a copy already there is kept).
    await snapshotPersona(store, id, input.sources)
    await store.writeMetaJson(VOLUMES_FILE, vols, lock)
    return v
  })
  await audit(store, { op: 'volume-open', volume: vol.id, reason, persona_hash: hash, by: ctx.by, ...(ab === undefined ? {} : { ab_verdict: ab.verdict }) })
  return vol
}

/** Does the persona on disk still match the current volume's fingerprint? (for doctor) */
export async function volumeDrift(
  store: StoreCore,
  sources: readonly PersonaSource[],
): Promise<{ current?: number; recorded?: string; actual: string; drift: boolean }> {
  const actual = await personaFingerprint(sources)
  const vols = await readVolumes(store)
  const cur = vols?.volumes.find((v) => v.id === vols.current)
  return { current: vols?.current, recorded: cur?.persona_hash, actual, drift: cur !== undefined && cur.persona_hash !== '' && cur.persona_hash !== actual }
}
