import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PERSONA_SOURCES } from '../host/persona-sources.ts'
import { startEngine } from '../memory/index.ts'
import { scratchDir } from '../tests/harness/scratch.ts'
import { doctorCommand } from './doctor.ts'
import { doctorReport } from '../host/doctor.ts'
import { memoryIO } from './io.ts'
import { DSH_BIN } from '../scripts/ensure-dsh.ts'

async function doctor(home: string): Promise<{ code: number; out: string; lines: { check: string; status: string; detail: string }[] }> {
  const io = memoryIO({ DSH_HOME: home, HOME: home }, home)
  const code = await doctorCommand(['--json'], io)
  return { code, out: io.out(), lines: JSON.parse(io.out()).lines }
}

async function doctorText(home: string): Promise<string> {
  const io = memoryIO({ DSH_HOME: home, HOME: home }, home)
  await doctorCommand([], io)
  return io.out()
}

describe('the doctor says first, in one sentence, whether all is well (issue 13 item 5)', () => {
  it('all ✓ and … lines: everything is fine; otherwise how many need a look and the first ✗ (else !) with its advice', () => {
    const ok = { check: 'quota', status: 'ok' as const, detail: '1 MB of 128 MB' }
    const notYet = { check: 'memory root', status: 'missing' as const, detail: 'does not exist yet' }
    expect(doctorReport([ok, notYet]).split('\n')[0]).toBe('昔涟 · 新卷 — doctor: everything is fine (nothing failed, nothing to warn about).')
    const warn = { check: 'snapshots', status: 'warn' as const, detail: 'none yet: `cyrene backup` takes one now' }
    const fail = { check: 'volume', status: 'fail' as const, detail: '卷.json is not JSON: restore it with `cyrene restore --list`' }
    expect(doctorReport([ok, warn, fail]).split('\n')).toEqual([
      '昔涟 · 新卷 — doctor: 2 lines need a look (1 ✗, 1 !); start with volume: 卷.json is not JSON: restore it with `cyrene restore --list`',
      '✓ quota: 1 MB of 128 MB',
      '! snapshots: none yet: `cyrene backup` takes one now',
      '✗ volume: 卷.json is not JSON: restore it with `cyrene restore --list`',
    ])
  })

  it('cyrene doctor on a store written by hand: first the advice to take a snapshot, after `backup` everything is fine', async () => {
    const home = scratchDir('doctor')
    const { main } = await import('./main.ts')
    const quiet = { stdout: () => {}, stderr: () => {}, env: { DSH_HOME: home }, cwd: home }
    expect(await main(['memory', 'write', '第一条', '--axis', '美', '--reason', 'r'], quiet)).toBe(0)
    expect((await doctorText(home)).split('\n')[0]).toMatch(
      /^昔涟 · 新卷 — doctor: one line needs a look \(1 !\); start with snapshots: none yet: `cyrene backup`/,
    )
    expect(await main(['backup', '--quiet'], quiet)).toBe(0)
    expect((await doctorText(home)).split('\n')[0]).toBe('昔涟 · 新卷 — doctor: everything is fine (nothing failed, nothing to warn about).')
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
      expect(held.lines.find((l) => l.check === 'memory engine')?.detail).toMatch(/^held by .*pid \d+/)
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
    expect(reflex((await doctor(home)).lines)).toEqual([{ check: 'reflex', status: 'ok', detail: expect.stringContaining('no rules at') }])
    const dir = join(home, 'whale-persona')
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'reflex.json'), '{"rules": [{"id": "a", "then": {"reply": "x"}}, {"id": "no-action"}]}')
    const hit = (id: string, excerpt: string) => JSON.stringify({ at: '2026-01-01T00:00:00.000Z', id, tier: 'flash', excerpt, dryRun: false })
    writeFileSync(join(dir, 'reflex-hits.jsonl'), [hit('old', '一'), hit('a', '二'), hit('a', '三'), hit('a', '四'), ''].join('\n'))
    const counted = await doctor(home)
    expect(counted.code).toBe(0)
    expect(reflex(counted.lines)).toEqual([
      { check: 'reflex', status: 'ok', detail: `1 rule(s) in ${join(dir, 'reflex.json')}` },
      { check: 'reflex', status: 'warn', detail: expect.stringContaining('1 rule(s) ignored') },
      { check: 'reflex', status: 'ok', detail: expect.stringMatching(/^last hits: .*"二".*"三".*"四"$/) },
    ])
    writeFileSync(join(dir, 'reflex.json'), '{ broken')
    expect(reflex((await doctor(home)).lines)).toContainEqual({ check: 'reflex', status: 'warn', detail: expect.stringContaining('not valid JSON') })
  })
})

describe('cyrene doctor: base presets and --verbose (issue 9)', () => {
  it('compares the shipped snapshots with the DSH of the `dsh` on PATH; --verbose names each base, plain output only hints', async () => {
    const home = scratchDir('doctor')
    const withDsh = { DSH_HOME: home, HOME: home, PATH: join(DSH_BIN, '..') }
    const plain = memoryIO(withDsh, home)
    await doctorCommand([], plain)
    expect(plain.out()).toContain("✓ base presets: Cyrene presets stand on the same rows as DSH 0.1.0-rc.8's built-in cordis, standard")
    expect(plain.out()).not.toContain('cordis: snapshot of DSH')
    expect(plain.out().trimEnd().split('\n').at(-1)).toBe('（细节：--verbose）')
    const verbose = memoryIO(withDsh, home)
    await doctorCommand(['--verbose'], verbose)
    expect(verbose.out()).toMatch(/\n {4}cordis: snapshot of DSH 0\.1\.0-rc\.8 vs \S+\/agent-presets\/cordis\/agent\.cordis\.yml: the same rows\n/)
    const without = memoryIO({ DSH_HOME: home, HOME: home }, home)
    await doctorCommand([], without)
    expect(without.out()).toContain('… base presets: not compared: no DSH found beside this package or on PATH')
  })
})
