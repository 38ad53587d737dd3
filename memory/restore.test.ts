import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs, rmSync } from 'node:fs'
import { execFileSync } from 'node:child_process'
import { join } from 'node:path'
import { MemoryStore } from './store.ts'
import { describeSnapshots, listSnapshots, MANIFEST_FILE, snapshotIfDue, takeSnapshot } from './snapshots.ts'
import { restoreSnapshot } from './restore.ts'
import { checkStore } from './check.ts'
import { tempHome } from './testing/tmp.ts'
import { spawnLockHolder } from '../durable/testing/spawn.ts'
import { hashTree } from './testing/tree.ts'
import { storeLines } from '../host/doctor.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})
const fact = (text: string, at?: string) => ({ text, axis: '智', reason: 'r', kind: 'fact', ...(at === undefined ? {} : { at }) })

/** A store with two day files, a snapshot of it, then a later write the snapshot does not have. */
async function storeWithSnapshot(): Promise<{ s: MemoryStore; name: string; dir: string; dayRel: string; before: Record<string, string>; snaps: string[] }> {
  const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  const a = await s.write(fact('她喜欢抹茶', '2026-01-02T12:00:00'), { by: 'person' })
  await s.write(fact('第二天', '2026-01-03T12:00:00'), { by: 'person' })
  const snap = await takeSnapshot(s, 'manual')
  await s.write(fact('后来的事', '2026-01-04T12:00:00'), { by: 'person' })
  return { s, name: snap.name, dir: snap.path, dayRel: a.file, before: await hashTree(t.root), snaps: await listSnapshots(s) }
}

