import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PERSONA_SOURCES } from '../host/persona-sources.ts'
import { startEngine } from '../memory/index.ts'
import { scratchDir } from '../tests/harness/scratch.ts'
import { run } from './main.ts'
import { doctorReport } from '../doctor/index.ts'
import { memoryIO } from './io.ts'
import { DSH_BIN } from '../scripts/ensure-dsh.ts'

async function doctor(home: string): Promise<{ code: number; out: string; lines: { check: string; status: string; detail: string }[] }> {
  const io = memoryIO({ DSH_HOME: home, HOME: home }, home)
  const code = await run(['doctor', '--json', '--lang', 'en'], io)
  return { code, out: io.out(), lines: JSON.parse(io.out()).lines }
}

async function doctorText(home: string, env: NodeJS.ProcessEnv = {}): Promise<string> {
  const io = memoryIO({ DSH_HOME: home, HOME: home, ...env }, home)
  await run(['doctor'], io)
  return io.out()
}

describe('the doctor in two layers: a verdict, then one row per area (issue 13 item 5, issue 22)', () => {
  const ok = { area: 'memory' as const, check: 'quota', status: 'ok' as const, detail: '1 MB of 128 MB' }
  const root = { area: 'memory' as const, check: 'memory root', status: 'ok' as const, detail: '/x', summary: '3 entries, all well' }
  const notYet = { area: 'dream' as const, check: 'dream', status: 'missing' as const, detail: 'no dream yet' }
  const warn = { area: 'backup' as const, check: 'snapshots', status: 'warn' as const, detail: 'none yet: `cyrene backup` takes one now' }
  const fail = { area: 'memory' as const, check: 'volume', status: 'fail' as const, detail: '卷.json is not JSON: restore it with `cyrene restore --list`' }

  it('all ✓ and … rows: all well, each area on one line with its summary; the details wait for --verbose', () => {
    expect(doctorReport([root, ok, notYet], { lang: 'en' }).split('\n')).toEqual([
      '昔涟 · 新卷 (Cyrene) check-up: all well.',
      '✓ Memory: 3 entries, all well',
      '… Dreams: no dream yet',
      '(the details of each area: --verbose)',
    ])
    expect(doctorReport([root, ok, notYet], { lang: 'zh' }).split('\n')[0]).toBe('昔涟 · 新卷 体检：一切正常。')
  })

  it('otherwise how many areas need a look and the one to start with (the first ✗, else !); its row says what to do', () => {
    expect(doctorReport([root, ok, warn, fail], { lang: 'en' }).split('\n')).toEqual([
      '昔涟 · 新卷 (Cyrene) check-up: 2 areas need a look; start with Memory.',
      '✗ Memory: 卷.json is not JSON: restore it with `cyrene restore --list`',
      '! Snapshots: none yet: `cyrene backup` takes one now',
      '(the details of each area: --verbose)',
    ])
    const verbose = doctorReport([root, ok, warn, fail], { lang: 'zh', verbose: true }).split('\n')
    expect(verbose[0]).toBe('昔涟 · 新卷 体检：有 2 处要看看，先看「记忆」。')
    expect(verbose).toContain('    ✓ quota：1 MB of 128 MB')
    expect(verbose).not.toContain('（每一处的细节：--verbose）')
  })

  it('cyrene doctor on a store written by hand: first the advice to take a snapshot, after `backup` all is well', async () => {
    const home = scratchDir('doctor')
    const { main } = await import('./main.ts')
    const quiet = { stdout: () => {}, stderr: () => {}, env: { DSH_HOME: home }, cwd: home }
    expect(await main(['memory', 'write', '第一条', '--axis', '美', '--reason', 'r'], quiet)).toBe(0)
    const before = (await doctorText(home)).split('\n')
    expect(before[0]).toBe('昔涟 · 新卷 体检：有 1 处要看看，先看「快照」。')
    expect(before).toContain('✓ 记忆：1 条，一切正常')
    expect(before).toContainEqual(expect.stringMatching(/^! 快照：还没有快照：cyrene backup 现在就拍一份/))
    expect(await main(['backup', '--quiet'], quiet)).toBe(0)
    expect((await doctorText(home)).split('\n')[0]).toBe('昔涟 · 新卷 体检：一切正常。')
    const english = (await doctorText(home, { LANG: 'en_US.UTF-8' })).split('\n')
    expect(english[0]).toBe('昔涟 · 新卷 (Cyrene) check-up: all well.')
    expect(english).toContain('✓ Memory: 1 entry, all well')
  })
})

