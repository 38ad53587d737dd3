import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { execFileSync } from 'node:child_process'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { main } from './main.ts'
import type { CliIO } from './io.ts'
import { tempHome } from '../memory/testing/tmp.ts'

// Two machines (two DSH_HOMEs) and a bare repository on disk, through the real command line and the machine's git.
let a: Awaited<ReturnType<typeof tempHome>>
let b: Awaited<ReturnType<typeof tempHome>>
let bare: string
beforeEach(async () => {
  a = await tempHome()
  b = await tempHome()
  bare = join(a.home, 'remote.git')
  execFileSync('git', ['init', '--bare', '--quiet', '-b', 'main', bare])
})
afterEach(async () => {
  await a.cleanup()
  await b.cleanup()
})

type Machine = typeof a
async function run(m: Machine, args: string[]): Promise<{ code: number; out: string; err: string }> {
  const o = { out: '', err: '' } as CliIO & { out: string; err: string }
  o.stdout = (s) => {
    o.out += s
  }
  o.stderr = (s) => {
    o.err += s
  }
  o.env = { DSH_HOME: m.home, PATH: process.env.PATH, HOME: m.home, LANG: 'en_US.UTF-8' }
  o.cwd = m.home
  const code = await main(args, o)
  return { code, out: o.out, err: o.err }
}

async function write(m: Machine, text: string): Promise<string> {
  const w = await run(m, ['memory', 'write', text, '--kind', 'fact', '--axis', '智', '--reason', '测试', '--json'])
  expect(w.err).toBe('')
  return (JSON.parse(w.out) as { id: string }).id
}

async function ids(m: Machine): Promise<string[]> {
  const l = await run(m, ['memory', 'list', '--limit', '100000', '--json'])
  return (JSON.parse(l.out) as { entries: Array<{ id: string }> }).entries.map((e) => e.id)
}

async function sync(m: Machine, remote = true): Promise<{ code: number; out: string; err: string }> {
  const r = await run(m, ['sync', 'git', ...(remote ? ['--remote', bare] : []), '--json'])
  expect(r.err).toBe('')
  return r
}

