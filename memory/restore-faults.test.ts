import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setTimeout as sleep } from 'node:timers/promises'
import { MemoryStore } from './store.ts'
import { openEngine } from './engine.ts'
import { EngineBusyError } from './engine-lock.ts'
import { listSnapshots, takeSnapshot } from './snapshots.ts'
import { restoreSnapshot } from './restore.ts'
import { serializeEntry } from './entry.ts'
import { dayFileRel } from './paths.ts'
import { tempHome } from './testing/tmp.ts'
import { mountTmpfs } from '../durable/testing/tmpfs.ts'
import { useTmpfs } from '../durable/testing/use-tmpfs.ts'
import { hashTree } from './testing/tree.ts'

const RESTORER = fileURLToPath(new URL('./testing/restorer.ts', import.meta.url))

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

const sameTree = (a: Record<string, string>, b: Record<string, string>) => JSON.stringify(a) === JSON.stringify(b)

/** `n` files of about `kb` KB of text in 余页/, different for each `tag`. */
async function fillMargin(root: string, n: number, kb: number, tag: string): Promise<void> {
  for (let i = 0; i < n; i++) await fs.writeFile(join(root, '余页', `big-${i}.md`), `${tag}-${i} ${'涟'.repeat(Math.floor((kb * 1024) / 3) - 10)}\n`)
}

describe('full disk (a real 2 MB tmpfs)', () => {
  const tmpfs = useTmpfs('2m')

  const free = async () => {
    const s = await fs.statfs(tmpfs.dir)
    return s.bavail * s.bsize
  }

  it('a backup that runs out of space removes its .tmp- folder, keeps the store and says ENOSPC (issue 7 item 5)', async () => {
    const home = join(tmpfs.dir, 'home')
    await fs.mkdir(home)
    const s = await MemoryStore.open({ env: { DSH_HOME: home } })
    await s.write({ text: '一件事', kind: 'fact', axis: '智', reason: 'r' }, { by: 'person' })
    await fillMargin(s.root, 12, 100, 'a')
    const before = await hashTree(s.root)
    const freeBefore = await free()
    const err = await takeSnapshot(s, 'manual').then(
      () => undefined,
      (e: unknown) => e as NodeJS.ErrnoException,
    )
    expect(err?.code).toBe('ENOSPC')
    expect((await fs.readdir(s.snapshotsDir)).filter((n) => n.startsWith('.tmp-'))).toEqual([])
    expect(await listSnapshots(s)).toEqual([])
    expect(await hashTree(s.root)).toEqual(before)
    // the space the half copy took is given back
    expect(await free()).toBe(freeBefore)
  })

  it('a restore whose staging copy hits a full disk leaves the old store untouched and removes the staging', async () => {
    // The root is a link into the small disk; snapshots live beside the link, on the big one.
    const real = join(tmpfs.dir, 'store')
    await fs.mkdir(real)
    await fs.symlink(real, t.root)
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await fillMargin(t.root, 11, 100, 'a')
    const snap = await takeSnapshot(s, 'manual')
    await fillMargin(t.root, 11, 100, 'b')
    const before = await hashTree(real)
    const freeBefore = await free()
    const err = await restoreSnapshot(s, snap.name, { by: 'person' }).then(
      () => undefined,
      (e: unknown) => e as NodeJS.ErrnoException,
    )
    expect(err?.code).toBe('ENOSPC')
    expect(await hashTree(real)).toEqual(before)
    expect(await fs.readdir(tmpfs.dir)).toEqual(['store'])
    expect(await free()).toBe(freeBefore)
    expect((await fs.lstat(t.root)).isSymbolicLink()).toBe(true)
    expect(await listSnapshots(s)).toContain(snap.name)
  })
})

