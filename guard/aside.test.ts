import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { takeHostWrites } from '../durable/host-writes.ts'
import { useTmpfs } from '../durable/testing/use-tmpfs.ts'
import { fillDisk } from '../durable/testing/tmpfs.ts'
import { keepAside, LARGE, MAX_FILE, putBackDirOf, putBackUsage, readDisplaced } from './aside.ts'

const cleanup: Array<() => void> = []
afterEach(() => {
  for (const c of cleanup.splice(0)) c()
})

/** A DSH_HOME with a store in it. */
function home(): { home: string; root: string; putBack: string } {
  const dir = mkdtempSync(join(tmpdir(), 'cyrene-aside-'))
  cleanup.push(() => rmSync(dir, { recursive: true, force: true }))
  const root = join(dir, 'cyrene-philia093-0')
  mkdirSync(join(root, '锚'), { recursive: true })
  return { home: dir, root, putBack: putBackDirOf(root) }
}

const NOW = new Date('2026-12-07T09:00:00.000Z')

describe('keeping aside what the guard puts back (decision 296)', () => {
  it('keeps a file and the files of a folder under their path from DSH_HOME, private, and declared as the host’s', () => {
    const t = home()
    writeFileSync(join(t.root, '锚/我是谁.md'), 'saved by the person\n')
    mkdirSync(join(t.root, '余页/new/deeper'), { recursive: true })
    writeFileSync(join(t.root, '余页/new/deeper/a.md'), 'a\n')
    const displaced = readDisplaced([join(t.root, '锚/我是谁.md'), join(t.root, '余页/new')], t.home)
    expect(displaced.skipped).toBe(0)
    takeHostWrites()
    const aside = keepAside(t.putBack, displaced.files, NOW)
    expect(aside).toEqual({ dir: join(t.putBack, '2026-12-07T09-00-00.000Z'), kept: 2, skipped: 0 })
    const kept = join(aside.dir!, 'cyrene-philia093-0/锚/我是谁.md')
    expect(readFileSync(kept, 'utf8')).toBe('saved by the person\n')
    expect(readFileSync(join(aside.dir!, 'cyrene-philia093-0/余页/new/deeper/a.md'), 'utf8')).toBe('a\n')
    expect(statSync(kept).mode & 0o777).toBe(0o600)
    expect(statSync(aside.dir!).mode & 0o777).toBe(0o700)
    const declared = takeHostWrites()
    expect(declared.paths.has(kept)).toBe(true)
    expect(declared.paths.has(aside.dir!)).toBe(true)
    expect(Buffer.from(declared.contents.get(kept)![0]!).toString()).toBe('saved by the person\n')
    expect(putBackUsage(t.putBack)).toEqual({ looks: 1, bytes: 22 })
  })

  it('a second look in the same millisecond gets a folder of its own', () => {
    const t = home()
    writeFileSync(join(t.root, '锚/x.md'), 'x\n')
    const files = readDisplaced([join(t.root, '锚/x.md')], t.home).files
    keepAside(t.putBack, files, NOW)
    const second = keepAside(t.putBack, files, NOW)
    expect(second.dir).toBe(join(t.putBack, '2026-12-07T09-00-00.000Z-1'))
    expect(readdirSync(t.putBack)).toHaveLength(2)
  })

  it('a file larger than the bound is not kept, a link is not read, and both are said', () => {
    const t = home()
    writeFileSync(join(t.root, '锚/big.md'), Buffer.alloc(1001, 0x61))
    symlinkSync('/etc/hostname', join(t.root, '锚/link.md'))
    const displaced = readDisplaced([join(t.root, '锚/big.md'), join(t.root, '锚/link.md')], t.home, { maxFile: 1000, budget: 10_000 })
    expect(displaced).toEqual({ files: [], skipped: 1 })
  })

  it("a person's day file of several MiB saved during a window is kept (decision 334: it was not, over 1 MiB)", () => {
    const t = home()
    const day = Buffer.alloc(3 * 1024 * 1024, 0x61)
    writeFileSync(join(t.root, '锚/day.md'), day)
    const displaced = readDisplaced([join(t.root, '锚/day.md')], t.home)
    expect(displaced.skipped).toBe(0)
    expect(displaced.files[0]!.bytes.equals(day)).toBe(true)
    expect(MAX_FILE).toBeGreaterThanOrEqual(32 * 1024 * 1024)
  })

  it("one look reads up to its budget, smallest first: a call's large dumps cannot push a small edit out (decision 334)", () => {
    const t = home()
    for (const n of [1, 2, 3]) writeFileSync(join(t.root, `锚/dump${n}.md`), Buffer.alloc(400, 0x61))
    writeFileSync(join(t.root, '锚/我是谁.md'), 'saved by the person\n')
    const displaced = readDisplaced([join(t.root, '锚')], t.home, { maxFile: 1000, budget: 1000 })
    expect(displaced.files.map((f) => f.rel)).toContain('cyrene-philia093-0/锚/我是谁.md')
    expect(displaced.files).toHaveLength(3)
    expect(displaced.skipped).toBe(1)
  })

  it('a link where the put-back folder goes is never written through', () => {
    const t = home()
    const elsewhere = join(t.home, 'elsewhere')
    mkdirSync(elsewhere)
    symlinkSync(elsewhere, t.putBack)
    writeFileSync(join(t.root, '锚/x.md'), 'x\n')
    const aside = keepAside(t.putBack, readDisplaced([join(t.root, '锚/x.md')], t.home).files, NOW)
    expect(aside).toEqual({ kept: 0, skipped: 1 })
    expect(readdirSync(elsewhere)).toEqual([])
  })

  it('one call cannot fill the folder: after more than 16 MiB of copies a later save is still kept (decision 327)', () => {
    const t = home()
    // The flood: seventeen 1 MiB files a call wrote into the store, each put back and copied.
    const oneFile = Buffer.alloc(1024 * 1024, 0x61)
    const flood = Math.ceil(LARGE / oneFile.length) + 1
    const files = Array.from({ length: flood }, (_, n) => ({ rel: `cyrene-philia093-0/余页/f${n}.md`, bytes: oneFile }))
    expect(keepAside(t.putBack, files, NOW)).toMatchObject({ kept: flood, skipped: 0 })
    expect(putBackUsage(t.putBack).bytes).toBeGreaterThan(LARGE)
    // The person's editor saves an anchor in the window that call held open: what they saved is kept.
    writeFileSync(join(t.root, '锚/我是谁.md'), 'saved by the person\n')
    const aside = keepAside(t.putBack, readDisplaced([join(t.root, '锚/我是谁.md')], t.home).files, new Date(NOW.getTime() + 1))
    expect(aside).toMatchObject({ kept: 1, skipped: 0 })
    expect(readFileSync(join(aside.dir!, 'cyrene-philia093-0/锚/我是谁.md'), 'utf8')).toBe('saved by the person\n')
  })

  it('a folder outside DSH_HOME (a whale-persona folder set apart) is kept under elsewhere/', () => {
    const t = home()
    const outside = mkdtempSync(join(tmpdir(), 'cyrene-aside-whale-'))
    cleanup.push(() => rmSync(outside, { recursive: true, force: true }))
    writeFileSync(join(outside, 'persona.json'), '{}\n')
    const files = readDisplaced([join(outside, 'persona.json')], t.home).files
    expect(files[0]!.rel).toBe(join('elsewhere', outside.slice(1), 'persona.json'))
  })
})