async function expectUnchanged(s: MemoryStore, before: Record<string, string>, snaps: string[]): Promise<void> {
  expect(await hashTree(t.root)).toEqual(before)
  // not even a pre-restore snapshot was taken
  expect(await listSnapshots(s)).toEqual(snaps)
  await expect(fs.lstat(`${t.root}-restore`)).rejects.toThrow(/ENOENT/)
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

describe('restore', () => {
  it('refused while another restore holds the engine lock, naming that restore and how to resume it, not a DSH to quit', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await s.write(fact('x'), { by: 'person' })
    const name = (await takeSnapshot(s, 'manual')).name
    const h = spawnLockHolder(join(t.root, '元', 'engine.lock'), 10_000, 'restore')
    expect(await h.next('READY', 'EXITED')).toBe('READY')
    try {
      const err = await restoreSnapshot(s, name, { by: 'person' }).catch((e: unknown) => e)
      expect((err as Error).message).toContain(`another restore is running (process ${h.child.pid})`)
      expect((err as Error).message).not.toContain('quit DSH')
    } finally {
      const released = h.next('RELEASED', 'EXITED')
      h.send('release')
      await released
      h.send('exit')
      await h.done
    }
  })
  it('7 daily snapshots: restoring the oldest brings back exactly its files and keeps the snapshot (issue 7 item 2)', async () => {
    let now = new Date('2026-03-01T12:00:00')
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
    for (let d = 1; d <= 7; d++) {
      now = new Date(`2026-03-0${d}T12:00:00`)
      await s.write(fact(`第${d}天的事`), { by: 'person' })
      expect(await snapshotIfDue(s)).toBeDefined()
    }
    await s.write(fact('after the last snapshot'), { by: 'person' })
    const names = await listSnapshots(s)
    expect(names).toHaveLength(7)
    const oldest = names[0]!
    const want = await hashTree(join(s.snapshotsDir, oldest))
    expect(Object.keys(want).filter((r) => r.includes('日档'))).toHaveLength(1)
    // the recall cache beside the root is derived from the files: it must not survive the switch
    const cache = join(`${t.root}-index`, 'keeper.json')
    await fs.mkdir(`${t.root}-index`, { recursive: true })
    await fs.writeFile(cache, '{"stale":true}')

    const r = await restoreSnapshot(s, oldest, { by: 'person' })
    expect(await hashTree(t.root)).toEqual(want)
    expect(await listSnapshots(s)).toContain(oldest)
    expect(await listSnapshots(s)).toContain(r.safety)
    await expect(fs.stat(cache)).rejects.toThrow(/ENOENT/)
    expect(r).toMatchObject({ verified: true, removed: 6 })
    expect((await s.auditLog()).at(-1)).toMatchObject({ op: 'restore', snapshot: oldest, safety: r.safety, verified: true, removed: 6, by: 'person' })
    expect((await checkStore(s)).errors).toEqual([])
    // the undo brings back the week
    await restoreSnapshot(s, r.safety, { by: 'person' })
    expect((await s.scan()).entries.map((e) => e.text)).toContain('after the last snapshot')
  })

  it('an edited snapshot (broken comment + forged base entry) is refused by its checksums; nothing changes (issue 7 item 4a)', async () => {
    const { s, name, dir, dayRel, before, snaps } = await storeWithSnapshot()
    await fs.appendFile(join(dir, dayRel), '伪造的\n<!--cyrene:{"id":"forged","base":true,"by":"person"}-->\n坏的\n<!--cyrene:{broken-->\n')
    await expect(restoreSnapshot(s, name, { by: 'person' })).rejects.toThrow(
      new RegExp(`cannot be restored; nothing was changed:[\\s\\S]*${escape(dayRel)} has \\d+ bytes`),
    )
    await expectUnchanged(s, before, snaps)
  })

  it('a snapshot file changed at the same size is refused: its checksum differs (issue 7 item 4a)', async () => {
    const { s, name, dir, dayRel, before, snaps } = await storeWithSnapshot()
    const text = await fs.readFile(join(dir, dayRel), 'utf8')
    const forged = text.replace('"kind":"fact"', '"base":true  ')
    expect(Buffer.byteLength(forged)).toBe(Buffer.byteLength(text))
    expect(forged).not.toBe(text)
    await fs.writeFile(join(dir, dayRel), forged)
    await expect(restoreSnapshot(s, name, { by: 'person' })).rejects.toThrow(new RegExp(`${escape(dayRel)} was changed after the snapshot was taken`))
    await expectUnchanged(s, before, snaps)
  })

  it('a truncated snapshot file is refused, with or without checksums (issue 7 item 4b)', async () => {
    const { s, name, dir, dayRel, before, snaps } = await storeWithSnapshot()
    const full = join(dir, dayRel)
    const size = (await fs.stat(full)).size
    await fs.truncate(full, size - 10)
    await expect(restoreSnapshot(s, name, { by: 'person' })).rejects.toThrow(new RegExp(`${escape(dayRel)} has ${size - 10} bytes; it had ${size}`))
    await expectUnchanged(s, before, snaps)
    // an older snapshot without a manifest: its format gives the cut away
    await fs.rm(join(dir, MANIFEST_FILE))
    await expect(restoreSnapshot(s, name, { by: 'person' })).rejects.toThrow(new RegExp(`${escape(dayRel)}:\\d+: the cyrene comment is not closed`))
    await expectUnchanged(s, before, snaps)
    await fs.truncate(full, 6) // "她喜": whole characters, no line end
    await expect(restoreSnapshot(s, name, { by: 'person' })).rejects.toThrow(/ends in the middle of a line/)
    await expectUnchanged(s, before, snaps)
  })

  it('a day file replaced by a link in the snapshot is refused and the live day is kept (issue 7 item 4c)', async () => {
    const { s, name, dir, dayRel, before, snaps } = await storeWithSnapshot()
    const outside = join(t.home, 'outside.md')
    await fs.copyFile(join(dir, dayRel), outside)
    await fs.rm(join(dir, dayRel))
    await fs.symlink(outside, join(dir, dayRel))
    await expect(restoreSnapshot(s, name, { by: 'person' })).rejects.toThrow(new RegExp(`${escape(dayRel)} is a symbolic link`))
    await expectUnchanged(s, before, snaps)
    expect(before[dayRel]).toBeDefined()
    // the same for an older snapshot without checksums
    await fs.rm(join(dir, MANIFEST_FILE))
    await expect(restoreSnapshot(s, name, { by: 'person' })).rejects.toThrow(/is a symbolic link/)
    await expectUnchanged(s, before, snaps)
  })

  it('a file turned into a folder, in the snapshot or in the store, is refused before anything changes (issue 7 item 4d)', async () => {
    const { s, name, dir, dayRel, before, snaps } = await storeWithSnapshot()
    const bytes = await fs.readFile(join(dir, dayRel))
    await fs.rm(join(dir, dayRel))
    await fs.mkdir(join(dir, dayRel))
    await fs.writeFile(join(dir, dayRel, 'inside.md'), 'x\n')
    await expect(restoreSnapshot(s, name, { by: 'person' })).rejects.toThrow(new RegExp(`${escape(dayRel)} is a folder where a file should be`))
    await expectUnchanged(s, before, snaps)
    // the snapshot whole again; now the live day file is a folder
    await fs.rm(join(dir, dayRel), { recursive: true })
    await fs.writeFile(join(dir, dayRel), bytes)
    const live = join(t.root, dayRel)
    await fs.rename(live, `${live}.away`)
    await fs.mkdir(live)
    await fs.rename(`${live}.away`, join(live, 'kept.md'))
    const liveBefore = await hashTree(t.root)
    await expect(restoreSnapshot(s, name, { by: 'person' })).rejects.toThrow(
      new RegExp(`${escape(dayRel)} in the store is a folder where the snapshot has a file`),
    )
    await expectUnchanged(s, liveBefore, snaps)
  })

  it('a checksummed snapshot keeps its own format problems (the store as it was) and reports them as warnings', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await s.write(fact('ok', '2026-01-02T12:00:00'), { by: 'person' })
    const f = join(t.root, '岁月涟漪/日档/2026/01/2026-01-02.md')
    await fs.appendFile(f, 'hand note\n<!--cyrene:{nope}-->\n')
    const bytes = await fs.readFile(f)
    const snap = await takeSnapshot(s, 'manual')
    await s.write(fact('later', '2026-01-02T13:00:00'), { by: 'person' })
    const r = await restoreSnapshot(s, snap.name, { by: 'person' })
    expect(r.warnings.join('\n')).toMatch(/2026-01-02\.md:\d+: the cyrene comment is not valid JSON/)
    expect(await fs.readFile(f)).toEqual(bytes)
  })

  it('an older snapshot without checksums restores after a format check, and is marked unverified in --list data, the doctor and the audit', async () => {
    const { s, name, dir } = await storeWithSnapshot()
    const want = await hashTree(dir)
    await fs.rm(join(dir, MANIFEST_FILE))
    expect(await describeSnapshots(s)).toEqual([{ name, verified: false }])
    const doctor = await storeLines({ env: { DSH_HOME: t.home }, cwd: t.home }, 'en')
    expect(doctor.find((l) => l.check === 'snapshots' && /without checksums/.test(l.detail))?.detail).toContain(name)
    const r = await restoreSnapshot(s, name, { by: 'person' })
    expect(r.verified).toBe(false)
    expect(await hashTree(t.root)).toEqual(want)
    expect((await s.auditLog()).at(-1)).toMatchObject({ op: 'restore', snapshot: name, verified: false })
    // the pre-restore snapshot has a manifest
    expect(await describeSnapshots(s)).toEqual([
      { name, verified: false },
      { name: r.safety, verified: true },
    ])
  })

  it('never writes through a symlinked anchor: the link is replaced, the outside file stays, and a symlinked root stays a link (issue 7 item 7)', async () => {
    const real = join(t.home, 'elsewhere', 'store')
    await fs.mkdir(real, { recursive: true })
    await fs.symlink(real, t.root)
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const anchor = '锚/我是谁.md'
    await fs.writeFile(join(t.root, anchor), '# 我是谁\n昔涟。\n')
    await s.write(fact('一件事', '2026-01-02T12:00:00'), { by: 'person' })
    const snap = await takeSnapshot(s, 'manual')
    const want = await hashTree(snap.path)
    const outside = join(t.home, 'outside-anchor.md')
    await fs.writeFile(outside, 'OUTSIDE — must never change\n')
    await fs.rm(join(t.root, anchor))
    await fs.symlink(outside, join(t.root, anchor))
    const r = await restoreSnapshot(s, snap.name, { by: 'person' })
    expect(await fs.readFile(outside, 'utf8')).toBe('OUTSIDE — must never change\n')
    expect((await fs.lstat(join(t.root, anchor))).isFile()).toBe(true)
    expect(await fs.readFile(join(t.root, anchor), 'utf8')).toBe('# 我是谁\n昔涟。\n')
    expect(r.linksReplaced).toEqual([anchor])
    expect((await fs.lstat(t.root)).isSymbolicLink()).toBe(true)
    expect(await hashTree(real)).toEqual(want)
    // staging went beside the real root, and is gone
    expect(await fs.readdir(join(t.home, 'elsewhere'))).toEqual(['store'])
  })

  it('refuses when a folder on the way is a link (it would write through it); nothing changes', async () => {
    const { s, name, snaps } = await storeWithSnapshot()
    const moved = join(t.home, 'moved-days')
    await fs.rename(join(t.root, '岁月涟漪/日档/2026'), moved)
    await fs.symlink(moved, join(t.root, '岁月涟漪/日档/2026'))
    const movedBefore = await hashTree(moved)
    await expect(restoreSnapshot(s, name, { by: 'person' })).rejects.toThrow(/岁月涟漪\/日档\/2026 in the store is a link/)
    expect(await hashTree(moved)).toEqual(movedBefore)
    expect(await listSnapshots(s)).toEqual(snaps)
    await expect(fs.lstat(`${t.root}-restore`)).rejects.toThrow(/ENOENT/)
  })
})