/** A child restoring `name` in `home`; `seen` fills with each line it prints and when. */
function spawnRestorer(
  home: string,
  name: string,
): {
  child: ReturnType<typeof spawn>
  seen: Array<{ line: string; at: number }>
  waitFor: (line: string) => Promise<boolean>
  done: Promise<number | null>
  stderr: () => string
} {
  const child = spawn(process.execPath, [RESTORER, home, name], { stdio: ['ignore', 'pipe', 'pipe'] })
  const seen: Array<{ line: string; at: number }> = []
  const waiters: Array<{ line: string; resolve: (ok: boolean) => void }> = []
  let buf = ''
  let err = ''
  child.stdout!.setEncoding('utf8')
  child.stdout!.on('data', (d: string) => {
    buf += d
    let nl: number
    while ((nl = buf.indexOf('\n')) >= 0) {
      const line = buf.slice(0, nl)
      buf = buf.slice(nl + 1)
      seen.push({ line, at: performance.now() })
      for (const w of waiters.filter((x) => x.line === line)) w.resolve(true)
    }
  })
  child.stderr!.setEncoding('utf8')
  child.stderr!.on('data', (d: string) => {
    err += d
  })
  const done = new Promise<number | null>((r) =>
    child.on('close', (code) => {
      for (const w of waiters) w.resolve(false)
      r(code)
    }),
  )
  const waitFor = (line: string) =>
    seen.some((s) => s.line === line) ? Promise.resolve(true) : new Promise<boolean>((resolve) => waiters.push({ line, resolve }))
  return { child, seen, waitFor, done, stderr: () => err }
}

/** ~2,000 day files of one entry each, then (after the snapshot) every one of them changed, some gone, some new. */
async function bigStore(home: string): Promise<{ name: string; old: Record<string, string>; snap: Record<string, string> }> {
  const root = join(home, 'cyrene-philia093-0')
  await MemoryStore.open({ env: { DSH_HOME: home } })
  const day = (i: number) => new Date(Date.UTC(2020, 0, 1 + i)).toISOString().slice(0, 10)
  const entry = (i: number, text: string) =>
    serializeEntry({
      text,
      meta: {
        id: `20200101T000000000Z-${i.toString(36).padStart(6, '0')}${text.length}`,
        kind: 'fact',
        axis: '智',
        reason: 'r',
        at: `${day(i)}T12:00:00.000Z`,
        by: 'person',
        gate: 'day',
      },
    })
  const write = async (i: number, text: string) => {
    const rel = dayFileRel(day(i))
    await fs.mkdir(join(root, rel, '..'), { recursive: true })
    await fs.writeFile(join(root, rel), text)
  }
  for (let i = 0; i < 2000; i++) await write(i, entry(i, `第${i}天 最初的记忆`))
  const store = await MemoryStore.open({ env: { DSH_HOME: home } })
  const s = await takeSnapshot(store, 'manual')
  for (let i = 0; i < 2000; i++) await write(i, entry(i, `第${i}天 最初的记忆`) + '\n' + entry(i + 5000, `第${i}天 后来补的`))
  for (let i = 0; i < 20; i++) await fs.rm(join(root, dayFileRel(day(i * 7))))
  for (let i = 2000; i < 2030; i++) await write(i, entry(i, `第${i}天 新的一天`))
  return { name: s.name, old: await hashTree(root), snap: await hashTree(s.path) }
}

const KILL_ROUNDS = Number(process.env.CYRENE_RESTORE_KILLS ?? 6)

it(`SIGKILL mid-restore over ~2,000 day files at ${KILL_ROUNDS}+ moments: reopened, the store is exactly the old one or exactly the snapshot (issue 7 item 4e)`, async () => {
  // On a tmpfs: a killed process leaves the page cache as it was, so the file
  // system type does not change what is tested, and fsync costs nothing here.
  const ram = mountTmpfs('256m')
  try {
    await killRounds(ram.dir)
  } finally {
    ram.unmount()
  }
}, 600_000)

