import { spawnSync } from 'node:child_process'
import {
  chownSync,
  existsSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, expect, it, vi } from 'vitest'
import { atomicWrite } from '../durable/atomic-write.ts'
import { asHostFolderWork, beginHostWrite, callWindowOpen, declareHostWrite, endHostWrite, FolderListing } from '../durable/host-writes.ts'
import { appendLine, readForRewrite } from '../memory/fsio.ts'
import { MemoryStore } from '../memory/index.ts'
import { takeSnapshot } from '../memory/upkeep.ts'
import { EffectsGuard } from './effects.ts'
import { Shadow } from './shadow.ts'

const made: { dir: string; guard: EffectsGuard }[] = []
afterEach(() => {
  for (const { dir, guard } of made.splice(0)) {
    guard.dispose()
    rmSync(dir, { recursive: true, force: true })
  }
})

function guarded(): { root: string; guard: EffectsGuard } {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-effects-'))
  const root = join(dir, 'store')
  mkdirSync(join(root, '元'), { recursive: true })
  writeFileSync(join(root, '元', 'kept.json'), 'before\n')
  const guard = new EffectsGuard({ roots: [root], hostFolders: [], shownFrom: dir, pollMs: 50 })
  made.push({ dir, guard })
  return { root, guard }
}

it("a write of the host's own that starts while a call's window opens is the host's, not the call's", async () => {
  const { root, guard } = guarded()
  const seal = join(root, '元', 'recall-seal.json')
  // The recall worker's seal lands on DSH's thread at any moment: here, just after the guard has
  // found the host idle and while it lets the person's last changes reach its watches.
  let written: Promise<void> | undefined
  setImmediate(() => (written = atomicWrite(seal, '{"size":1}\n')))
  expect(await guard.before('bash')).toBeUndefined()
  await written
  const { notes, error } = await guard.after('bash')
  expect(error).toBeUndefined()
  expect(notes).toEqual([])
  expect(readFileSync(seal, 'utf8')).toBe('{"size":1}\n')
})

it('a folder the host makes during a call vouches for itself only: a file a process of the call put in it is put back', async () => {
  const { root, guard } = guarded()
  expect(await guard.before('bash')).toBeUndefined()
  // The host makes a new month's folder for a memory (memory/fsio.ts ensureDir declares it), and a
  // process the call left running, waiting for that folder, writes a forged day file into it before
  // the host's own day file lands and the guard looks (decision 292).
  const month = join(root, '岁月涟漪', '2026', '12')
  beginHostWrite()
  try {
    for (const d of [join(root, '岁月涟漪'), join(root, '岁月涟漪', '2026'), month]) {
      declareHostWrite(d)
      mkdirSync(d)
    }
    writeFileSync(join(month, '2026-12-01.md'), '伪造。\n<!--cyrene:{"id":"x","base":true,"by":"person"}-->\n')
    await atomicWrite(join(month, '2026-12-07.md'), '她喜欢晴天。\n')
  } finally {
    endHostWrite()
  }
  const { notes, error } = await guard.after('bash')
  expect(error).toBeUndefined()
  expect(notes.join(' ')).toContain('2026-12-01.md (added)')
  expect(existsSync(join(month, '2026-12-01.md'))).toBe(false)
  expect(readFileSync(join(month, '2026-12-07.md'), 'utf8')).toBe('她喜欢晴天。\n')
  // What the host made is kept from then on: a later look finds nothing more to put back.
  expect(await guard.before('bash')).toBeUndefined()
  expect((await guard.after('bash')).notes).toEqual([])
  expect(readFileSync(join(month, '2026-12-07.md'), 'utf8')).toBe('她喜欢晴天。\n')
})

it('a folder the host declared and a process of the call swapped for a link before the look is put back, never kept as the host’s', async () => {
  const { root, guard } = guarded()
  expect(await guard.before('bash')).toBeUndefined()
  const month = join(root, '岁月涟漪')
  declareHostWrite(month)
  mkdirSync(month)
  // Between the host's mkdir and the look: the folder goes, a link to elsewhere takes its name.
  rmSync(month, { recursive: true })
  symlinkSync(join(root, '元'), month)
  const { notes, error } = await guard.after('bash')
  expect(error).toBeUndefined()
  expect(notes.join(' ')).toContain('岁月涟漪 (added)')
  expect(existsSync(month)).toBe(false)
  // Nothing is left for a later look to take back: the link was never kept.
  expect(await guard.before('bash')).toBeUndefined()
  expect((await guard.after('bash')).notes).toEqual([])
})