describe('restore: a snapshot file swapped after the check', () => {
  it('a FIFO put where a checked file was is refused at once, not waited on; the store is unchanged', async () => {
    const { s, name, dir, dayRel, before } = await storeWithSnapshot()
    const swap = {
      onPhase: (p: string) => {
        if (p !== 'validated') return
        rmSync(join(dir, dayRel))
        execFileSync('mkfifo', [join(dir, dayRel)])
      },
    }
    await expect(restoreSnapshot(s, name, { by: 'person' }, undefined, swap)).rejects.toThrow(/changed while it was being restored; nothing was changed/)
    expect(await hashTree(t.root)).toEqual(before)
    await expect(fs.lstat(`${t.root}-restore`)).rejects.toThrow(/ENOENT/)
  })
})

describe('restore: a staging folder no restore wrote (decision 309)', () => {
  /** What a tool call's process could write beside the store: a committed journal that removes a day file and moves its own file in. */
  async function forge(token: string, month: string, dayRel: string): Promise<string> {
    const staging = `${t.root}-restore`
    await fs.mkdir(join(staging, 'files/锚'), { recursive: true })
    await fs.writeFile(join(staging, 'files/锚/我是谁.md'), '# 我是谁\nforged\n')
    const journal = {
      version: 2,
      state: 'committed',
      token,
      staged_month: month,
      snapshot: 'x',
      safety: 'y',
      verified: true,
      pid: 1,
      host: 'h',
      started_at: '',
      files: 1,
      remove: [dayRel],
    }
    await fs.writeFile(join(staging, 'journal.json'), JSON.stringify(journal))
    return staging
  }

  it('is thrown away by the next writer, nothing of it done, and the audit log says so', async () => {
    const { s, dayRel } = await storeWithSnapshot()
    const month = new Date().toISOString().slice(0, 7)
    const staging = await forge('0123456789abcdef0123456789abcdef', month, dayRel)
    const before = await hashTree(t.root)
    await s.write(fact('又一条', '2026-01-05T12:00:00'), { by: 'person' })
    await expect(fs.lstat(staging)).rejects.toThrow(/ENOENT/)
    const after = await hashTree(t.root)
    expect(after[dayRel]).toBe(before[dayRel])
    // The forged anchor was not moved in: 锚/ is as it was (the write itself changes only the day files and 元/).
    expect(after['锚/我是谁.md']).toBe(before['锚/我是谁.md'])
    expect(Object.keys(after).filter((rel) => rel.startsWith('锚/'))).toEqual(Object.keys(before).filter((rel) => rel.startsWith('锚/')))
    expect(await s.auditLog()).toContainEqual(expect.objectContaining({ op: 'restore-abandoned', unvouched: true }))
  })

  it('a token read from an earlier, finished restore does not vouch for a new journal', async () => {
    const { s, name, dayRel } = await storeWithSnapshot()
    await restoreSnapshot(s, name, { by: 'person' })
    const staged = (await s.auditLog()).find((l) => l.op === 'restore-staged')!
    expect(staged.token).toMatch(/^[0-9a-f]{32}$/)
    const month = String(staged.at).slice(0, 7)
    const staging = await forge(String(staged.token), month, dayRel)
    const before = await hashTree(t.root)
    const again = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await again.write(fact('又一条', '2026-01-05T12:00:00'), { by: 'person' })
    await expect(fs.lstat(staging)).rejects.toThrow(/ENOENT/)
    expect((await hashTree(t.root))[dayRel]).toBe(before[dayRel])
  })

  it('a journal a restore left after its closing audit line goes without a second line; one holding files is still audited', async () => {
    const { s, name } = await storeWithSnapshot()
    await restoreSnapshot(s, name, { by: 'person' })
    const staged = (await s.auditLog()).find((l) => l.op === 'restore-staged')!
    const month = String(staged.at).slice(0, 7)
    // What a cut between the `restore` line and the journal's removal leaves: the committed journal, no file to move.
    const leftover = await forge(String(staged.token), month, 'x.md')
    await fs.rm(join(leftover, 'files'), { recursive: true })
    await fs.mkdir(join(leftover, 'files/锚'), { recursive: true })
    const lines = (await s.auditLog()).length
    const before = await hashTree(t.root)
    const again = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await again.write(fact('又一条', '2026-01-05T12:00:00'), { by: 'person' })
    await expect(fs.lstat(leftover)).rejects.toThrow(/ENOENT/)
    const log = await again.auditLog()
    expect(log.slice(lines).map((l) => l.op)).not.toContain('restore-abandoned')
    expect((await hashTree(t.root))['锚/我是谁.md']).toBe(before['锚/我是谁.md'])
    // The same token with a file to move in was not left by that restore: thrown away and said.
    await forge(String(staged.token), month, 'x.md')
    await again.write(fact('再一条', '2026-01-06T12:00:00'), { by: 'person' })
    expect((await again.auditLog()).slice(lines)).toEqual([expect.objectContaining({ op: 'restore-abandoned', unvouched: true })])
  })

  it('a FIFO for its journal does not hold the next writer', async () => {
    const { s } = await storeWithSnapshot()
    await fs.mkdir(`${t.root}-restore`)
    execFileSync('mkfifo', [join(`${t.root}-restore`, 'journal.json')])
    await s.write(fact('又一条', '2026-01-05T12:00:00'), { by: 'person' })
    await expect(fs.lstat(`${t.root}-restore`)).rejects.toThrow(/ENOENT/)
  })
})