describe('keeping aside on a full disk', () => {
  const fs = useTmpfs('1m')

  it('a copy cut short by a full disk is not left behind, and is counted as not kept', async () => {
    const dir = join(fs.dir, 'home')
    const root = join(dir, 'cyrene-philia093-0')
    mkdirSync(join(root, '锚'), { recursive: true })
    writeFileSync(join(root, '锚/x.md'), Buffer.alloc(64 * 1024, 0x61))
    const files = readDisplaced([join(root, '锚/x.md')], dir).files
    // Room for the look's folders, not for the copy's 64 KiB.
    await fillDisk(join(fs.dir, 'filler'), 16 * 1024)
    takeHostWrites()
    const aside = keepAside(putBackDirOf(root), files, NOW)
    expect(aside.kept).toBe(0)
    expect(aside.skipped).toBe(1)
    const declared = takeHostWrites()
    // Nothing is in the put-back folder that is not declared with its bytes: no torn copy left undeclared.
    const left: string[] = []
    const visit = (p: string): void => {
      if (statSync(p).isDirectory()) for (const n of readdirSync(p)) visit(join(p, n))
      else left.push(p)
    }
    visit(putBackDirOf(root))
    expect(left.filter((p) => !declared.contents.has(p))).toEqual([])
  })
})