it("the host's read-then-write builds on what the guard keeps, not on a file a call's process swapped in under it (decision 293)", async () => {
  const { root, guard } = guarded()
  const day = join(root, '元', 'kept.json')
  expect(await guard.before('bash')).toBeUndefined()
  // A process of the call renames a forged file over the one the host is about to read and write back.
  writeFileSync(`${day}.x`, 'forged\n')
  spawnSync('mv', [`${day}.x`, day])
  const read = await readForRewrite(day, '元/kept.json')
  expect(read).toBe('before\n')
  // A file the guard does not keep reads as none; one a process removed reads as kept.
  writeFileSync(join(root, '元', 'planted.json'), 'forged\n')
  expect(await readForRewrite(join(root, '元', 'planted.json'), '元/planted.json')).toBe('')
  rmSync(day)
  expect(await readForRewrite(day, '元/kept.json')).toBe('before\n')
  await guard.after('bash')
})

it("an append of the host's vouches for what was kept followed by its line, not for a head a call's process rewrote meanwhile (decision 300)", async () => {
  const { root, guard } = guarded()
  const log = join(root, '元', 'kept.json')
  expect(await guard.before('bash')).toBeUndefined()
  await appendLine(log, 'the host appended this')
  // In the same moment a process of the call puts a forged record at the head.
  writeFileSync(log, 'forged\n' + readFileSync(log, 'utf8'))
  const { notes, error } = await guard.after('bash')
  expect(error).toBeUndefined()
  expect(notes.join(' ')).toContain('kept.json')
  expect(readFileSync(log, 'utf8')).toBe('before\nthe host appended this\n')
  // An append alone is the host's.
  expect(await guard.before('bash')).toBeUndefined()
  await appendLine(log, 'and this')
  expect((await guard.after('bash')).notes).toEqual([])
  expect(readFileSync(log, 'utf8')).toBe('before\nthe host appended this\nand this\n')
})

it("a host write a call's process replaced before the look is written back with the host's bytes, not the old ones (decision 293)", async () => {
  const { root, guard } = guarded()
  const day = join(root, '元', 'kept.json')
  expect(await guard.before('bash')).toBeUndefined()
  await atomicWrite(day, 'before\nthe host added this\n')
  // Right after the host's rename and before the guard looks: the process swaps its file in.
  writeFileSync(`${day}.x`, 'forged\n')
  spawnSync('mv', [`${day}.x`, day])
  const { notes, error } = await guard.after('bash')
  expect(error).toBeUndefined()
  expect(notes.join(' ')).toContain('kept.json (content)')
  expect(readFileSync(day, 'utf8')).toBe('before\nthe host added this\n')
  // Kept from then on: a later look finds nothing to put back.
  expect(await guard.before('bash')).toBeUndefined()
  expect((await guard.after('bash')).notes).toEqual([])
  expect(readFileSync(day, 'utf8')).toBe('before\nthe host added this\n')
})