describe('cyrene doctor', () => {
  it('on an empty DSH_HOME: says the store does not exist yet and changes nothing', async () => {
    const home = scratchDir('doctor')
    const r = await doctor(home)
    expect(r.code).toBe(0)
    expect(r.lines.find((l) => l.check === 'memory root')).toMatchObject({ status: 'missing' })
    expect((await import('node:fs')).existsSync(join(home, 'cyrene-philia093-0'))).toBe(false)
  })

  it('shows the engine holder, quotas and a persona changed without a new volume', async () => {
    const home = scratchDir('doctor')
    const started = await startEngine({ env: { DSH_HOME: home }, persona: PERSONA_SOURCES })
    try {
      const held = await doctor(home)
      expect(held.lines.find((l) => l.check === 'memory engine')?.detail).toMatch(/^held by .*process \d+/)
      expect(held.lines.filter((l) => l.check.startsWith('quota'))).toHaveLength(2)
      expect(held.lines.filter((l) => l.check === 'volume' && l.status === 'warn')).toEqual([])
      const file = join(home, 'cyrene-philia093-0', '元', '卷.json')
      const volumes = JSON.parse(readFileSync(file, 'utf8'))
      volumes.volumes[0].persona_hash = 'sha256:' + '0'.repeat(64)
      writeFileSync(file, JSON.stringify(volumes))
      const drift = await doctor(home)
      expect(drift.lines.find((l) => l.check === 'volume' && l.status === 'warn')?.detail).toContain('cyrene volume new')
    } finally {
      await started.store.close()
    }
  })

  it('a broken 卷.json fails the doctor with a message, and the file is left as it was', async () => {
    const home = scratchDir('doctor')
    const started = await startEngine({ env: { DSH_HOME: home }, persona: PERSONA_SOURCES })
    await started.store.close()
    const file = join(home, 'cyrene-philia093-0', '元', '卷.json')
    writeFileSync(file, '{ broken')
    const r = await doctor(home)
    expect(r.code).toBe(1)
    expect(r.lines.find((l) => l.check === 'volume' && l.status === 'fail')).toBeDefined()
    expect(readFileSync(file, 'utf8')).toBe('{ broken')
  })

  it('shows the reflex rules: none, the count, a broken file, and the last hits of the ledger (issue 14)', async () => {
    const home = scratchDir('doctor')
    const reflex = (lines: { check: string; status: string; detail: string }[]) => lines.filter((l) => l.check === 'reflex')
    expect(reflex((await doctor(home)).lines)).toEqual([{ area: 'whale', check: 'reflex', status: 'ok', detail: expect.stringContaining('no rules at') }])
    const dir = join(home, 'whale-persona')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'reflex.json'), '{"rules": [{"id": "a", "then": {"reply": "x"}}, {"id": "no-action"}]}')
    const hit = (id: string, excerpt: string) => JSON.stringify({ at: '2026-01-01T00:00:00.000Z', id, tier: 'flash', excerpt, dryRun: false })
    writeFileSync(join(dir, 'reflex-hits.jsonl'), [hit('old', '一'), hit('a', '二'), hit('a', '三'), hit('a', '四'), ''].join('\n'))
    const counted = await doctor(home)
    expect(counted.code).toBe(0)
    expect(reflex(counted.lines)).toEqual([
      { area: 'whale', check: 'reflex', status: 'ok', detail: `1 rule(s) in ${join(dir, 'reflex.json')}` },
      { area: 'whale', check: 'reflex', status: 'warn', detail: expect.stringContaining('1 rule(s) ignored') },
      { area: 'whale', check: 'reflex', status: 'ok', detail: expect.stringMatching(/^last hits: .*"二".*"三".*"四"$/) },
    ])
    writeFileSync(join(dir, 'reflex.json'), '{ broken')
    expect(reflex((await doctor(home)).lines)).toContainEqual({
      area: 'whale',
      check: 'reflex',
      status: 'warn',
      detail: expect.stringContaining('not valid JSON'),
    })
  })
})

