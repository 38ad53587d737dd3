import { afterEach, beforeEach, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { MemoryStore } from './store.ts'
import { ensureVolumePersonaHash, openVolume, personaFingerprint, readVolumes, volumeDrift, type PersonaSource } from './volumes.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
let sources: PersonaSource[]
beforeEach(async () => {
  t = await tempHome()
  const p = join(t.home, 'pkg')
  await fs.mkdir(join(p, 'persona'), { recursive: true })
  await fs.mkdir(join(p, 'philosophy'), { recursive: true })
  await fs.writeFile(join(p, 'persona/chat.md'), '我是昔涟。')
  await fs.writeFile(join(p, 'philosophy/wuyu.md'), '德智体美劳')
  sources = [
    { name: 'persona/chat.md', path: join(p, 'persona/chat.md') },
    { name: 'philosophy/wuyu.md', path: join(p, 'philosophy/wuyu.md') },
  ]
})
afterEach(async () => {
  // snapshots are read-only on purpose; make them removable
  await fs.chmod(join(t.root, '元/卷/000/persona'), 0o700).catch(() => undefined)
  await fs.chmod(join(t.root, '元/卷/001/persona'), 0o700).catch(() => undefined)
  await t.cleanup()
})

it('fingerprints persona files; any change of text or name changes it', async () => {
  const a = await personaFingerprint(sources)
  expect(a).toMatch(/^sha256:[0-9a-f]{64}$/)
  expect(await personaFingerprint([...sources].reverse())).toBe(a)
  expect(await personaFingerprint([{ ...sources[0]!, name: 'persona/x.md' }, sources[1]!])).not.toBe(a)
})

it('completes volume 0 on first start with a snapshot, idempotently', async () => {
  const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  const v = await ensureVolumePersonaHash(s, sources)
  expect(v.current).toBe(0)
  expect(v.volumes[0]!.persona_hash).toMatch(/^sha256:/)
  expect(await fs.readFile(join(t.root, '元/卷/000/persona/persona/chat.md'), 'utf8')).toBe('我是昔涟。')
  expect((await fs.stat(join(t.root, '元/卷/000/persona/persona/chat.md'))).mode & 0o777).toBe(0o400)
  const again = await ensureVolumePersonaHash(s, sources)
  expect(again).toEqual(v)
})

it('fills an empty fingerprint (补章)', async () => {
  const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  await fs.writeFile(
    join(t.root, '元/卷.json'),
    JSON.stringify({ current: 0, volumes: [{ id: 0, started_at: '2025-01-01T00:00:00Z', reason: 'old', persona_hash: '', wuyu_version: '' }] }),
  )
  const v = await ensureVolumePersonaHash(s, sources)
  expect(v.volumes[0]!.persona_hash).toMatch(/^sha256:/)
  expect(v.volumes[0]!.reason).toBe('old')
})

it('only a person with the confirmation word opens a volume; persona text is untouched; new writes carry vol', async () => {
  const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  await ensureVolumePersonaHash(s, sources)
  await expect(openVolume(s, { reason: 'r', confirm: 'new-volume', sources }, { by: 'model' })).rejects.toThrow(/only a person/)
  await expect(openVolume(s, { reason: 'r', confirm: 'yes', sources }, { by: 'person' })).rejects.toThrow(/--confirm new-volume/)
  // The reason stays in 卷.json and the audit log: one line of at most 200 characters, like an entry's.
  for (const reason of ['bad\u0001ctl', '理'.repeat(201), 'two\nlines'])
    await expect(openVolume(s, { reason, confirm: 'new-volume', sources }, { by: 'person' })).rejects.toThrow(/one-line --reason/)
  await fs.writeFile(sources[0]!.path, '我是昔涟，第二卷。')
  expect((await volumeDrift(s, sources)).drift).toBe(true)
  const v = await openVolume(s, { reason: '人格文本修订', confirm: 'new-volume', sources }, { by: 'person' })
  expect(v.id).toBe(1)
  expect(await fs.readFile(sources[0]!.path, 'utf8')).toBe('我是昔涟，第二卷。')
  expect((await readVolumes(s))!.current).toBe(1)
  expect((await volumeDrift(s, sources)).drift).toBe(false)
  const w = await s.write({ text: 'x', axis: '德', reason: 'r' }, { by: 'person' })
  expect((await s.get(w.id))!.meta.vol).toBe(1)
})

it('refuses to touch an invalid 卷.json', async () => {
  const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  await fs.writeFile(join(t.root, '元/卷.json'), '{"current": 3')
  await expect(ensureVolumePersonaHash(s, sources)).rejects.toThrow(/not valid JSON/)
  expect(await fs.readFile(join(t.root, '元/卷.json'), 'utf8')).toBe('{"current": 3')
})