it("a snapshot taken while a window is open holds what the guard keeps, not what a call's process swapped in or planted (decision 293)", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-effects-snap-'))
  const store = await MemoryStore.open({ env: { DSH_HOME: dir } })
  const { file } = await store.write({ text: '她自己写的。', kind: 'fact', axis: '智', reason: '测试' }, { by: 'person' })
  const day = join(store.root, file)
  const kept = readFileSync(day)
  writeFileSync(day.replace(/\.md$/, '-other.md'), '另一份，她的。\n', { mode: 0o600 })
  const guard = new EffectsGuard({ roots: [store.root, store.snapshotsDir], hostFolders: [store.snapshotsDir], shownFrom: dir, pollMs: 50 })
  made.push({ dir, guard })
  expect(await guard.before('bash')).toBeUndefined()
  writeFileSync(`${day}.x`, '伪造。\n')
  spawnSync('mv', [`${day}.x`, day])
  writeFileSync(join(store.root, '元', 'planted.json'), '{}\n')
  // And one the call's process removes for a moment: the snapshot still holds it.
  const anchor = join(store.root, file.replace(/\.md$/, '-other.md'))
  const anchorKept = readFileSync(anchor)
  rmSync(anchor)
  const snap = await takeSnapshot(store, 'manual')
  expect(readFileSync(join(snap.path, file))).toEqual(kept)
  expect(existsSync(join(snap.path, '元', 'planted.json'))).toBe(false)
  expect(readFileSync(join(snap.path, file.replace(/\.md$/, '-other.md')))).toEqual(anchorKept)
  await guard.after('bash')
  expect(readFileSync(day)).toEqual(kept)
  expect(readFileSync(anchor)).toEqual(anchorKept)
  await store.close()
})

it('a file a call writes is still put back', async () => {
  const { root, guard } = guarded()
  expect(await guard.before('bash')).toBeUndefined()
  writeFileSync(join(root, '元', 'kept.json'), 'changed by the call\n')
  const { notes } = await guard.after('bash')
  expect(notes.join(' ')).toContain('kept.json')
  expect(readFileSync(join(root, '元', 'kept.json'), 'utf8')).toBe('before\n')
})

it('a folder a call swaps for a link to itself is put back whole, not lost to the error of reading below it', async () => {
  const { root, guard } = guarded()
  mkdirSync(join(root, '锚'))
  writeFileSync(join(root, '锚', '我是谁.md'), '# 我是谁\n')
  guard.dispose()
  const fresh = new EffectsGuard({ roots: [root], hostFolders: [], shownFrom: root, pollMs: 50 })
  made.push({ dir: mkdtempSync(join(tmpdir(), 'cyrene-effects-')), guard: fresh })
  expect(await fresh.before('bash')).toBeUndefined()
  rmSync(join(root, '锚'), { recursive: true })
  symlinkSync('锚', join(root, '锚'))
  const { notes, error } = await fresh.after('bash')
  expect(error).toBeUndefined()
  expect(notes.join(' ')).toContain('锚')
  expect(readFileSync(join(root, '锚', '我是谁.md'), 'utf8')).toBe('# 我是谁\n')
})

it('what a call changed and could not be put back is tried again at the next look, never kept as the person’s', async () => {
  const { root, guard } = guarded()
  expect(await guard.before('bash')).toBeUndefined()
  writeFileSync(join(root, '元', 'kept.json'), 'changed by the call\n')
  // Every put back fails while the window is open (an immutable folder, a full disk): injected here.
  const spy = vi.spyOn(Shadow.prototype, 'restore').mockImplementation((changes) => changes.map((c) => ({ path: c.path, error: 'EPERM (injected)' })))
  const { notes } = await guard.after('bash')
  expect(notes.join(' ')).toContain('could not be put back')
  await guard.whenSettled()
  spy.mockRestore()
  expect(readFileSync(join(root, '元', 'kept.json'), 'utf8')).toBe('changed by the call\n')
  expect(guard.doctorState().owed).toBe(1)
  // The window has closed (the obstacle is gone now); the next call's first look would take what changed meanwhile as the person's.
  expect(await guard.before('bash')).toBeUndefined()
  await guard.after('bash')
  expect(readFileSync(join(root, '元', 'kept.json'), 'utf8')).toBe('before\n')
  expect(guard.doctorState().owed).toBe(0)
})

it('a look that fails after the watches handed over what changed leaves the next look comparing everything', async () => {
  const { root, guard } = guarded()
  expect(await guard.before('bash')).toBeUndefined()
  writeFileSync(join(root, '元', 'kept.json'), 'changed by the call\n')
  const spy = vi.spyOn(Shadow.prototype, 'diffAt').mockImplementationOnce(() => {
    throw new Error('EIO (injected)')
  })
  const { error } = await guard.after('bash')
  spy.mockRestore()
  expect(error).toContain('EIO (injected)')
  // The watches have nothing more to say about kept.json; only a full compare finds it.
  await guard.whenSettled()
  expect(readFileSync(join(root, '元', 'kept.json'), 'utf8')).toBe('before\n')
})