describe('restore: stage and switch (recovery when cut off)', () => {
  const cut = (at: string) => ({
    onPhase: (p: string) => {
      if (p === at) throw new Error(`cut at ${at}`)
    },
  })

  it('cut off before the commit: the store is the old one, and the next open throws the staging away', async () => {
    const { s, name, before } = await storeWithSnapshot()
    await expect(restoreSnapshot(s, name, { by: 'person' }, undefined, cut('staged'))).rejects.toThrow(/cut at staged/)
    expect((await fs.lstat(`${t.root}-restore`)).isDirectory()).toBe(true)
    expect(await hashTree(t.root)).toEqual(before)
    const again = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await expect(fs.lstat(`${t.root}-restore`)).rejects.toThrow(/ENOENT/)
    expect(await hashTree(t.root)).toEqual(before)
    expect((await again.auditLog()).at(-1)).toMatchObject({ op: 'restore-abandoned', snapshot: name })
  })

  it('cut off after the commit: the next open finishes the restore', async () => {
    const { s, name, dir, before } = await storeWithSnapshot()
    const want = await hashTree(dir)
    await expect(restoreSnapshot(s, name, { by: 'person' }, undefined, cut('committed'))).rejects.toThrow(/cut at committed/)
    expect(await hashTree(t.root)).toEqual(before)
    const again = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    expect(await hashTree(t.root)).toEqual(want)
    await expect(fs.lstat(`${t.root}-restore`)).rejects.toThrow(/ENOENT/)
    expect((await again.auditLog()).at(-1)).toMatchObject({ op: 'restore', snapshot: name, recovered: true, verified: true })
  })

  it('a writer that opened the store before the cut finishes the restore first, and its write is kept', async () => {
    const { s, name } = await storeWithSnapshot()
    const early = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const later = (await s.scan()).entries.find((e) => e.text === '后来的事')!
    await expect(restoreSnapshot(s, name, { by: 'person' }, undefined, cut('committed'))).rejects.toThrow(/cut at committed/)
    const w = await early.write(fact('恢复之后写的', '2026-01-02T15:00:00'), { by: 'person' })
    await expect(fs.lstat(`${t.root}-restore`)).rejects.toThrow(/ENOENT/)
    expect((await early.get(w.id))?.text).toBe('恢复之后写的')
    expect(await early.get(later.id)).toBeUndefined()
    expect((await early.scan()).entries.map((e) => e.text).sort()).toEqual(['她喜欢抹茶', '恢复之后写的', '第二天'].sort())
  })
})