async function dayFiles(m: Machine): Promise<string[]> {
  const out: string[] = []
  const walk = async (d: string): Promise<void> => {
    for (const e of await fs.readdir(d, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(join(d, e.name))
      else out.push(await fs.readFile(join(d, e.name), 'utf8'))
    }
  }
  await walk(join(m.root, '岁月涟漪/日档'))
  return out
}

// Each test runs many real git and cyrene runs on a shared machine: a generous timeout, no timing assertion.
describe('cyrene sync git (two machines, one bare repository)', { timeout: 400_000 }, () => {
  it('A writes and syncs, B syncs and lists it; both write offline, sync A, B, A: every entry exactly once on both', async () => {
    const first = await write(a, '第一台机器写下的')
    const s1 = await sync(a)
    expect(s1.code).toBe(0)
    const r1 = JSON.parse(s1.out) as { pushed: boolean; written: string[] }
    expect(r1.pushed).toBe(true)
    expect(r1.written).toEqual([first])
    expect(execFileSync('git', ['--git-dir', bare, 'log', '-1', '--format=%B', 'main'], { encoding: 'utf8' })).toContain(first)

    expect((await sync(b)).code).toBe(0)
    expect(await ids(b)).toEqual([first])

    const onA = [await write(a, '离线时 A 写的一'), await write(a, '离线时 A 写的二')]
    const onB = [await write(b, '离线时 B 写的一'), await write(b, '离线时 B 写的二')]
    expect((await sync(a, false)).code).toBe(0)
    const sb = JSON.parse((await sync(b, false)).out) as { merge: string; newConflicts: number }
    expect(sb.merge).toBe('merged')
    expect(sb.newConflicts).toBe(0)
    expect((await sync(a, false)).code).toBe(0)
    const every = [first, ...onA, ...onB].sort()
    for (const m of [a, b]) {
      const got = await ids(m)
      expect([...got].sort()).toEqual(every)
      expect(new Set(got).size).toBe(got.length)
      for (const text of await dayFiles(m)) expect(text).not.toMatch(/^(<<<<<<<|=======|>>>>>>>)/m)
    }
    expect((await run(a, ['memory', 'check'])).code).toBe(0)
  })

  it('the same entry edited on both sides: one conflict on both machines; resolve settles it on both after the next syncs', async () => {
    const id = await write(a, '原来的话')
    await sync(a)
    await sync(b)
    // Each side changes the same entry (as a person editing the file would).
    for (const [m, text] of [
      [a, 'A 改过的话'],
      [b, 'B 改过的话'],
    ] as const) {
      const [file] = (await fs.readdir(join(m.root, '岁月涟漪/日档'), { recursive: true })).filter((f) => f.endsWith('.md'))
      const full = join(m.root, '岁月涟漪/日档', file!)
      await fs.writeFile(full, (await fs.readFile(full, 'utf8')).replace('原来的话', text))
    }
    await sync(a, false)
    const merged = JSON.parse((await sync(b, false)).out) as { newConflicts: number }
    expect(merged.newConflicts).toBe(1)
    await sync(a, false)
    for (const m of [a, b]) {
      const check = await run(m, ['memory', 'check', '--json'])
      expect(check.code).toBe(1)
      const conflicts = (JSON.parse(check.out) as { errors: Array<{ code: string; message: string }> }).errors.filter((e) => e.code === 'sync-conflict')
      expect(conflicts).toHaveLength(1)
      expect(conflicts[0]!.message).toContain(id)
      expect(await ids(m)).toEqual([id])
      for (const text of await dayFiles(m)) expect(text).not.toContain('<<<<<<<')
    }
    // B's merge kept B's text in place (a) and A's as the conflict (b); the person keeps both.
    const r = await run(b, ['memory', 'resolve', id, '--keep', 'both'])
    expect(r.err).toBe('')
    expect(r.code).toBe(0)
    await sync(b, false)
    await sync(a, false)
    for (const m of [a, b]) {
      // No conflict is left. The texts edited by hand no longer match the person-marks record, so check
      // names them until the person confirms them (cyrene memory marks --confirm, docs/decisions/020).
      const left = (JSON.parse((await run(m, ['memory', 'check', '--json'])).out) as { errors: Array<{ code: string }> }).errors.map((e) => e.code)
      expect(left.filter((code) => code !== 'unbacked-person')).toEqual([])
      const list = (JSON.parse((await run(m, ['memory', 'list', '--json'])).out) as { entries: Array<{ text: string }> }).entries.map((e) => e.text).sort()
      expect(list).toEqual(['A 改过的话', 'B 改过的话'])
    }
  })

  it('settings merge key by key; two different current volumes are a conflict the person resolves', async () => {
    await sync(a)
    await sync(b)
    expect((await run(a, ['settings', 'set', 'nickname', '阿甲'])).code).toBe(0)
    const bSettings = join(b.root, '元/settings.json')
    await fs.writeFile(bSettings, JSON.stringify({ ...JSON.parse(await fs.readFile(bSettings, 'utf8')), dream: { time: '22:15' } }))
    const vol = (v: number): string =>
      `${JSON.stringify({ current: v, volumes: [{ id: v, started_at: '2026-01-01T00:00:00Z', reason: 'x', persona_hash: '', wuyu_version: '1' }] }, null, 2)}\n`
    await fs.writeFile(join(a.root, '元/卷.json'), vol(1))
    await fs.writeFile(join(b.root, '元/卷.json'), vol(2))
    await sync(a, false)
    await sync(b, false)
    await sync(a, false)
    for (const m of [a, b]) {
      const settings = JSON.parse(await fs.readFile(join(m.root, '元/settings.json'), 'utf8')) as Record<string, unknown>
      expect(settings.nickname).toBe('阿甲')
      expect(settings.dream).toEqual({ time: '22:15' })
      const check = JSON.parse((await run(m, ['memory', 'check', '--json'])).out) as { errors: Array<{ code: string; file?: string; message: string }> }
      const c = check.errors.filter((e) => e.code === 'sync-conflict')
      expect(c.map((e) => e.file)).toEqual(['元/卷.json'])
    }
    const conflictId = /resolve ([0-9a-f]{12})/.exec(
      (JSON.parse((await run(a, ['memory', 'check', '--json'])).out) as { errors: Array<{ message: string }> }).errors.map((e) => e.message).join(' '),
    )![1]!
    expect((await run(a, ['memory', 'resolve', conflictId, '--keep', 'both'])).code).toBe(2)
    expect((await run(a, ['memory', 'resolve', conflictId, '--keep', 'b'])).code).toBe(0)
    await sync(a, false)
    await sync(b, false)
    for (const m of [a, b]) expect(await fs.readFile(join(m.root, '元/卷.json'), 'utf8')).toBe(vol(1))
  })

  it('refuses a remote with credentials in it (exit 2) and an unreachable remote is exit 1 with the commit kept', async () => {
    const r = await run(a, ['sync', 'git', '--remote', 'https://me:secret@example.com/x.git'])
    expect(r.code).toBe(2)
    expect(r.err).toContain('credentials')
    await expect(fs.access(join(a.root, '.git'))).rejects.toThrow()
    await write(a, '写下了')
    const gone = await run(a, ['sync', 'git', '--remote', join(a.home, 'nowhere.git')])
    expect(gone.code).toBe(1)
    expect(gone.out).toContain('goes at the next sync')
    expect(execFileSync('git', ['-C', a.root, 'log', '--oneline'], { encoding: 'utf8' })).toContain('1 entry written')
  })

  it('a worldbook entry changed on both machines stays one readable entry: one side taken, or a conflict to pick (decision 288)', async () => {
    const book = (m: Machine): string => join(m.root, '世界书', '茶.md')
    const original = '---\ntitle: 茶\nkeys: [茶, 铁观音]\npriority: 50\n---\n\n她常喝铁观音。\n\n办公室抽屉里有一罐。\n'
    await fs.mkdir(join(a.root, '世界书'), { recursive: true })
    await fs.writeFile(book(a), original)
    expect((await sync(a)).code).toBe(0)
    expect((await sync(b)).code).toBe(0)
    // A changes the front matter, B the body: not the same lines, but one entry.
    await fs.writeFile(book(a), original.replace('keys: [茶, 铁观音]', 'keys: [茶, 铁观音, 乌龙]'))
    await fs.writeFile(book(b), original.replace('她常喝铁观音。', '她常喝铁观音，最近也喝乌龙。'))
    expect((await sync(a)).code).toBe(0)
    expect((await sync(b)).code).toBe(0)
    const merged = await fs.readFile(book(b), 'utf8')
    expect(merged.startsWith('---\ntitle: 茶\n')).toBe(true)
    expect(merged.match(/^---$/gm)).toHaveLength(2)
    const check = await run(b, ['memory', 'check'])
    const conflictId = /resolve ([0-9a-f]{12})/.exec(check.out + check.err)?.[1]
    expect(conflictId, check.out + check.err).toBeDefined()
    expect((await run(b, ['memory', 'resolve', conflictId!, '--keep', 'b'])).code).toBe(0)
    expect(await fs.readFile(book(b), 'utf8')).toBe(original.replace('keys: [茶, 铁观音]', 'keys: [茶, 铁观音, 乌龙]'))
  })

  it('a file that is not UTF-8, changed on both machines, keeps its bytes: ours in place, theirs whole in the conflict (decision 288)', async () => {
    // GBK bytes, as an old note copied in from another program would be.
    const gbk = (hex: string): Buffer => Buffer.from(hex.replace(/ /g, ''), 'hex')
    const v0 = gbk('c4 e3 ba c3 0a') // 你好
    const va = gbk('c4 e3 ba c3 a3 ac c3 a8 0a') // 你好，猫
    const vb = gbk('c4 e3 ba c3 a3 ac b2 e8 0a') // 你好，茶
    const note = (m: Machine): string => join(m.root, '余页', '旧笔记.md')
    await fs.mkdir(join(a.root, '余页'), { recursive: true })
    await fs.writeFile(note(a), v0)
    expect((await sync(a)).code).toBe(0)
    expect((await sync(b)).code).toBe(0)
    await fs.writeFile(note(a), va)
    await fs.writeFile(note(b), vb)
    expect((await sync(a)).code).toBe(0)
    expect((await sync(b)).code).toBe(0)
    expect((await fs.readFile(note(b))).equals(vb)).toBe(true)
    const check = await run(b, ['memory', 'check'])
    const conflictId = /resolve ([0-9a-f]{12})/.exec(check.out + check.err)?.[1]
    expect(conflictId, check.out + check.err).toBeDefined()
    expect((await run(b, ['memory', 'resolve', conflictId!, '--keep', 'b'])).code).toBe(0)
    expect((await fs.readFile(note(b))).equals(va)).toBe(true)
  })

  it('a file name with a line break is refused by name, here or from the remote, before anything is sent or changed (decision 288)', async () => {
    const first = await write(a, '第一台机器写下的')
    expect((await sync(a)).code).toBe(0)
    expect((await sync(b)).code).toBe(0)
    const remoteHead = (): string => execFileSync('git', ['--git-dir', bare, 'rev-parse', 'main'], { encoding: 'utf8' }).trim()
    const before = remoteHead()
    await fs.mkdir(join(a.root, '余页'), { recursive: true })
    await fs.writeFile(join(a.root, '余页', 'a\nb.md'), 'x\n')
    const local = await run(a, ['sync', 'git', '--json'])
    expect(local.code).toBe(2)
    expect(local.err).toContain('"余页/a\\nb.md"')
    expect(local.err).toContain('Rename the file')
    expect(remoteHead()).toBe(before)
    await fs.rm(join(a.root, '余页', 'a\nb.md'))
    // Someone pushes such a name from elsewhere.
    const w = join(a.home, 'outside')
    execFileSync('git', ['clone', '--quiet', '-b', 'main', bare, w])
    await fs.mkdir(join(w, '余页'), { recursive: true })
    await fs.writeFile(join(w, '余页', 'c\nd.md'), 'y\n')
    execFileSync('git', ['-C', w, 'add', '-A'])
    execFileSync('git', ['-C', w, '-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '--quiet', '-m', 'newline'])
    execFileSync('git', ['-C', w, 'push', '--quiet', 'origin', 'main'])
    await write(b, '第二台机器写下的')
    const refused = await run(b, ['sync', 'git', '--json'])
    expect(refused.code).toBe(2)
    expect(refused.err).toContain('"余页/c\\nd.md"')
    expect((await ids(b)).includes(first)).toBe(true)
    await expect(fs.readdir(join(b.root, '余页'))).resolves.not.toContain('c\nd.md')
  })

  it('a file from the other machine that takes the store over its quota is taken, and the sync says so with the file (decision 288)', async () => {
    await write(a, '第一台机器写下的')
    expect((await sync(a)).code).toBe(0)
    expect((await sync(b)).code).toBe(0)
    const settings = join(b.root, '元', 'settings.json')
    const values = JSON.parse(await fs.readFile(settings, 'utf8')) as Record<string, unknown>
    await fs.writeFile(settings, `${JSON.stringify({ ...values, quota: { totalMB: 1 } }, null, 2)}\n`)
    expect((await sync(b)).code).toBe(0)
    await fs.mkdir(join(a.root, '余页'), { recursive: true })
    await fs.writeFile(join(a.root, '余页', '长文.md'), `${'长'.repeat(700_000)}\n`)
    expect((await sync(a)).code).toBe(0)
    const r = await run(b, ['sync', 'git'])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/over its quota \(\d+\.\d of 1\.0 MB\)/)
    expect(r.out).toContain('"余页/长文.md", 2.0 MB')
    const refused = await run(b, ['memory', 'write', '再写一条', '--kind', 'fact', '--axis', '智', '--reason', '测试'])
    expect(refused.code).toBe(2)
  })

  it('refuses a store whose .git/config could run a command, and never runs the store hooks', async () => {
    await sync(a)
    const marker = join(a.home, 'hook-ran')
    await fs.writeFile(join(a.root, '.git/hooks/pre-commit'), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 })
    await write(a, '有钩子')
    expect((await sync(a, false)).code).toBe(0)
    await expect(fs.access(marker)).rejects.toThrow()
    execFileSync('git', ['-C', a.root, 'config', 'core.sshCommand', `touch ${marker}`])
    const r = await run(a, ['sync', 'git'])
    expect(r.code).toBe(2)
    expect(r.err).toContain('core.sshcommand')
  })

  it('a .gitignore or .gitattributes of git’s below the root is refused, here or from the remote, and no memory leaves any disk (decision 287)', async () => {
    const first = await write(a, '第一台机器写下的')
    expect((await sync(a)).code).toBe(0)
    expect((await sync(b)).code).toBe(0)
    // Someone pushes a 岁月涟漪/.gitignore that names every memory.
    const w = join(a.home, 'outside')
    execFileSync('git', ['clone', '--quiet', '-b', 'main', bare, w])
    await fs.writeFile(join(w, '岁月涟漪/.gitignore'), '*.md\n')
    execFileSync('git', ['-C', w, 'add', '-A'])
    execFileSync('git', ['-C', w, '-c', 'user.name=x', '-c', 'user.email=x@x', 'commit', '--quiet', '-m', 'ignore'])
    execFileSync('git', ['-C', w, 'push', '--quiet', 'origin', 'main'])
    const refused = await run(b, ['sync', 'git', '--json'])
    expect(refused.code).toBe(2)
    expect(refused.err).toContain('岁月涟漪/.gitignore')
    expect(await ids(b)).toEqual([first])
    await expect(fs.access(join(b.root, '岁月涟漪/.gitignore'))).rejects.toThrow()
    // One the person makes here is refused before anything is sent.
    await fs.mkdir(join(a.root, '梦境'), { recursive: true })
    await fs.writeFile(join(a.root, '梦境/.gitattributes'), '* merge=ours\n')
    const local = await run(a, ['sync', 'git', '--json'])
    expect(local.code).toBe(2)
    expect(local.err).toContain('梦境/.gitattributes')
    expect(await ids(a)).toEqual([first])
  })

  it('a remote that refuses the push says why at once, not as a race (decision 287)', async () => {
    await write(a, '第一台机器写下的')
    await fs.writeFile(join(bare, 'hooks/pre-receive'), '#!/bin/sh\necho "the keeper says no" >&2\nexit 1\n', { mode: 0o755 })
    const r = await sync(a)
    expect(r.code).toBe(1)
    const report = JSON.parse(r.out) as { message: string }
    expect(report.message).not.toContain('kept moving')
    expect(report.message).toMatch(/pre-receive|the keeper says no|declined/)
    // The doctor says the commit is still here, not "all well".
    const doctor = await run(a, ['doctor'])
    expect(doctor.out).toMatch(/1 commit\(s\) here the remote has not taken/)
  })
})