it('after the host was paused while a window was open, the next tick compares everything (the kernel may have dropped what changed)', async () => {
  const { root, guard } = guarded()
  expect(await guard.before('bash')).toBeUndefined()
  // What the watches never report (as when the kernel's queue overflowed while the host was stopped).
  const spy = vi.spyOn(Shadow.prototype, 'diffAt').mockImplementation(() => [])
  writeFileSync(join(root, '元', 'kept.json'), 'changed while the host was stopped\n')
  // The host's thread is held for longer than a tick may be late (as SIGSTOP would).
  const until = Date.now() + 1300
  while (Date.now() < until) {
    /* paused */
  }
  // The watches still say nothing; the first tick after the pause compares every file.
  await expect.poll(() => readFileSync(join(root, '元', 'kept.json'), 'utf8'), { timeout: 10_000 }).toBe('before\n')
  spy.mockRestore()
  await guard.after('bash')
})

function guardedWithSnapshots(): { root: string; snaps: string; guard: EffectsGuard } {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-effects-'))
  const root = join(dir, 'store')
  const snaps = join(dir, 'store-snapshots')
  mkdirSync(join(root, '元'), { recursive: true })
  mkdirSync(join(snaps, '2026-12-05'), { recursive: true })
  writeFileSync(join(snaps, '2026-12-05', 'day.md'), 'a snapshot\n')
  const guard = new EffectsGuard({ roots: [root, snaps], hostFolders: [snaps], shownFrom: dir, pollMs: 50 })
  made.push({ dir, guard })
  return { root, snaps, guard }
}

it('a snapshot a call removes while the host writes a memory is put back: only the host’s own snapshot work vouches for its folder', async () => {
  const { root, snaps, guard } = guardedWithSnapshots()
  expect(await guard.before('bash')).toBeUndefined()
  rmSync(join(snaps, '2026-12-05'), { recursive: true })
  await atomicWrite(join(root, '元', 'written.json'), '{}\n')
  await guard.after('bash')
  expect(readFileSync(join(snaps, '2026-12-05', 'day.md'), 'utf8')).toBe('a snapshot\n')
  expect(readFileSync(join(root, '元', 'written.json'), 'utf8')).toBe('{}\n')
})

it('a snapshot the host prunes during a call stays pruned', async () => {
  const { snaps, guard } = guardedWithSnapshots()
  expect(await guard.before('bash')).toBeUndefined()
  await asHostFolderWork([join(snaps, '2026-12-05')], async () => rmSync(join(snaps, '2026-12-05'), { recursive: true }))
  await guard.after('bash')
  expect(existsSync(join(snaps, '2026-12-05'))).toBe(false)
})

it('a snapshot a call changes or removes while the host takes another is put back: the host’s work vouches only for the snapshot it names (decision 316)', async () => {
  const { snaps, guard } = guardedWithSnapshots()
  mkdirSync(join(snaps, '2026-12-04'))
  writeFileSync(join(snaps, '2026-12-04', 'day.md'), 'an older snapshot\n')
  expect(await guard.before('bash')).toBeUndefined()
  await asHostFolderWork([join(snaps, '2026-12-06')], async () => {
    mkdirSync(join(snaps, '2026-12-06'))
    writeFileSync(join(snaps, '2026-12-06', 'day.md'), 'the new snapshot\n')
    // A process of the call, at the same moment.
    writeFileSync(join(snaps, '2026-12-05', 'day.md'), 'forged\n')
    rmSync(join(snaps, '2026-12-04'), { recursive: true })
  })
  await guard.after('bash')
  expect(readFileSync(join(snaps, '2026-12-05', 'day.md'), 'utf8')).toBe('a snapshot\n')
  expect(readFileSync(join(snaps, '2026-12-04', 'day.md'), 'utf8')).toBe('an older snapshot\n')
  expect(readFileSync(join(snaps, '2026-12-06', 'day.md'), 'utf8')).toBe('the new snapshot\n')
})

