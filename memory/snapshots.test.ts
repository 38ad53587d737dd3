import { afterEach, beforeEach, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { MemoryStore } from './store.ts'
import { openEngine } from './engine.ts'
import { kindOfName, listSnapshots, MANIFEST_FILE, snapshotIfDue, takeSnapshot } from './snapshots.ts'
import { keepBytesFrom, openCallWindow } from '../durable/host-writes.ts'
import { restoreSnapshot } from './restore.ts'
import { checkStore } from './check.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
let now = new Date('2026-01-01T12:00:00')
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})
const fact = (text: string) => ({ text, axis: '智', reason: 'r', kind: 'fact' })

it('takes daily snapshots beside the root, once a day, keeping seven, not counted in the quota', async () => {
  const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
  await s.write(fact('一'), { by: 'person' })
  for (let d = 1; d <= 9; d++) {
    now = new Date(`2026-01-0${d}T12:00:00`)
    expect(await snapshotIfDue(s)).toBeDefined()
    expect(await snapshotIfDue(s)).toBeUndefined()
  }
  const names = await listSnapshots(s)
  expect(names).toEqual(['2026-01-03', '2026-01-04', '2026-01-05', '2026-01-06', '2026-01-07', '2026-01-08', '2026-01-09'])
  expect(s.snapshotsDir).toBe(`${t.root}-snapshots`)
  const usage = await s.measureUsage(true)
  expect(usage.total).toBeLessThan(4096)
  // no lock folders or owner files in a snapshot
  const snap = join(s.snapshotsDir, names[0]!)
  const files = await fs.readdir(snap, { recursive: true })
  expect(files.some((n) => n.includes('日档'))).toBe(true)
  expect(files.filter((n) => n.includes('lock'))).toEqual([])
})

it('restores a snapshot after saving a pre-restore one, so the restore can be undone', async () => {
  const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
  const a = await s.write(fact('before'), { by: 'person' })
  const snap = await takeSnapshot(s, 'manual')
  const b = await s.write(fact('after'), { by: 'person' })
  await expect(restoreSnapshot(s, '../x', { by: 'person' })).rejects.toThrow(/no snapshot/)
  await expect(restoreSnapshot(s, snap.name, { by: 'model' })).rejects.toThrow(/only the person/)
  const r = await restoreSnapshot(s, snap.name, { by: 'person' })
  expect(await s.get(a.id)).toBeDefined()
  expect(await s.get(b.id)).toBeUndefined()
  expect(r.safety).toMatch(/pre-restore/)
  await restoreSnapshot(s, r.safety, { by: 'person' })
  expect(await s.get(b.id)).toBeDefined()
  // bytes that are not UTF-8 survive a snapshot and a restore unchanged
  const odd = join(t.root, '余页', 'latin1.md')
  await fs.writeFile(odd, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]))
  const snap2 = await takeSnapshot(s, 'manual')
  await fs.writeFile(odd, 'changed')
  await restoreSnapshot(s, snap2.name, { by: 'person' })
  expect([...(await fs.readFile(odd))]).toEqual([0x63, 0x61, 0x66, 0xe9, 0x0a])
  expect((await checkStore(s)).errors).toEqual([])
})

it('refuses to restore while another engine is running', async () => {
  const engine = await openEngine({ env: { DSH_HOME: t.home } })
  const snap = await takeSnapshot(engine, 'manual')
  const cli = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  // same process: the lock owner is alive, and it is not this store's
  await expect(restoreSnapshot(cli, snap.name, { by: 'person' })).rejects.toThrow(/quit DSH first/)
  await engine.close()
  await restoreSnapshot(cli, snap.name, { by: 'person' })
})

it('restores around the read-only volume persona snapshots without touching them', async () => {
  const { ensureVolumePersonaHash } = await import('./volumes.ts')
  const p = join(t.home, 'chat.md')
  await fs.writeFile(p, '我是昔涟。')
  const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
  await ensureVolumePersonaHash(s, [{ name: 'persona/chat.md', path: p }])
  const a = await s.write(fact('a'), { by: 'person' })
  const snap = await takeSnapshot(s, 'manual')
  await s.write(fact('b'), { by: 'person' })
  await restoreSnapshot(s, snap.name, { by: 'person' })
  expect(await s.get(a.id)).toBeDefined()
  const frozen = join(t.root, '元/卷/000/persona/persona/chat.md')
  expect(await fs.readFile(frozen, 'utf8')).toBe('我是昔涟。')
  expect((await fs.stat(frozen)).mode & 0o777).toBe(0o400)
  await fs.chmod(join(t.root, '元/卷/000/persona'), 0o700)
})

