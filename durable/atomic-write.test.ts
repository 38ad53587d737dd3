import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { promises as fs, mkdtempSync, rmSync, chownSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { atomicWrite, AtomicWriteError, TEMP_SUFFIX_RE, type OpenWritable, type WritableFile } from './atomic-write.ts'
import { fillDisk } from './testing/tmpfs.ts'
import { useTmpfs } from './testing/use-tmpfs.ts'
import { AS_NOBODY, packageForOthers, type ForOthers } from '../tests/harness/for-others.ts'

const WRITER = fileURLToPath(new URL('./atomic-write.ts', import.meta.url))

/** A day file's worth of text (~42 KB, multi-byte characters like the real store). */
function sample(n: number, tag: string): string {
  let s = ''
  for (let i = 0; i < n; i++) s += `第${i}条 ${tag}：她今天说起了工作里的事情，还有晚上想吃什么。${'字'.repeat(300)}\n<!--cyrene:{"id":"${tag}-${i}"}-->\n\n`
  return s
}

async function tempsIn(dir: string): Promise<string[]> {
  return (await fs.readdir(dir)).filter((n) => TEMP_SUFFIX_RE.test(n))
}

/** Wraps node's real file handle so a test can watch or bend what `write` does. */
function wrapOpen(bend: (real: WritableFile) => Partial<WritableFile>): OpenWritable {
  return async (path, flags, mode) => {
    const real = await fs.open(path, flags, mode)
    const own = bend(real)
    return {
      write: own.write ?? ((b, o, l, p) => real.write(b, o, l, p)),
      chmod: (m) => real.chmod(m),
      sync: () => real.sync(),
      stat: () => real.stat(),
      close: () => real.close(),
    }
  }
}

describe('atomicWrite on a real full disk (2 MB tmpfs) — issue 7 item 1', () => {
  const fsys = useTmpfs('2m')

  it('disk full: the write is refused with ENOSPC and "disk full", the old file stays byte-identical, no temp file is left', async () => {
    const file = join(fsys.dir, 'day.md')
    const old = sample(40, 'old')
    await atomicWrite(file, old)
    await fillDisk(join(fsys.dir, 'filler'))
    const err = await atomicWrite(file, old + sample(1, 'new')).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toBeInstanceOf(AtomicWriteError)
    expect(err).toMatchObject({ code: 'ENOSPC', path: file, unchanged: true })
    expect((err as Error).message).toBe(`disk full while writing ${file}; the previous version is unchanged. Free some space and try again.`)
    expect(await fs.readFile(file, 'utf8')).toBe(old)
    expect(await tempsIn(fsys.dir)).toEqual([])
  })

  it('disk nearly full: a write the disk cuts short (real short write, then ENOSPC) leaves the old file byte-identical', async () => {
    const file = join(fsys.dir, 'day.md')
    const old = sample(40, 'old')
    await atomicWrite(file, old)
    // 12 KB free, as in the issue: the kernel takes 12,288 bytes of the ~42 KB, then refuses.
    await fillDisk(join(fsys.dir, 'filler'), 12_288)
    const writes: Array<{ asked: number; took: number }> = []
    const watch = wrapOpen((real) => ({
      write: async (b, o, l, p) => {
        const r = await real.write(b, o, l, p)
        writes.push({ asked: l, took: r.bytesWritten })
        return r
      },
    }))
    await expect(atomicWrite(file, old + sample(1, 'new'), { open: watch })).rejects.toMatchObject({ code: 'ENOSPC', path: file })
    expect(writes.some((w) => w.took > 0 && w.took < w.asked)).toBe(true)
    expect(await fs.readFile(file, 'utf8')).toBe(old)
    expect(await tempsIn(fsys.dir)).toEqual([])
  })

  it('disk full and the file is new: ENOSPC says nothing was written, and no file appears', async () => {
    await fillDisk(join(fsys.dir, 'filler'))
    const file = join(fsys.dir, 'new.md')
    await expect(atomicWrite(file, sample(3, 'x'))).rejects.toThrow(`disk full while writing ${file}; nothing was written. Free some space and try again.`)
    await expect(fs.lstat(file)).rejects.toMatchObject({ code: 'ENOENT' })
    expect(await tempsIn(fsys.dir)).toEqual([])
  })

  it('once space is freed the same write succeeds', async () => {
    const file = join(fsys.dir, 'day.md')
    await atomicWrite(file, sample(40, 'old'))
    await fillDisk(join(fsys.dir, 'filler'))
    const next = sample(41, 'next')
    await expect(atomicWrite(file, next)).rejects.toMatchObject({ code: 'ENOSPC' })
    await fs.unlink(join(fsys.dir, 'filler'))
    await atomicWrite(file, next)
    expect(await fs.readFile(file, 'utf8')).toBe(next)
  })
})

describe('atomicWrite with injected faults (the seam) — issue 7 item 1', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cyrene-durable-'))
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('short writes: a write that takes only 7 bytes at a time is continued until every byte is written', async () => {
    const file = join(dir, 'f.md')
    const data = sample(5, 'short')
    let calls = 0
    const stingy = wrapOpen((real) => ({
      write: (b, o, l, p) => {
        calls++
        return real.write(b, o, Math.min(l, 7), p)
      },
    }))
    await atomicWrite(file, data, { open: stingy })
    expect(await fs.readFile(file, 'utf8')).toBe(data)
    expect(calls).toBe(Math.ceil(Buffer.byteLength(data) / 7))
  })

  it('a write that takes 0 bytes is an error: the old file stays, no temp file', async () => {
    const file = join(dir, 'f.md')
    await fs.writeFile(file, 'old\n')
    const none = wrapOpen(() => ({ write: async () => ({ bytesWritten: 0 }) }))
    await expect(atomicWrite(file, 'new text\n', { open: none })).rejects.toMatchObject({ code: 'EIO', path: file })
    expect(await fs.readFile(file, 'utf8')).toBe('old\n')
    expect(await tempsIn(dir)).toEqual([])
  })

  it('a write that claims more than it wrote is caught by the size check before the rename', async () => {
    const file = join(dir, 'f.md')
    await fs.writeFile(file, 'old\n')
    const liar = wrapOpen((real) => ({
      write: async (b, o, l, p) => {
        await real.write(b, o, Math.ceil(l / 2), p)
        return { bytesWritten: l }
      },
    }))
    const err = await atomicWrite(file, 'a longer new text\n', { open: liar }).then(
      () => undefined,
      (e: unknown) => e,
    )
    expect(err).toMatchObject({ code: 'EIO', path: file })
    expect((err as Error).message).toMatch(/holds 9 of 18 bytes.*the previous version is unchanged/)
    expect(await fs.readFile(file, 'utf8')).toBe('old\n')
    expect(await tempsIn(dir)).toEqual([])
  })

  it('beforeRename runs after the data is durable and right before the rename; throwing there keeps the old file and passes the error through', async () => {
    const file = join(dir, 'f.md')
    await fs.writeFile(file, 'old\n')
    const seen: string[] = []
    const lost = new Error('the lock is no longer held by this process')
    await expect(
      atomicWrite(file, 'new\n', {
        beforeRename: () => {
          const temps = readdirSync(dir).filter((n) => TEMP_SUFFIX_RE.test(n))
          seen.push(...temps.map((n) => readFileSync(join(dir, n), 'utf8')))
          throw lost
        },
      }),
    ).rejects.toBe(lost)
    expect(seen).toEqual(['new\n'])
    expect(await fs.readFile(file, 'utf8')).toBe('old\n')
    expect(await tempsIn(dir)).toEqual([])
  })
})