it('a snapshot taken during a call keeps only what its copy listed: a file or a folder a call drops into it is removed (decision 332)', async () => {
  const { snaps, guard } = guardedWithSnapshots()
  expect(await guard.before('bash')).toBeUndefined()
  const listing = new FolderListing()
  const tmp = join(snaps, '.tmp-2026-12-06-1')
  const final = join(snaps, '2026-12-06')
  await asHostFolderWork(
    [tmp, final],
    async () => {
      listing.add('锚/我是谁.md')
      mkdirSync(join(tmp, '锚'), { recursive: true })
      writeFileSync(join(tmp, '锚', '我是谁.md'), 'taken\n')
      // A process of the call, at the same moment: a file beside the host's, a folder inside one it made.
      writeFileSync(join(tmp, 'forged.md'), 'forged\n')
      mkdirSync(join(tmp, '锚', 'forged'))
      writeFileSync(join(tmp, '锚', 'forged', 'x.md'), 'forged\n')
      listing.add('.manifest.json')
      writeFileSync(join(tmp, '.manifest.json'), '{}\n')
      renameSync(tmp, final)
    },
    listing,
  )
  await guard.after('bash')
  expect(readdirSync(final, { recursive: true }).map(String).sort()).toEqual(['.manifest.json', '锚', '锚/我是谁.md'])
  expect(readFileSync(join(final, '锚', '我是谁.md'), 'utf8')).toBe('taken\n')
})

it('a file of the snapshot being taken that a call rewrites during the copy gets the bytes the copy wrote back (decision 332)', async () => {
  const { snaps, guard } = guardedWithSnapshots()
  expect(await guard.before('bash')).toBeUndefined()
  const listing = new FolderListing()
  const final = join(snaps, '2026-12-06')
  await asHostFolderWork(
    [final],
    async () => {
      mkdirSync(join(final, '锚'), { recursive: true })
      listing.add('锚/我是谁.md', Buffer.from('taken\n'))
      writeFileSync(join(final, '锚', '我是谁.md'), 'taken\n')
      listing.add('元/settings.json', Buffer.from('{}\n'))
      mkdirSync(join(final, '元'))
      writeFileSync(join(final, '元', 'settings.json'), '{}\n')
      // A process of the call, at the same moment: one file rewritten, one removed.
      writeFileSync(join(final, '锚', '我是谁.md'), 'forged\n')
      rmSync(join(final, '元', 'settings.json'))
    },
    listing,
  )
  await guard.after('bash')
  expect(readFileSync(join(final, '锚', '我是谁.md'), 'utf8')).toBe('taken\n')
  expect(readFileSync(join(final, '元', 'settings.json'), 'utf8')).toBe('{}\n')
})

it('a second name of a store file that goes away during a call is no change; a new one is put back (decision 336)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-effects-'))
  const root = join(dir, 'store')
  mkdirSync(join(root, '元'), { recursive: true })
  const kept = join(root, '元', 'kept.json')
  const other = join(dir, 'other-name.json')
  writeFileSync(kept, 'before\n')
  // A second name the file had when the guard started (a backup tool's hard link, or one a call left earlier).
  linkSync(kept, other)
  const guard = new EffectsGuard({ roots: [root], hostFolders: [], shownFrom: dir, pollMs: 50 })
  made.push({ dir, guard })
  expect(await guard.before('bash')).toBeUndefined()
  const ino = statSync(kept).ino
  rmSync(other)
  expect((await guard.after('bash')).notes).toEqual([])
  expect(statSync(kept).ino).toBe(ino)
  // A new name made during a call: the file is written anew, and the new name no longer reaches it.
  expect(await guard.before('bash')).toBeUndefined()
  linkSync(kept, other)
  expect((await guard.after('bash')).notes.join('')).toContain('hard link')
  expect(statSync(kept).nlink).toBe(1)
})

