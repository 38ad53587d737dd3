import { describe, expect, it } from 'vitest'
import { execFile } from 'node:child_process'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { promisify } from 'node:util'
import { fillDisk } from '../durable/testing/tmpfs.ts'
import { useTmpfs } from '../durable/testing/use-tmpfs.ts'
import { MemoryStore } from './store.ts'
import { dayFileRel, ROOT_NAME } from './paths.ts'
import { appendLine, isTempName, walkFiles } from './fsio.ts'

/**
 * Issue 7 item 1 through the compiled `cyrene` bin on a real full disk: a
 * 2 MB tmpfs mounted as DSH_HOME (tests run as root; a failed mount fails).
 * The bin runs dist/: `npm run compile` first.
 */
const BIN = fileURLToPath(new URL('../bin/cyrene.js', import.meta.url))
const run = promisify(execFile)

interface Ran {
  code: number
  stdout: string
  stderr: string
}
// The command line speaks the locale's language (decision 082); these checks read its English words.
const ENGLISH = { LANG: 'en_US.UTF-8', LC_ALL: 'en_US.UTF-8', LC_MESSAGES: 'en_US.UTF-8' }

async function cyrene(home: string, ...args: string[]): Promise<Ran> {
  try {
    const { stdout, stderr } = await run(process.execPath, [BIN, ...args], { env: { ...process.env, ...ENGLISH, DSH_HOME: home }, maxBuffer: 16 * 1024 * 1024 })
    return { code: 0, stdout, stderr }
  } catch (e) {
    const x = e as { code?: unknown; stdout?: string; stderr?: string }
    return { code: typeof x.code === 'number' ? x.code : -1, stdout: x.stdout ?? '', stderr: x.stderr ?? '' }
  }
}

const DAY = '2024-05-17'
/** ~1 KB per entry (CJK is 3 bytes a character), so 40 entries make a ~42 KB day file as in the issue. */
const entryText = (i: number): string => `第${i}条：${'她说今天的风很温柔，我们一起走过了河边的小路。'.repeat(14)}`

const fsys = useTmpfs('2m')

async function dayWith40(home: string): Promise<{ file: string; bytes: Buffer }> {
  const store = await MemoryStore.open({ env: { DSH_HOME: home } })
  for (let i = 0; i < 40; i++) await store.write({ text: entryText(i), kind: 'fact', axis: '智', reason: '测试', at: DAY }, { by: 'person' })
  const file = join(home, ROOT_NAME, dayFileRel(DAY))
  return { file, bytes: await fs.readFile(file) }
}

async function listedIds(home: string): Promise<string[]> {
  const r = await cyrene(home, 'memory', 'list', '--limit', '100000', '--json')
  expect(r.code).toBe(0)
  return (JSON.parse(r.stdout) as { entries: Array<{ id: string }> }).entries.map((e) => e.id)
}

