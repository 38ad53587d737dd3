import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { appendLines, appendRaw, readBounded, readBytesBounded, writeTextAtomic } from './files.ts'
import { execFileSync } from 'node:child_process'
import { tmpdir } from 'node:os'
import { fillDisk, mountTmpfs } from '../durable/testing/tmpfs.ts'

describe('whale writeTextAtomic through durable/ (issue 7 item 1)', () => {
  let fsys: ReturnType<typeof mountTmpfs>
  beforeAll(() => {
    fsys = mountTmpfs('2m')
  })
  afterAll(() => {
    fsys.unmount()
  })

  it('disk nearly full: a config write the disk cuts short leaves config.json byte-identical and fails with ENOSPC', async () => {
    const file = join(fsys.dir, 'whale-persona', 'config.json')
    const old = `${JSON.stringify({ persona: { name: '昔涟', notes: '记'.repeat(6000) } }, null, 2)}\n`
    await writeTextAtomic(file, old)
    await fillDisk(join(fsys.dir, 'filler'), 8192)
    const next = `${JSON.stringify({ persona: { name: '昔涟', notes: '忆'.repeat(9000) } }, null, 2)}\n`
    await expect(writeTextAtomic(file, next)).rejects.toMatchObject({
      code: 'ENOSPC',
      path: file,
      message: expect.stringMatching(/^disk full while writing .*config\.json; the previous version is unchanged/),
    })
    expect(await fs.readFile(file, 'utf8')).toBe(old)
    expect(await fs.readdir(join(fsys.dir, 'whale-persona'))).toEqual(['config.json'])
    await fs.unlink(join(fsys.dir, 'filler'))
  })

  it('an append the disk cuts short leaves no half line: the inbox and a sink target end as they were (a retry would follow the fragment)', async () => {
    const inbox = join(fsys.dir, 'whale-persona', 'memory-inbox.jsonl')
    const sink = join(fsys.dir, 'out', 'ideas.md')
    await fs.mkdir(join(fsys.dir, 'out'))
    await fs.writeFile(inbox, '{"text":"a","status":"proposed"}\n')
    await fs.writeFile(sink, '# ideas\n')
    await fillDisk(join(fsys.dir, 'filler'), 4096)
    // Each far bigger than what is left: the file system takes a first part of it, then says ENOSPC.
    expect(() => appendLines(inbox, [JSON.stringify({ text: '长'.repeat(20000), status: 'proposed' })])).toThrow(/ENOSPC/)
    expect(() => appendRaw(sink, `- ${'想'.repeat(20000)}\n`, false)).toThrow(/ENOSPC/)
    expect(await fs.readFile(inbox, 'utf8')).toBe('{"text":"a","status":"proposed"}\n')
    expect(await fs.readFile(sink, 'utf8')).toBe('# ideas\n')
    await fs.unlink(join(fsys.dir, 'filler'))
  })

  it('a config kept as a link (a dotfile folder) is written where it points; its mode is kept', async () => {
    const real = join(fsys.dir, 'dotfiles', 'config.json')
    await fs.mkdir(join(fsys.dir, 'dotfiles'))
    await fs.writeFile(real, '{}\n')
    await fs.chmod(real, 0o640)
    const link = join(fsys.dir, 'home', 'config.json')
    await fs.mkdir(join(fsys.dir, 'home'))
    await fs.symlink(real, link)
    await writeTextAtomic(link, '{"a":1}\n')
    expect((await fs.lstat(link)).isSymbolicLink()).toBe(true)
    expect(await fs.readFile(real, 'utf8')).toBe('{"a":1}\n')
    expect((await fs.stat(real)).mode & 0o777).toBe(0o640)
  })
})

describe('a FIFO under a whale file’s name is never waited on', () => {
  it('reading it says not a regular file, appending to it throws, and both return at once', async () => {
    const dir = await fs.mkdtemp(join(tmpdir(), 'cyrene-whale-fifo-'))
    try {
      const file = join(dir, 'config.json')
      execFileSync('mkfifo', [file])
      expect(readBounded(file, 1024)).toEqual({ kind: 'unreadable', reason: 'not a regular file' })
      expect(readBytesBounded(file, 1024)).toEqual({ ok: false, reason: 'not a regular file' })
      expect(() => appendLines(file, ['{"op":"add"}'])).toThrow()
      await fs.writeFile(join(dir, 'big.json'), 'x'.repeat(2048))
      expect(readBounded(join(dir, 'big.json'), 1024)).toEqual({ kind: 'unreadable', reason: 'larger than 1024 bytes' })
      expect(readBounded(join(dir, 'none.json'), 1024)).toEqual({ kind: 'missing' })
    } finally {
      await fs.rm(dir, { recursive: true, force: true })
    }
  })
})