async function killRounds(dir: string): Promise<void> {
  const tpl = join(dir, 'template')
  await fs.mkdir(tpl)
  const { name, old, snap } = await bigStore(tpl)
  expect(Object.keys(old).length).toBeGreaterThan(2000)
  expect(sameTree(old, snap)).toBe(false)
  const fresh = async (n: string) => {
    const h = join(dir, n)
    await fs.cp(tpl, h, { recursive: true })
    return h
  }

  // One uninterrupted run in a child: it must end with the snapshot, and it times the steps.
  const home0 = await fresh('run-0')
  const base = spawnRestorer(home0, name)
  expect(await base.done, base.stderr()).toBe(0)
  expect(sameTree(await hashTree(join(home0, 'cyrene-philia093-0')), snap)).toBe(true)
  const at = (l: string) => base.seen.find((s) => s.line === l)!.at
  // Kill points: during the pre-restore snapshot, during staging, during the switch.
  const points: Array<[string, number]> = [
    ['PHASE validated', at('PHASE safety') - at('PHASE validated')],
    ['PHASE safety', at('PHASE staged') - at('PHASE safety')],
    ['PHASE committed', at('PHASE switched') - at('PHASE committed')],
  ]

  const outcomes = { old: 0, restored: 0, mixedBeforeRecovery: 0 }
  for (let round = 0; round < KILL_ROUNDS * 2; round++) {
    if (round >= KILL_ROUNDS && outcomes.old > 0 && outcomes.restored > 0 && outcomes.mixedBeforeRecovery > 0) break
    const [line, span] = points[round % points.length]!
    const home = await fresh(`run-${round + 1}`)
    const root = join(home, 'cyrene-philia093-0')
    const w = spawnRestorer(home, name)
    await w.waitFor(line)
    await sleep(Math.random() * span * 0.9)
    w.child.kill('SIGKILL')
    await w.done
    const raw = await hashTree(root)
    if (!sameTree(raw, old) && !sameTree(raw, snap)) outcomes.mixedBeforeRecovery++
    const store = await MemoryStore.open({ env: { DSH_HOME: home } })
    const after = await hashTree(root)
    const isOld = sameTree(after, old)
    const isSnap = sameTree(after, snap)
    expect(isOld || isSnap, `round ${round}: killed ${line} +≤${Math.round(span)} ms; the store is neither the old one nor the snapshot`).toBe(true)
    if (isOld) outcomes.old++
    else outcomes.restored++
    await expect(fs.lstat(`${root}-restore`)).rejects.toThrow(/ENOENT/)
    expect(await listSnapshots(store)).toContain(name)
    if (isSnap) expect((await store.auditLog()).filter((r) => r.op === 'restore').length).toBe(1)
    await fs.rm(home, { recursive: true, force: true })
  }
  // Meaningful only if the kills landed on both sides of the commit, and some inside the switch.
  expect(outcomes.old).toBeGreaterThan(0)
  expect(outcomes.restored).toBeGreaterThan(0)
  expect(outcomes.mixedBeforeRecovery).toBeGreaterThan(0)
}

it('a restore holds the engine lock: a DSH starting meanwhile is refused, and may start once it is done', async () => {
  const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  for (let i = 0; i < 50; i++)
    await s.write({ text: `事${i}`, kind: 'fact', axis: '智', reason: 'r', at: `2026-01-${String(1 + (i % 28)).padStart(2, '0')}T12:00:00` }, { by: 'person' })
  const snap = await takeSnapshot(s, 'manual')
  const w = spawnRestorer(t.home, snap.name)
  expect(await w.waitFor('PHASE validated')).toBe(true)
  w.child.kill('SIGSTOP')
  try {
    await expect(openEngine({ env: { DSH_HOME: t.home } })).rejects.toThrow(EngineBusyError)
  } finally {
    w.child.kill('SIGCONT')
  }
  expect(await w.done, w.stderr()).toBe(0)
  const engine = await openEngine({ env: { DSH_HOME: t.home } })
  await engine.close()
})