describe('cyrene doctor: base presets and --verbose (issue 9)', () => {
  it('compares the shipped snapshots with the DSH of the `dsh` on PATH; --verbose names each base, plain output only hints', async () => {
    const home = scratchDir('doctor')
    const withDsh = { DSH_HOME: home, HOME: home, PATH: join(DSH_BIN, '..') }
    const plain = memoryIO(withDsh, home)
    await run(['doctor', '--lang', 'en'], plain)
    expect(plain.out()).toContain('✓ Presets: in step with DSH 0.1.0-rc.8')
    expect(plain.out()).not.toContain('cordis: snapshot of DSH')
    expect(plain.out().trimEnd().split('\n').at(-1)).toBe('(the details of each area: --verbose)')
    const verbose = memoryIO(withDsh, home)
    await run(['doctor', '--verbose', '--lang', 'en'], verbose)
    expect(verbose.out()).toContain('    ✓ base presets: the Cyrene presets stand on the same rows as DSH 0.1.0-rc.8’s built-in cordis, standard')
    expect(verbose.out()).toMatch(/\n {8}cordis: snapshot of DSH 0\.1\.0-rc\.8 vs \S+\/agent-presets\/cordis\/agent\.cordis\.yml: the same rows\n/)
    const without = memoryIO({ DSH_HOME: home, HOME: home }, home)
    await run(['doctor'], without)
    expect(without.out()).toContain('… 预设：没有比较：这个包旁边和 PATH 上都没有找到 DSH')
  })
})

