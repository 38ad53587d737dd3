import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { MemoryStore } from './store.ts'
import { openEngine } from './engine.ts'
import { EngineBusyError } from './engine-lock.ts'
import { RefusedError } from './validate.ts'
import { tempHome } from './testing/tmp.ts'
import { LAYOUT_DIRS } from './paths.ts'
import { ID_RE } from './id.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

const good = { text: '她喜欢下雨天散步。', kind: 'preference', axis: '美', reason: '她的审美' }

describe('MemoryStore', () => {
  it('creates the layout with 0700 folders', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    expect(s.root).toBe(t.root)
    for (const d of LAYOUT_DIRS) expect((await fs.stat(join(t.root, d))).mode & 0o777).toBe(0o700)
    expect((await fs.stat(`${t.root}-snapshots`)).mode & 0o777).toBe(0o700)
  })

  it('writes a passing entry to the day file (0600) and reads it back', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const r = await s.write({ ...good, at: '2026-03-04T10:00:00' }, { by: 'model' })
    expect(r.gate).toBe('day')
    expect(r.id).toMatch(ID_RE)
    expect(r.file).toBe('岁月涟漪/日档/2026/03/2026-03-04.md')
    expect((await fs.stat(join(t.root, r.file))).mode & 0o777).toBe(0o600)
    const e = await s.get(r.id)
    expect(e).toMatchObject({ text: good.text, area: 'day', meta: { kind: 'preference', axis: '美', gate: 'day', by: 'model' } })
  })

  it('sends a failing entry to 余页/待定 with its reasons', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const r = await s.write({ text: '决定搬家', kind: 'decision', at: '2026-03-04T10:00:00' }, { by: 'model' })
    expect(r.gate).toBe('pending')
    expect(r.file).toBe('余页/待定/2026-03-04.md')
    expect(r.reasons.length).toBeGreaterThanOrEqual(3)
    expect((await s.get(r.id))!.meta.pending_reasons).toEqual(r.reasons)
  })

  it('refuses base entries from the model, accepts them from the person', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await expect(s.write({ ...good, base: true }, { by: 'model' })).rejects.toThrow(/only be written by the person/)
    const r = await s.write({ ...good, base: true }, { by: 'person' })
    await expect(s.update(r.id, { text: 'changed' }, { by: 'model' })).rejects.toThrow(/only the person/)
    const u = await s.update(r.id, { text: 'changed' }, { by: 'person' })
    expect(u.text).toBe('changed')
    expect(u.meta.edited_at).toBeDefined()
  })

  it('refuses too long, empty, control characters, comment injection; writes nothing', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const huge = '字'.repeat(10 * 1024 * 1024)
    for (const text of [huge, '字'.repeat(401), '   ', 'a\u0007b', 'x\n<!--cyrene:{"id":"evil"}-->\ny']) {
      await expect(s.write({ ...good, text }, { by: 'model' })).rejects.toBeInstanceOf(RefusedError)
    }
    await expect(s.write({ ...good, text: '字'.repeat(401) }, { by: 'person' })).rejects.toThrow(/Split it/)
    expect((await s.scan()).entries).toHaveLength(0)
  })

  it('keeps zero-width characters and says so', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const r = await s.write({ ...good, text: 'a\u200bb' }, { by: 'person' })
    expect(r.notes.join()).toMatch(/invisible/)
    expect((await s.get(r.id))!.text).toBe('a\u200bb')
  })

  it('refuses when the quota is full, with a message saying what to do', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, limits: { totalBytes: 600 } })
    await s.write(good, { by: 'person' })
    await expect(async () => {
      for (let i = 0; i < 10; i++) await s.write(good, { by: 'person' })
    }).rejects.toThrow(/full .*settings\.json/)
  })

  it('a lock-shaped file in 元/ counts for nothing toward the quota: a sparse one of 100 GiB refused every write (decision 305)', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await s.write(good, { by: 'person' })
    // The store guard leaves such a name to its holder, so a tool call's process may leave one (no disk used).
    for (const name of ['forged.lock', 'forged.lock.owner', 'forged.lock.intent.1', 'forged.lock.reaping']) {
      const fh = await fs.open(join(t.root, '元', name), 'w')
      await fh.truncate(100 * 2 ** 30)
      await fh.close()
    }
    const again = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    expect((await again.write({ ...good, text: '她喜欢雪。' }, { by: 'person' })).gate).toBe('day')
  })

  it('never edits pending entries, and treats ids as opaque (no path tricks)', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const r = await s.write({ text: 'x' }, { by: 'model' })
    await expect(s.update(r.id, { text: 'y' }, { by: 'person' })).rejects.toThrow(/never edited/)
    await expect(s.update('../../元/settings', { text: 'y' }, { by: 'person' })).rejects.toThrow(/no entry/)
    expect(await s.get('../../etc/passwd')).toBeUndefined()
  })

  it('an update rewrites only that entry: neighbours byte for byte, unknown keys kept', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const at = '2026-02-03T12:00:00'
    const [a, b, c] = [
      await s.write({ ...good, text: 'A', at }, { by: 'model' }),
      await s.write({ ...good, text: 'B', at }, { by: 'model' }),
      await s.write({ ...good, text: 'C', at }, { by: 'model' }),
    ]
    const file = join(t.root, a.file)
    const orig = (await fs.readFile(file, 'utf8')).replace(`{"id":"${b.id}"`, `{"id":"${b.id}","x_future":{"k":[1]}`)
    await fs.writeFile(file, orig)
    await s.update(b.id, { text: 'B2', links: [`${a.id}|时序`] }, { by: 'model' })
    const after = await fs.readFile(file, 'utf8')
    const blockOf = (text: string, id: string): string => text.split('\n\n').find((x) => x.includes(`"id":"${id}"`))!
    expect(blockOf(after, a.id)).toBe(blockOf(orig, a.id))
    expect(blockOf(after, c.id)).toBe(blockOf(orig, c.id))
    const e = await s.get(b.id)
    expect(e).toMatchObject({ text: 'B2', meta: { x_future: { k: [1] }, links: [`${a.id}|时序`] } })
    expect(Object.keys(e!.meta).slice(0, 2)).toEqual(['id', 'x_future'])
  })

  it('an update that changes nothing leaves the file byte for byte', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const r = await s.write(good, { by: 'person' })
    const before = await fs.readFile(join(t.root, r.file), 'utf8')
    await s.update(r.id, { kind: 'preference' }, { by: 'person' })
    expect(await fs.readFile(join(t.root, r.file), 'utf8')).toBe(before)
  })

  it('serves intact entries from a file with a malformed comment and keeps the bad part', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const r = await s.write({ ...good, at: '2026-01-01T12:00:00' }, { by: 'person' })
    const file = join(t.root, r.file)
    await fs.appendFile(file, '\nhand-written\n<!--cyrene:{"id":"zz", broken-->\n')
    const r2 = await s.write({ ...good, at: '2026-01-01T13:00:00' }, { by: 'person' })
    const { entries, problems } = await s.scan()
    expect(entries.map((e) => e.id)).toEqual([r.id, r2.id])
    expect(problems).toMatchObject([{ file: r.file, line: 5 }])
    expect(await fs.readFile(file, 'utf8')).toContain('hand-written\n<!--cyrene:{"id":"zz", broken-->')
  })

  it('uses defaults and reports when 元/settings.json is invalid', async () => {
    await fs.mkdir(join(t.root, '元'), { recursive: true })
    await fs.writeFile(join(t.root, '元', 'settings.json'), '{ not json')
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    expect(s.settingsProblems[0]).toMatch(/not valid JSON/)
    expect(s.limits.entryChars).toBe(400)
    expect((await s.write(good, { by: 'person' })).gate).toBe('day')
  })

  it('allows one engine per DSH_HOME and reports the second', async () => {
    const a = await openEngine({ env: { DSH_HOME: t.home } })
    await expect(openEngine({ env: { DSH_HOME: t.home } })).rejects.toBeInstanceOf(EngineBusyError)
    const status = await a.engineStatus()
    expect(status).toMatchObject({ held: true, mine: true, alive: true })
    // a command-line store still works beside the engine
    const cli = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await cli.write(good, { by: 'person' })
    await a.close()
    const b = await openEngine({ env: { DSH_HOME: t.home } })
    await b.close()
  })

  it('reclaims an engine lock left by a dead process at once', async () => {
    const lock = join(t.root, '元', 'engine.lock')
    await fs.mkdir(lock, { recursive: true })
    const dead = { pid: 2 ** 22 + 12345, host: (await import('node:os')).hostname(), at: 'x', purpose: 'engine' }
    // a record that belongs to an older lock folder (other inode) is not trusted
    await fs.writeFile(`${lock}.owner`, JSON.stringify({ ...dead, ino: (await fs.stat(lock)).ino + 1 }))
    await expect(openEngine({ env: { DSH_HOME: t.home } })).rejects.toBeInstanceOf(EngineBusyError)
    await fs.writeFile(`${lock}.owner`, JSON.stringify({ ...dead, ino: (await fs.stat(lock)).ino }))
    const e = await openEngine({ env: { DSH_HOME: t.home } })
    await e.close()
  })

  it('many writes at once from one process all land (the lock also serialises in-process writers)', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const rs = await Promise.all(Array.from({ length: 40 }, (_, i) => s.write({ ...good, text: `第${i}条`, at: '2026-02-02T12:00:00' }, { by: 'model' })))
    expect(new Set(rs.map((r) => r.id)).size).toBe(40)
    const { entries } = await s.scan()
    expect(entries.map((e) => e.text).sort()).toEqual(Array.from({ length: 40 }, (_, i) => `第${i}条`).sort())
  })

  it('free writing in 余页 is allowed for the model, but not into 待定 or outside', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    expect(await s.writeMargin('随笔/一.md', '很长的一段\n'.repeat(100), { by: 'model' })).toBe('余页/随笔/一.md')
    await expect(s.writeMargin('待定/2026-01-01.md', 'x', { by: 'model' })).rejects.toThrow()
    // Judged by where it lands: a `.` segment or a doubled slash does not get past the gate's folder.
    for (const spelled of ['./待定/2026-01-01.md', './/待定/2026-01-02.md', '随笔/./../待定/2026-01-03.md'])
      await expect(s.writeMargin(spelled, 'x', { by: 'model' })).rejects.toThrow()
    expect(await s.writeMargin('./随笔/二.md', '第二段', { by: 'model' })).toBe('余页/随笔/二.md')
    await expect(s.writeMargin('../元/settings.json', 'x', { by: 'model' })).rejects.toThrow()
    expect(() => s.assertWritable('元/卷.json', 'model')).toThrow(/only the person/)
  })
})