it('keeps manual, pre-restore and pre-migrate snapshots apart: five of them never push a daily one out', async () => {
  const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
  await s.write(fact('一'), { by: 'person' })
  for (let d = 1; d <= 7; d++) {
    now = new Date(`2026-02-0${d}T12:00:00`)
    await snapshotIfDue(s)
  }
  for (let k = 0; k < 8; k++) {
    now = new Date(`2026-02-07T13:0${k}:00`)
    await takeSnapshot(s, k % 2 === 0 ? 'manual' : 'pre-migrate')
  }
  const names = await listSnapshots(s)
  expect(names.filter((n) => kindOfName(n) === 'daily')).toEqual([
    '2026-02-01',
    '2026-02-02',
    '2026-02-03',
    '2026-02-04',
    '2026-02-05',
    '2026-02-06',
    '2026-02-07',
  ])
  const others = names.filter((n) => kindOfName(n) === 'other')
  expect(others).toHaveLength(5)
  // the five newest of the others are the ones kept
  expect(others[0]).toMatch(/^2026-02-07T\d{2}03\d{2}Z-pre-migrate$/)
})

it('prunes by the order snapshots were taken, so a clock put back after running a year ahead keeps today’s daily one (issue 19)', async () => {
  const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
  await s.write(fact('一'), { by: 'person' })
  for (let d = 1; d <= 8; d++) {
    now = new Date(`2027-06-0${d}T12:00:00`)
    await snapshotIfDue(s)
  }
  now = new Date('2026-06-01T12:00:00')
  expect(await snapshotIfDue(s)).toBeDefined()
  const names = await listSnapshots(s)
  expect(names).toContain('2026-06-01')
  expect(names.filter((n) => kindOfName(n) === 'daily')).toHaveLength(7)
  // The ones pushed out are the oldest taken (2027-06-01, -02), not the one whose name sorts first.
  expect(names).not.toContain('2027-06-01')
  expect(names).not.toContain('2027-06-02')
  // A manual snapshot a moment later does not push today's daily one out either.
  await takeSnapshot(s, 'manual')
  expect(await listSnapshots(s)).toContain('2026-06-01')
})

it('a manifest a tool call rewrites while its window is open does not choose which snapshot a prune drops (decision 328)', async () => {
  const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
  await s.write(fact('一'), { by: 'person' })
  // Five snapshots the person's cyrene took before this DSH started, in this order (seq 1 to 5): read from the disk here.
  await fs.mkdir(s.snapshotsDir, { recursive: true })
  const names = [
    '2025-12-01T120000Z-manual',
    '2025-12-02T120000Z-manual',
    '2025-12-03T120000Z-manual',
    '2025-12-04T120000Z-manual',
    '2025-12-05T120000Z-manual',
  ]
  const guardCopy = new Map<string, Buffer>()
  for (const [i, name] of names.entries()) {
    await fs.mkdir(join(s.snapshotsDir, name))
    const manifest = Buffer.from(`${JSON.stringify({ version: 1, taken_at: `2025-12-0${i + 1}T12:00:00.000Z`, kind: 'manual', seq: i + 1, files: {} })}\n`)
    await fs.writeFile(join(s.snapshotsDir, name, MANIFEST_FILE), manifest)
    guardCopy.set(join(s.snapshotsDir, name, MANIFEST_FILE), manifest)
  }
  // A window is open: the guard keeps each manifest as it was before the call (the snapshots' other paths: none kept).
  const stop = keepBytesFrom((path) => (path.startsWith(s.snapshotsDir) ? (guardCopy.get(path) ?? null) : undefined))
  const close = openCallWindow()
  try {
    // The call's process makes the oldest look newest, for the moment the person's /cyrene backup prunes.
    const oldest = join(s.snapshotsDir, names[0]!, MANIFEST_FILE)
    await fs.writeFile(oldest, JSON.stringify({ version: 1, taken_at: 'x', kind: 'manual', seq: 1_000_000, files: {} }))
    // And a snapshot of its own making, numbered above all, that would push out the rest.
    await fs.mkdir(join(s.snapshotsDir, '2099-01-01T000000Z-manual'))
    await fs.writeFile(
      join(s.snapshotsDir, '2099-01-01T000000Z-manual', MANIFEST_FILE),
      JSON.stringify({ version: 1, kind: 'manual', seq: 2_000_000, files: {} }),
    )
    now = new Date('2026-01-01T12:00:00')
    const taken = await takeSnapshot(s, 'manual')
    const left = await listSnapshots(s)
    // The oldest by what the host recorded goes; the next oldest stays, and so does the one just taken.
    expect(left).not.toContain(names[0])
    expect(left).toContain(names[1])
    expect(left).toContain(taken.name)
    // What the call made is the guard's to put back, not the prune's to count or drop.
    expect(left).toContain('2099-01-01T000000Z-manual')
    // The new snapshot's number comes from the trusted order, not the forged one.
    expect(JSON.parse(await fs.readFile(join(taken.path, MANIFEST_FILE), 'utf8')).seq).toBe(6)
  } finally {
    close()
    stop()
  }
})