describe('the doctor does not say "all well" over what it cannot see (the fault audit)', () => {
  it('a store folder that is a link to a disk not mounted is a failure, not "not made yet"', async () => {
    const home = scratchDir('doctor-link')
    const { symlinkSync } = await import('node:fs')
    symlinkSync(join(home, 'unmounted-disk', 'store'), join(home, 'cyrene-philia093-0'))
    const { lines } = await doctor(home)
    expect(lines.find((l) => l.check === 'memory root')).toMatchObject({ status: 'fail', detail: expect.stringContaining('the memory is out of reach') })
  })
  it('files memory check calls errors (a day file that is not UTF-8) fail the doctor too, with the first and what to run (decision 290)', async () => {
    const home = scratchDir('doctor-files')
    const io = memoryIO({ DSH_HOME: home, HOME: home }, home)
    expect(await run(['memory', 'write', 'first', '--axis', '美', '--reason', 'r', '--at', '2026-01-01'], io)).toBe(0)
    const day = join(home, 'cyrene-philia093-0', '岁月涟漪/日档/2026/01/2026-01-01.md')
    writeFileSync(day, Buffer.concat([readFileSync(day), Buffer.from([0xff, 0xfe, 0x0a])]))
    expect(await run(['memory', 'check'], memoryIO({ DSH_HOME: home, HOME: home }, home))).toBe(1)
    const { code, lines } = await doctor(home)
    expect(code).toBe(1)
    expect(lines.find((l) => l.check === 'store files')).toMatchObject({
      status: 'fail',
      detail: expect.stringMatching(
        /^1 error\(s\) that cyrene memory check names .*the first: 岁月涟漪\/日档\/2026\/01\/2026-01-01\.md:1: the file is not valid UTF-8/,
      ),
    })
  })
  it('a broken comment in a day file: an error in memory check, a failure in the doctor (decision 290)', async () => {
    const home = scratchDir('doctor-comment')
    const io = memoryIO({ DSH_HOME: home, HOME: home }, home)
    expect(await run(['memory', 'write', 'first', '--axis', '美', '--reason', 'r', '--at', '2026-01-01'], io)).toBe(0)
    const day = join(home, 'cyrene-philia093-0', '岁月涟漪/日档/2026/01/2026-01-01.md')
    writeFileSync(day, `${readFileSync(day, 'utf8')}坏的\n<!--cyrene:{broken-->\n`)
    expect(await run(['memory', 'check'], memoryIO({ DSH_HOME: home, HOME: home }, home))).toBe(1)
    const { code, lines } = await doctor(home)
    expect(code).toBe(1)
    expect(lines.find((l) => l.check === 'store files')).toMatchObject({ status: 'fail', detail: expect.stringContaining('2026-01-01.md:') })
  })
  it('damaged snapshots (a restore refuses them) are named as damaged, not counted as kept (decision 290)', async () => {
    const home = scratchDir('doctor-snapshots')
    const io = () => memoryIO({ DSH_HOME: home, HOME: home }, home)
    expect(await run(['memory', 'write', 'first', '--axis', '美', '--reason', 'r', '--at', '2026-01-01'], io())).toBe(0)
    for (let i = 0; i < 4; i++) expect(await run(['backup', '--quiet'], io())).toBe(0)
    const dir = join(home, 'cyrene-philia093-0-snapshots')
    const names = readdirSync(dir).sort()
    expect(names).toHaveLength(4)
    const day = (name: string) => join(dir, name, '岁月涟漪/日档/2026/01/2026-01-01.md')
    appendFileSync(day(names[0]!), '坏的\n<!--cyrene:{broken-->\n') // edited after it was taken
    truncateSync(day(names[1]!), 10) // cut short
    rmSync(day(names[2]!)) // a file gone
    const mixed = await doctor(home)
    expect(mixed.lines.filter((l) => l.check === 'snapshots')).toEqual([
      expect.objectContaining({
        status: 'ok',
        detail: expect.stringContaining(`1 manual/pre-restore/pre-migrate (the newest 5 are kept), newest ${names[3]}`),
      }),
      expect.objectContaining({
        status: 'warn',
        detail: expect.stringMatching(
          new RegExp(
            `^3 snapshot\\(s\\) damaged, not counted as kept .*: ${names.slice(0, 3).join(', ')}\\. The first: ${names[0]}: .*2026-01-01\\.md has \\d+ bytes`,
          ),
        ),
      }),
    ])
    // The same rule as the restore's: each one named is refused there.
    const { main } = await import('./main.ts')
    const quiet = { stdout: () => {}, stderr: () => {}, env: { DSH_HOME: home }, cwd: home }
    for (const name of names.slice(0, 3)) expect(await main(['restore', name], quiet)).toBe(2)
    rmSync(join(dir, names[3]!, '.manifest.json'))
    appendFileSync(day(names[3]!), '\xff') // no manifest: checked by format, and cut mid-line
    const all = await doctor(home)
    expect(all.lines.filter((l) => l.check === 'snapshots')).toEqual([
      expect.objectContaining({ status: 'warn', detail: expect.stringContaining('every snapshot is damaged (4:') }),
    ])
    expect(all.out).not.toContain('kept, newest')
  })
  it('a month folder moved elsewhere and linked back (its memories skipped by every read) fails as in memory check, naming the link', async () => {
    const home = scratchDir('doctor-month-link')
    const io = memoryIO({ DSH_HOME: home, HOME: home }, home)
    expect(await run(['memory', 'write', 'first', '--axis', '美', '--reason', 'r', '--at', '2026-01-01'], io)).toBe(0)
    const { renameSync, symlinkSync } = await import('node:fs')
    const month = join(home, 'cyrene-philia093-0', '岁月涟漪/日档/2026/01')
    renameSync(month, join(home, 'moved'))
    symlinkSync(join(home, 'moved'), month)
    expect(await run(['memory', 'check'], memoryIO({ DSH_HOME: home, HOME: home }, home))).toBe(1)
    const { code, lines } = await doctor(home)
    expect(code).toBe(1)
    expect(lines.find((l) => l.check === 'store files')).toMatchObject({
      status: 'fail',
      detail: expect.stringContaining('symbolic link 岁月涟漪/日档/2026/01 →'),
    })
  })
  it('a write lock kept by a stopped process, or a file where its folder goes, is named with what to do', async () => {
    const home = scratchDir('doctor-write-lock')
    const io = memoryIO({ DSH_HOME: home, HOME: home }, home)
    expect(await run(['memory', 'write', 'first', '--axis', '美', '--reason', 'r'], io)).toBe(0)
    const lock = join(home, 'cyrene-philia093-0', '元', 'write.lock')
    const { spawnLockHolder } = await import('../durable/testing/spawn.ts')
    const h = spawnLockHolder(lock, 10_000, 'write')
    expect(await h.next('READY', 'EXITED')).toBe('READY')
    try {
      expect((await doctor(home)).lines.find((l) => l.check === 'write lock')).toBeUndefined()
      h.child.kill('SIGSTOP')
      expect((await doctor(home)).lines.find((l) => l.check === 'write lock')).toMatchObject({
        status: 'warn',
        detail: expect.stringContaining(`kill -CONT ${h.child.pid}`),
      })
    } finally {
      h.child.kill('SIGCONT')
      h.send('exit')
      await h.done
    }
    const { rmSync } = await import('node:fs')
    rmSync(lock, { recursive: true, force: true })
    rmSync(`${lock}.owner`, { force: true })
    writeFileSync(lock, '')
    expect((await doctor(home)).lines.find((l) => l.check === 'write lock')).toMatchObject({ status: 'fail', detail: expect.stringContaining(`rm '${lock}'`) })
  })

  it("a DSH tool call's window open longer than a write waits is named, with the process and the mark (decision 295)", async () => {
    const home = scratchDir('doctor-guard-window')
    const io = memoryIO({ DSH_HOME: home, HOME: home }, home)
    expect(await run(['memory', 'write', 'first', '--axis', '美', '--reason', 'r'], io)).toBe(0)
    const meta = join(home, 'cyrene-philia093-0', '元')
    const { spawn } = await import('node:child_process')
    const { hostname } = await import('node:os')
    // Another DSH host with a window open holds its mark open (decision 318): a process that makes its mark and keeps it.
    const holder = `const fd = require('fs').openSync(process.argv[1] + '/guard-window.' + process.pid + '.lock', 'w', 0o600);
process.stdout.write('ready\\n');
setInterval(() => fd, 60000);`
    const host = spawn(process.execPath, ['-e', holder, meta], { stdio: ['ignore', 'pipe', 'inherit'] })
    await new Promise<void>((resolve, reject) => {
      host.stdout!.once('data', () => resolve())
      host.once('exit', (code) => reject(new Error(`the other host ended (${code})`)))
    })
    try {
      const mark = join(meta, `guard-window.${host.pid}.lock`)
      const plant = (since: Date) => writeFileSync(mark, JSON.stringify({ pid: host.pid, host: hostname(), since: since.toISOString() }))
      // A window of a few seconds is a write's ordinary wait: no line.
      plant(new Date())
      expect((await doctor(home)).lines.find((l) => l.check === 'write lock')).toBeUndefined()
      plant(new Date(Date.now() - 120_000))
      const line = (await doctor(home)).lines.find((l) => l.check === 'write lock')
      expect(line?.status).toBe('warn')
      expect(line?.detail).toContain(`(process ${host.pid})`)
      expect(line?.detail).toContain(`remove ${mark}`)
    } finally {
      host.kill('SIGKILL')
    }
  })

  it('what the store guard kept aside before putting it back is named until the person clears it (decision 296)', async () => {
    const home = scratchDir('doctor-put-back')
    const io = memoryIO({ DSH_HOME: home, HOME: home }, home)
    expect(await run(['memory', 'write', 'first', '--axis', '美', '--reason', 'r'], io)).toBe(0)
    expect((await doctor(home)).lines.find((l) => l.check === 'put back, kept')).toBeUndefined()
    const putBack = join(home, 'cyrene-philia093-0-put-back')
    mkdirSync(join(putBack, '2026-12-07T09-00-00.000Z', 'cyrene-philia093-0', '锚'), { recursive: true })
    writeFileSync(join(putBack, '2026-12-07T09-00-00.000Z', 'cyrene-philia093-0', '锚', 'x.md'), 'kept\n')
    const line = (await doctor(home)).lines.find((l) => l.check === 'put back, kept')
    expect(line?.status).toBe('warn')
    expect(line?.detail).toContain(`1 time(s)`)
    expect(line?.detail).toContain(putBack)
    rmSync(putBack, { recursive: true })
    expect((await doctor(home)).lines.find((l) => l.check === 'put back, kept')).toBeUndefined()
  })
})