describe('disk full through the cyrene bin (issue 7 item 1)', () => {
  it('disk full: a refused write leaves the 40-entry day file byte-identical and says "disk full"; after freeing space list shows all 40 and check is clean', async () => {
    const home = fsys.dir
    const { file, bytes } = await dayWith40(home)
    expect(bytes.length).toBeGreaterThan(40_000)
    // 12 KB left, as in the issue: the kernel takes part of the new day file, then refuses.
    const filler = join(home, 'filler')
    await fillDisk(filler, 12_288)

    const w = await cyrene(home, 'memory', 'write', '磁盘满了也不能丢字。', '--kind', 'fact', '--axis', '智', '--reason', '测试', '--at', DAY)
    expect(w.code).toBe(3)
    expect(w.stdout).not.toMatch(/written/)
    expect(w.stderr).toMatch(/^cyrene memory: disk full: no space left for \S*2024-05-17\.md\. Nothing was changed\. Free some space/)
    expect(w.stderr.trim().split('\n')).toHaveLength(1)
    expect(await fs.readFile(file)).toEqual(bytes)

    await fs.unlink(filler)
    expect(await listedIds(home)).toHaveLength(40)
    const check = await cyrene(home, 'memory', 'check', '--json')
    expect(check.code).toBe(0)
    expect((JSON.parse(check.stdout) as { errors: unknown[] }).errors).toEqual([])
  })

  it('memory reindex on a full disk says the index was not saved and exits 3 (outside fault audit)', async () => {
    const home = fsys.dir
    await dayWith40(home)
    const filler = join(home, 'filler')
    await fillDisk(filler)
    const r = await cyrene(home, 'memory', 'reindex', '--quiet')
    expect(r.stdout).toContain('not cached')
    expect(r.code).toBe(3)
    await fs.unlink(filler)
  })

  it('a restore or a settings change refused by a full disk before it changed anything says "Nothing was changed", not "may have" (fault audit, decision 291)', async () => {
    const home = fsys.dir
    const { file, bytes } = await dayWith40(home)
    const backup = await cyrene(home, 'backup', '--json')
    expect(backup.code, backup.stderr).toBe(0)
    const name = (JSON.parse(backup.stdout) as { name: string }).name
    const filler = join(home, 'filler')
    // No room for the pre-restore snapshot; then room for it but not for the staged copy.
    for (const left of [0, 80 * 1024]) {
      await fillDisk(filler, left)
      const restore = await cyrene(home, 'restore', name)
      expect(restore.code, restore.stderr).toBe(3)
      expect(restore.stderr).toContain('Nothing was changed.')
      expect(restore.stderr).not.toContain('may have stopped')
      await fs.unlink(filler)
    }
    await fillDisk(filler)
    const settings = await cyrene(home, 'settings', 'set', 'nickname', '阿澄')
    expect(settings.code, settings.stderr).toBe(3)
    expect(settings.stderr).toContain('Nothing was changed.')
    expect(settings.stderr).not.toContain('may have finished')
    expect(await fs.readFile(file)).toEqual(bytes)
    await fs.unlink(filler)
  })

  it('bulk: writes while the disk fills up — every write that exited 0 is there afterwards, check is clean, no temp file is left', async () => {
    const home = fsys.dir
    const store = await MemoryStore.open({ env: { DSH_HOME: home } })
    const acked: string[] = []
    // Fill all but ~160 KB, then write ~1 KB entries into a handful of day files
    // (each rewrite needs the whole file twice) until well past the point where
    // the disk refuses. Bounded: at most 400 writes.
    const filler = join(home, 'filler')
    await fillDisk(filler, 160 * 1024)
    const refusals: string[] = []
    for (let i = 0; i < 400 && refusals.length < 40; i++) {
      const at = `2024-06-${String(1 + (i % 6)).padStart(2, '0')}`
      try {
        const r = await store.write({ text: entryText(i), kind: 'fact', axis: '智', reason: '测试', at }, { by: 'person' })
        acked.push(r.id)
      } catch (e) {
        refusals.push(`${(e as NodeJS.ErrnoException).code}: ${(e as Error).message}`)
      }
    }
    expect(refusals.length).toBeGreaterThan(0)
    // Every refusal is the full disk, said as such (never "not valid UTF-8": nothing got corrupted).
    for (const r of refusals) expect(r).toMatch(/^ENOSPC: .*disk full/)
    expect(refusals.some((r) => /^ENOSPC: disk full while writing \S+\.md; the previous version is unchanged\./.test(r))).toBe(true)
    expect(acked.length).toBeGreaterThan(0)
    // And through the bin, once the disk is full.
    const viaBin = await cyrene(home, 'memory', 'write', '满了', '--kind', 'fact', '--axis', '智', '--reason', '测试', '--at', '2024-06-01')
    expect(viaBin.code).not.toBe(0)
    expect(viaBin.stderr).toMatch(/disk full/)

    await fs.unlink(filler)
    const listed = new Set(await listedIds(home))
    expect(acked.filter((id) => !listed.has(id))).toEqual([])
    const check = await cyrene(home, 'memory', 'check', '--json')
    expect((JSON.parse(check.stdout) as { errors: unknown[] }).errors).toEqual([])
    expect(check.code).toBe(0)
    expect((await walkFiles(join(home, ROOT_NAME))).filter(isTempName)).toEqual([])
  })
})

describe('the audit log is appended whole (the fault audit found a torn line swallowing the next record)', () => {
  it('a line the disk cuts short is cut off again; a line torn earlier (a crash) does not take the next record with it', async () => {
    const home = join(fsys.dir, 'audit')
    await fs.mkdir(home)
    const store = await MemoryStore.open({ env: { DSH_HOME: home } })
    const log = join(store.root, '元/审计/2026-01.jsonl')
    await fs.mkdir(join(store.root, '元/审计'), { recursive: true })
    await fs.writeFile(log, '{"op":"first"}\n')
    await fillDisk(join(fsys.dir, 'filler'), 4096)
    await expect(appendLine(log, JSON.stringify({ op: 'big', text: '长'.repeat(20000) }), { root: store.root })).rejects.toMatchObject({ code: 'ENOSPC' })
    expect(await fs.readFile(log, 'utf8')).toBe('{"op":"first"}\n')
    await fs.unlink(join(fsys.dir, 'filler'))
    await fs.appendFile(log, '{"op":"torn by a cr')
    await appendLine(log, '{"op":"next"}', { root: store.root })
    const ops: unknown[] = []
    for (const line of (await fs.readFile(log, 'utf8')).split('\n')) {
      try {
        ops.push((JSON.parse(line) as { op: unknown }).op)
      } catch {
        /* the torn line */
      }
    }
    expect(ops).toEqual(['first', 'next'])
  })
})