describe('atomicWrite modes and links', () => {
  let dir: string
  // The second uid runs a copy when the checkout is out of its reach (a clone in a 0700 folder).
  let forOthers: ForOthers
  beforeAll(() => {
    forOthers = packageForOthers(['durable'])
  })
  afterAll(() => forOthers.cleanup())
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cyrene-durable-'))
  })
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('umask 0777 cannot make the file 000: mode 0600 is set with fchmod (issue 7 item 12), checked as a second uid', async () => {
    chownSync(dir, 65534, 65534)
    const file = join(dir, 'f.md')
    const script = `const { atomicWrite } = await import(${JSON.stringify(forOthers.at(WRITER))}); await atomicWrite(${JSON.stringify(file)}, 'hello\\n'); process.stdout.write((await import('node:fs')).readFileSync(${JSON.stringify(file)}, 'utf8'))`
    const out = execFileSync('setpriv', [...AS_NOBODY, 'sh', '-c', 'umask 0777; exec "$0" --input-type=module -e "$1"', forOthers.node, script], {
      encoding: 'utf8',
    })
    expect(out).toBe('hello\n')
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600)
  })

  it('keepMode keeps the permission bits of the file it replaces; mode sets them for a new file', async () => {
    const kept = join(dir, 'kept.json')
    await fs.writeFile(kept, '{}')
    await fs.chmod(kept, 0o640)
    await atomicWrite(kept, '{"a":1}', { keepMode: true, mode: 0o600 })
    expect((await fs.stat(kept)).mode & 0o777).toBe(0o640)
    const fresh = join(dir, 'fresh.json')
    await atomicWrite(fresh, '{}', { keepMode: true, mode: 0o644 })
    expect((await fs.stat(fresh)).mode & 0o777).toBe(0o644)
  })

  it('a target that is a symbolic link: replaced by the file itself by default (the outside file is untouched); followLink writes the file it points to', async () => {
    const outside = join(dir, 'outside.txt')
    await fs.writeFile(outside, 'outside\n')
    const link = join(dir, 'link.md')
    await fs.symlink(outside, link)
    await atomicWrite(link, 'mine\n')
    expect((await fs.lstat(link)).isSymbolicLink()).toBe(false)
    expect(await fs.readFile(link, 'utf8')).toBe('mine\n')
    expect(await fs.readFile(outside, 'utf8')).toBe('outside\n')

    const dotfile = join(dir, 'dot.json')
    await fs.symlink('outside.txt', dotfile)
    await atomicWrite(dotfile, 'through\n', { followLink: true })
    expect((await fs.lstat(dotfile)).isSymbolicLink()).toBe(true)
    expect(await fs.readFile(outside, 'utf8')).toBe('through\n')
  })

  it('no permission: EACCES keeps code and path, says what to do, leaves nothing (a second uid; root ignores modes)', async () => {
    const file = join(dir, 'f.md')
    await fs.writeFile(file, 'old')
    await fs.chmod(dir, 0o755) // the second uid may look, not write
    const script = `const { atomicWrite } = await import(${JSON.stringify(forOthers.at(WRITER))}); try { await atomicWrite(${JSON.stringify(file)}, 'new') } catch (e) { process.stdout.write(JSON.stringify({ code: e.code, path: e.path, message: e.message })) }`
    const out = JSON.parse(
      execFileSync('setpriv', [...AS_NOBODY, forOthers.node, '--input-type=module', '-e', script], {
        encoding: 'utf8',
      }),
    ) as { code: string; path: string; message: string }
    expect(out).toEqual({
      code: 'EACCES',
      path: file,
      message: `permission denied while writing ${file}; the previous version is unchanged. Check who owns that folder and its permissions, then try again.`,
    })
    expect(await fs.readFile(file, 'utf8')).toBe('old')
    expect(await tempsIn(dir)).toEqual([])
  })
})
