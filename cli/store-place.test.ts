import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { main } from './main.ts'
import { memoryIO } from './io.ts'
import { tempHome } from '../memory/testing/tmp.ts'

// Where the command line may lay out a store, and where an export may write (an outside audit of
// bad input found reads, refusals and `--root` laying out stores, and `export --out` replacing
// the store's own files).

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = memoryIO({ DSH_HOME: t.home, LANG: 'en_US.UTF-8' }, t.home, '')
  const code = await main(args, io)
  return { code, out: io.out(), err: io.err() }
}

/** Every path under the home with its bytes (folders as ""): what "nothing changed" compares. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {}
  for (const name of (await fs.readdir(dir, { recursive: true })).sort()) {
    const path = join(dir, name)
    const st = await fs.lstat(path)
    out[name] = st.isFile() ? await fs.readFile(path, 'utf8') : ''
  }
  return out
}

const write = (text: string, ...more: string[]): Promise<{ code: number; out: string; err: string }> =>
  run(['memory', 'write', text, '--axis', '美', '--reason', 'r', ...more])

describe('a home without a store', () => {
  it('reads find nothing and make nothing', async () => {
    for (const args of [
      ['memory', 'list'],
      ['memory', 'search', 'tea'],
      ['memory', 'recall', 'tea'],
      ['memory', 'log'],
      ['memory', 'check'],
      ['backup', '--list'],
      ['volume', 'show'],
    ]) {
      const r = await run(args)
      expect(r.code, args.join(' ')).toBe(0)
    }
    expect(await fs.readdir(t.home)).toEqual([])
  })
  it('refusals make nothing; the first write makes the store', async () => {
    expect((await write('x', '--at', '2026-02-30')).code).toBe(2)
    expect((await run(['settings', 'set', 'style', 'none-such'])).code).toBe(2)
    expect((await run(['restore', 'nosuch'])).code).toBe(2)
    expect(await fs.readdir(t.home)).toEqual([])
    expect((await write('我养了一只猫')).code).toBe(0)
    expect((await run(['memory', 'search', '猫'])).out).toContain('我养了一只猫')
  })
})

describe('--root', () => {
  it('refuses a folder of other files, and names the store when it is a DSH home', async () => {
    await write('first')
    const before = await tree(t.home)
    const r = await run(['memory', 'list', '--root', t.home])
    expect(r.code).toBe(2)
    expect(r.err).toContain(`its store is ${t.root}`)
    expect(await tree(t.home)).toEqual(before)
    const notes = join(t.home, '..', `${t.home.split('/').pop()}-notes`)
    await fs.mkdir(notes)
    await fs.writeFile(join(notes, 'todo.txt'), 'mine')
    try {
      const w = await write('second', '--root', notes)
      expect(w.code).toBe(2)
      expect(w.err).toContain('holds other files and no memory store')
      expect(await fs.readdir(notes)).toEqual(['todo.txt'])
    } finally {
      await fs.rm(notes, { recursive: true, force: true })
    }
  })
  it('refuses an empty value, a relative path (naming the absolute one) and a file', async () => {
    expect((await run(['memory', 'list', '--root', ''])).code).toBe(2)
    expect((await write('here', '--root', 'store')).err).toContain(`--root ${join(t.home, 'store')}`)
    await fs.writeFile(join(t.home, 'file'), 'x')
    expect((await run(['memory', 'list', '--root', join(t.home, 'file')])).err).toContain('is a file, not a folder')
    expect(await fs.readdir(t.home)).toEqual(['file'])
  })
})

describe('memory export --out', () => {
  beforeEach(async () => {
    expect((await write('remember this')).code).toBe(0)
  })
  it('never writes inside the store, its snapshots or its index, not with --force, not through a link', async () => {
    await run(['backup'])
    await run(['memory', 'search', 'remember'])
    const day = (await fs.readdir(join(t.root, '岁月涟漪/日档'), { recursive: true })).find((f) => f.endsWith('.md'))!
    const snapshot = (await fs.readdir(`${t.root}-snapshots`))[0]!
    await fs.symlink(join(t.root, '元/settings.json'), join(t.home, 'link.jsonl'))
    const before = await tree(t.home)
    for (const target of [
      join(t.root, '岁月涟漪/日档', day),
      join(t.root, 'new.jsonl'),
      join(`${t.root}-snapshots`, snapshot, 'x'),
      `${t.root}-index/keeper.bin`,
      'link.jsonl',
    ]) {
      const r = await run(['memory', 'export', '--out', target, '--force'])
      expect(r.code, target).toBe(2)
      expect(r.err).toContain('an export never writes there')
    }
    expect(await tree(t.home)).toEqual(before)
  })
  it('replaces a file only with --force; a folder, a missing folder and an empty path are refused', async () => {
    await fs.writeFile(join(t.home, 'mine.txt'), 'precious')
    const refused = await run(['memory', 'export', '--out', 'mine.txt'])
    expect(refused.code).toBe(2)
    expect(refused.err).toContain('pass --force')
    expect(await fs.readFile(join(t.home, 'mine.txt'), 'utf8')).toBe('precious')
    expect((await run(['memory', 'export', '--out', 'mine.txt', '--force'])).code).toBe(0)
    expect(await fs.readFile(join(t.home, 'mine.txt'), 'utf8')).toContain('remember this')
    await fs.mkdir(join(t.home, 'out'))
    expect((await run(['memory', 'export', '--out', 'out'])).err).toContain('is a folder')
    expect((await run(['memory', 'export', '--out', 'no/such/x.jsonl'])).err).toContain('does not exist')
    expect((await run(['memory', 'export', '--out', ''])).code).toBe(2)
    const dash = await run(['memory', 'export', '--out', '-'])
    expect(dash.out).toContain('remember this')
    expect(await fs.readdir(t.home)).not.toContain('-')
  })
})

describe('an import reads a file, and one it can hold', () => {
  it('a device is refused at once (/dev/zero never ends), by memory import, worldbook import and migrate', async () => {
    for (const args of [
      ['memory', 'import', '--jsonl', '/dev/zero'],
      ['worldbook', 'import', '/dev/zero'],
      ['migrate', '--from', '/dev/zero', '--dry-run'],
    ]) {
      const r = await run(args)
      expect(r.code, `${args.join(' ')}: ${r.err}`).toBe(2)
    }
    expect((await run(['memory', 'import', '--jsonl', '/dev/zero'])).err).toContain('not a regular file')
    expect(await fs.readdir(t.home)).toEqual([])
  })
  it('a file past the size an import reads at once is refused before it is read (a sparse file: no disk spent)', async () => {
    const big = join(t.home, 'big.jsonl')
    await fs.writeFile(big, '')
    await fs.truncate(big, 257 * 2 ** 20)
    const r = await run(['memory', 'import', '--jsonl', big])
    expect(r.code).toBe(2)
    expect(r.err).toContain('over the 256 MiB')
    const world = await run(['worldbook', 'import', big])
    expect(world.code).toBe(2)
    expect(await fs.readdir(t.home)).toEqual(['big.jsonl'])
  })
})

describe('migrate --from a file too big to read at once (a fault audit: "File size (…) is greater than 2 GiB", nothing about what to do)', () => {
  it('is refused before it is read, with its size and what to do, given itself or found in a folder; nothing is changed', async () => {
    expect((await write('已经在的一条')).code).toBe(0)
    const old = join(t.home, 'old-plugin')
    await fs.mkdir(old)
    const md = join(old, 'cyrene-memory.md')
    await fs.writeFile(md, '')
    await fs.truncate(md, 3 * 2 ** 30) // sparse: past what node reads whole, no disk spent
    const day = join(old, 'sub', '2020-01-01.md')
    await fs.mkdir(join(old, 'sub'))
    await fs.writeFile(day, '')
    await fs.truncate(day, 257 * 2 ** 20)
    // The big files are never read, here either: the store and what lies beside it are compared.
    const before = { store: await tree(t.root), home: (await fs.readdir(t.home)).sort() }
    const whole = await run(['migrate', '--from', md])
    expect(whole.code, whole.err).toBe(2)
    expect(whole.err).toContain(`${md} is 3072 MiB, over the 256 MiB a migration reads at once; nothing was read or changed. Split it`)
    const found = await run(['migrate', '--from', join(old, 'sub')])
    expect(found.code, found.err).toBe(2)
    expect(found.err).toContain(`${day} is 257 MiB, over the 256 MiB`)
    expect({ store: await tree(t.root), home: (await fs.readdir(t.home)).sort() }).toEqual(before)
  })
})

describe('a store folder that is a link to nothing (a disk not mounted)', () => {
  it('is the system refusing (exit 3) for a read and a write, and nothing is made where it points or beside it', async () => {
    await fs.symlink(join(t.home, 'unmounted', 'store'), t.root)
    for (const r of [await run(['memory', 'list']), await write('x')]) {
      expect(r.code, r.err).toBe(3)
      expect(r.err).toContain('the memory is out of reach')
    }
    expect(await fs.readdir(t.home)).toEqual(['cyrene-philia093-0'])
  })
})

describe('text that was not UTF-8 on the command line', () => {
  it('arrives as U+FFFD and is refused, nothing written (standard input names the byte instead)', async () => {
    const r = await write('bad\uFFFDbyte')
    expect(r.code).toBe(2)
    expect(r.err).toContain('U+FFFD')
    expect(await fs.readdir(t.home)).toEqual([])
  })
})

describe('memory check --fix', () => {
  it('after fixing a file mode with problems left, says what is left instead of "nothing was changed"', async () => {
    expect((await write('one', '--at', '2025-03-01')).code).toBe(0)
    expect((await write('two', '--at', '2025-03-02')).code).toBe(0)
    const dir = join(t.root, '岁月涟漪/日档/2025/03')
    await fs.chmod(join(dir, '2025-03-01.md'), 0o644)
    // The same entry twice (a duplicate id): a problem --fix leaves to the person.
    await fs.appendFile(join(dir, '2025-03-02.md'), await fs.readFile(join(dir, '2025-03-01.md'), 'utf8'))
    const r = await run(['memory', 'check', '--fix'])
    expect(r.code).toBe(1)
    expect(r.out).toMatch(/^fixed /m)
    expect(r.out).toMatch(/problem\(s\) left after the 1 fix\(es\) above/)
    expect(r.out).not.toContain('nothing was changed')
  })
})