it('a file a call makes under a name that is not UTF-8 is removed; one that was there before is left alone', async () => {
  const { root, guard } = guarded()
  const named = (name: string) => Buffer.concat([Buffer.from(join(root, '元') + '/'), Buffer.from(name, 'latin1')])
  guard.dispose()
  writeFileSync(named('\xfeold.json'), 'the person’s\n')
  const fresh = new EffectsGuard({ roots: [root], hostFolders: [], shownFrom: root, pollMs: 50 })
  made.push({ dir: mkdtempSync(join(tmpdir(), 'cyrene-effects-')), guard: fresh })
  expect(await fresh.before('bash')).toBeUndefined()
  writeFileSync(named('\xffevil.json'), 'forged\n')
  const { notes } = await fresh.after('bash')
  expect(notes.join(' ')).toContain('(added)')
  expect(existsSync(named('\xffevil.json'))).toBe(false)
  expect(readFileSync(named('\xfeold.json'), 'utf8')).toBe('the person’s\n')
})

it.runIf(process.getuid?.() === 0)('a file whose owner a call changed (chown) is given back to its owner', async () => {
  const { root, guard } = guarded()
  expect(await guard.before('bash')).toBeUndefined()
  chownSync(join(root, '元', 'kept.json'), 65534, 65534)
  const { notes } = await guard.after('bash')
  expect(notes.join(' ')).toContain('kept.json (owner)')
  expect(statSync(join(root, '元', 'kept.json')).uid).toBe(0)
})

/** Rewrites `from` as `to` (same length) inside `file` through a shared mapping: no watch event is raised. */
function writeThroughMapping(file: string, from: string, to: string): void {
  const script = `import mmap, sys\nf = open(sys.argv[1], 'r+b')\nm = mmap.mmap(f.fileno(), 0)\na, b = sys.argv[2].encode(), sys.argv[3].encode()\ni = m.find(a)\nm[i:i + len(b)] = b\nm.flush()\nm.close()\nf.close()\n`
  const r = spawnSync('python3', ['-c', script, file, from, to], { encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`python3 mmap failed: ${r.stderr}`)
}

it('a write through a shared mapping (mmap), which raises no watch event, is put back before the window closes', async () => {
  const { root, guard } = guarded()
  expect(await guard.before('bash')).toBeUndefined()
  writeThroughMapping(join(root, '元', 'kept.json'), 'before', 'BEFORE')
  await guard.after('bash')
  await guard.whenSettled()
  expect(readFileSync(join(root, '元', 'kept.json'), 'utf8')).toBe('before\n')
  expect(guard.takeNotes().join(' ')).toContain('kept.json')
})

it('a write through a shared mapping is put back before a memory tool of the plugin runs in the same window, so the host never carries it into its own write', async () => {
  const { root, guard } = guarded()
  expect(await guard.before('bash')).toBeUndefined()
  writeThroughMapping(join(root, '元', 'kept.json'), 'before', 'BEFORE')
  await guard.after('bash')
  expect(await guard.before('memory_write')).toBeUndefined()
  expect(readFileSync(join(root, '元', 'kept.json'), 'utf8')).toBe('before\n')
  await guard.after('memory_write')
})

it('a look at a folder the watches named finds an entry removed from it, as the whole compare does', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-shadow-'))
  try {
    const root = join(dir, 'store')
    mkdirSync(join(root, '锚'), { recursive: true })
    writeFileSync(join(root, '锚', '我是谁.md'), '# 我是谁\n')
    writeFileSync(join(root, '锚', '你是谁.md'), '# 你是谁\n')
    const shadow = new Shadow([root])
    rmSync(join(root, '锚', '我是谁.md'))
    const removed = { path: join(root, '锚', '我是谁.md'), what: 'removed' }
    expect(shadow.diffAt([join(root, '锚')])).toEqual([removed])
    expect(shadow.diff()).toEqual([removed])
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

it("a window tells the host's own read-then-write work that a change may be the call's, until it closes", async () => {
  const { guard } = guarded()
  expect(callWindowOpen()).toBe(false)
  expect(await guard.before('bash')).toBeUndefined()
  expect(callWindowOpen()).toBe(true)
  await guard.after('bash')
  // The window closes on the guard's ticks once no call runs and no process it started lives.
  await vi.waitFor(() => expect(callWindowOpen()).toBe(false), { timeout: 5_000, interval: 20 })
  expect(await guard.before('bash')).toBeUndefined()
  guard.dispose()
  expect(callWindowOpen()).toBe(false)
})
