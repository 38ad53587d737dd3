import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, renameSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../host/package-root.ts'
import { PERSONA_SOURCES, personaSourcesIn } from '../host/persona-sources.ts'
import { personaFingerprint, reportMarkLine } from '../memory/person.ts'
import { startEngine } from '../memory/index.ts'
import { tempHome } from '../memory/testing/tmp.ts'
import { main } from './main.ts'
import { memoryIO } from './io.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  // Volume persona snapshots are read-only folders; open them so the cleanup can remove them.
  const volumes = join(t.root, '元/卷')
  try {
    for (const id of readdirSync(volumes)) chmodSync(join(volumes, id, 'persona'), 0o700)
  } catch {
    /* no volume yet */
  }
  await t.cleanup()
})

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  // These tests read the English words; the Chinese ones are checked in cli/store-language.test.ts.
  const io = memoryIO({ DSH_HOME: t.home, HOME: t.home, LANG: 'en_US.UTF-8' }, t.home)
  const code = await main(args, io)
  return { code, out: io.out(), err: io.err() }
}

/** A package folder with this package's persona, as `--persona` names one. */
function packageCopy(): string {
  const pkg = join(t.home, 'package')
  mkdirSync(join(pkg, 'philosophy'), { recursive: true })
  cpSync(join(PACKAGE_ROOT, 'persona'), join(pkg, 'persona'), { recursive: true })
  cpSync(join(PACKAGE_ROOT, 'philosophy/wuyu.md'), join(pkg, 'philosophy/wuyu.md'))
  return pkg
}

describe('cyrene volume: one definition of the persona sources (issue 8)', () => {
  it('volume new beside persona/chat.legacy.md fingerprints what the host does: no persona drift (issue 8, *.legacy.md bug)', async () => {
    const started = await startEngine({ env: { DSH_HOME: t.home }, persona: PERSONA_SOURCES })
    await started.store.close()
    const pkg = packageCopy()
    // What `npm run extract-legacy` leaves beside the persona for a person to compare.
    writeFileSync(join(pkg, 'persona/chat.legacy.md'), '旧插件的人格文本，只供对照。\n')

    const opened = await run(['volume', 'new', '--reason', '人格修订', '--confirm', 'new-volume', '--persona', pkg, '--json'])
    expect(opened.code).toBe(0)
    expect(JSON.parse(opened.out).persona_hash).toBe(await personaFingerprint(PERSONA_SOURCES))

    const doctor = await run(['doctor', '--json', '--lang', 'en'])
    const lines = JSON.parse(doctor.out).lines as { check: string; status: string; detail: string }[]
    expect(lines.filter((l) => l.check === 'volume' && l.status !== 'ok')).toEqual([])
  })

  it('--persona naming a folder without the persona files is refused with exit 2, and no volume is opened', async () => {
    const started = await startEngine({ env: { DSH_HOME: t.home }, persona: PERSONA_SOURCES })
    await started.store.close()
    const before = readFileSync(join(t.root, '元/卷.json'), 'utf8')
    const empty = join(t.home, 'not-a-package')
    mkdirSync(join(empty, 'persona'), { recursive: true })
    writeFileSync(join(empty, 'persona/chat.legacy.md'), 'only a legacy copy\n')

    const refused = await run(['volume', 'new', '--reason', 'x', '--confirm', 'new-volume', '--persona', empty])
    expect(refused.code).toBe(2)
    expect(refused.err).toContain('persona/chat.md')
    expect(readFileSync(join(t.root, '元/卷.json'), 'utf8')).toBe(before)
  })

  it('a 卷.json with bytes that are not UTF-8 is refused by volume new and complete, not written back with replacement characters (decision 310)', async () => {
    const started = await startEngine({ env: { DSH_HOME: t.home }, persona: PERSONA_SOURCES })
    await started.store.close()
    const file = join(t.root, '元/卷.json')
    // A volume's reason edited by hand in another encoding: one byte that is not UTF-8.
    const text = readFileSync(file, 'utf8')
    const bytes = Buffer.concat([Buffer.from('{"note": "'), Buffer.from([0xe9]), Buffer.from('", ' + text.slice(text.indexOf('{') + 1))])
    writeFileSync(file, bytes)
    for (const argv of [
      ['volume', 'new', '--reason', 'x', '--confirm', 'new-volume'],
      ['volume', 'complete'],
    ]) {
      const r = await run(argv)
      expect(r.code, r.err).toBe(2)
      expect(r.err).toContain('元/卷.json is not valid UTF-8')
      expect(r.err).toContain('fix it by hand or restore it from a snapshot — nothing was changed')
      expect(readFileSync(file).equals(bytes)).toBe(true)
    }
    expect(readdirSync(join(t.root, '元/卷'))).toEqual(['000'])
  })

  it('元/卷 replaced by a link: volume new is refused (link-in-store) and copies nothing through it; with the folder back it opens volume 1', async () => {
    const started = await startEngine({ env: { DSH_HOME: t.home }, persona: PERSONA_SOURCES })
    await started.store.close()
    const before = readFileSync(join(t.root, '元/卷.json'))
    const outside = join(t.home, 'elsewhere')
    mkdirSync(outside)
    renameSync(join(t.root, '元/卷'), join(outside, '卷'))
    symlinkSync(join(outside, '卷'), join(t.root, '元/卷'))

    const refused = await run(['volume', 'new', '--reason', 'x', '--confirm', 'new-volume'])
    expect(refused.code, refused.err).toBe(2)
    expect(refused.err).toContain('元/卷 is a symbolic link')
    expect(readdirSync(join(outside, '卷'))).toEqual(['000'])
    expect(readFileSync(join(t.root, '元/卷.json')).equals(before)).toBe(true)

    unlinkSync(join(t.root, '元/卷'))
    renameSync(join(outside, '卷'), join(t.root, '元/卷'))
    expect(await run(['volume', 'new', '--reason', 'x', '--confirm', 'new-volume'])).toMatchObject({ code: 0 })
    expect(readdirSync(join(t.root, '元/卷')).sort()).toEqual(['000', '001'])
  })

  it('a FIFO named as the A/B report or as a persona file is refused at once (exit 2), not waited on for good; no volume is opened', async () => {
    const started = await startEngine({ env: { DSH_HOME: t.home }, persona: PERSONA_SOURCES })
    await started.store.close()
    const before = readFileSync(join(t.root, '元/卷.json'))
    const fifo = join(t.home, 'report.fifo')
    execFileSync('mkfifo', [fifo])
    const ab = await run(['volume', 'new', '--reason', 'x', '--confirm', 'new-volume', '--ab-report', fifo, '--verdict', 'keep'])
    expect(ab.code, ab.err).toBe(2)
    expect(ab.err).toContain(`the A/B report ${fifo} is not a regular file`)
    const pkg = packageCopy()
    unlinkSync(join(pkg, 'persona/chat.md'))
    execFileSync('mkfifo', [join(pkg, 'persona/chat.md')])
    const persona = await run(['volume', 'new', '--reason', 'x', '--confirm', 'new-volume', '--persona', pkg])
    expect(persona.code, persona.err).toBe(2)
    expect(persona.err).toContain(`cannot read persona file ${join(pkg, 'persona/chat.md')}`)
    expect(readFileSync(join(t.root, '元/卷.json')).equals(before)).toBe(true)
    expect(readdirSync(join(t.root, '元/卷'))).toEqual(['000'])
  })
})

/** A report file as `npm run persona:ab` writes it, made for the persona `change`. */
function abReport(change: string, name = 'report.md'): string {
  const file = join(t.home, name)
  writeFileSync(file, `${reportMarkLine({ base: 'sha256:old', change, seed: 7, createdAt: '2026-11-30T00:00:00.000Z' })}\n\n# 昔涟 persona A/B\n`)
  return file
}

describe('cyrene volume new --ab-report (issue 15 item 3)', () => {
  it('records the report hash, both fingerprints and the verdict in 元/卷.json; the doctor then has nothing to say', async () => {
    const started = await startEngine({ env: { DSH_HOME: t.home }, persona: PERSONA_SOURCES })
    await started.store.close()
    const pkg = packageCopy()
    writeFileSync(join(pkg, 'persona/chat.md'), readFileSync(join(pkg, 'persona/chat.md'), 'utf8') + '\n她更爱笑了。\n')
    const changed = await personaFingerprint(personaSourcesIn(pkg))
    const report = abReport(changed)

    const opened = await run(['volume', 'new', '--reason', '人格修订', '--confirm', 'new-volume', '--persona', pkg, '--ab-report', report, '--verdict', 'keep'])
    expect(opened.code, opened.err).toBe(0)
    expect(opened.out).toContain('persona A/B recorded: verdict keep')
    const volumes = JSON.parse(readFileSync(join(t.root, '元/卷.json'), 'utf8'))
    expect(volumes.volumes.at(-1).ab).toEqual({
      report_sha256: `sha256:${createHash('sha256').update(readFileSync(report)).digest('hex')}`,
      base_fingerprint: 'sha256:old',
      change_fingerprint: changed,
      verdict: 'keep',
    })
  })

  it('a report made for another persona, a file that is no report, or a bad verdict: exit 2, no volume opened', async () => {
    const started = await startEngine({ env: { DSH_HOME: t.home }, persona: PERSONA_SOURCES })
    await started.store.close()
    const before = readFileSync(join(t.root, '元/卷.json'), 'utf8')
    const notReport = join(t.home, 'notes.md')
    writeFileSync(notReport, '# just notes\n')
    const current = await personaFingerprint(PERSONA_SOURCES)
    for (const [args, says] of [
      [['--ab-report', abReport('sha256:someone-else', 'other.md'), '--verdict', 'keep'], 'run npm run persona:ab again'],
      [['--ab-report', notReport, '--verdict', 'keep'], 'is not a persona A/B report'],
      [['--ab-report', abReport(current), '--verdict', 'maybe'], '--verdict must be keep or revert'],
      [['--ab-report', abReport(current)], '--ab-report <FILE> and --verdict keep|revert go together'],
      [['--ab-report', join(t.home, 'missing.md'), '--verdict', 'keep'], 'cannot read the A/B report'],
    ] as const) {
      const refused = await run(['volume', 'new', '--reason', 'x', '--confirm', 'new-volume', ...args])
      expect(refused.code, says).toBe(2)
      expect(refused.err).toContain(says)
      expect(readFileSync(join(t.root, '元/卷.json'), 'utf8')).toBe(before)
    }
  })

  it('the doctor warns about a volume opened for a changed persona without an A/B, with the command to run', async () => {
    const started = await startEngine({ env: { DSH_HOME: t.home }, persona: PERSONA_SOURCES })
    await started.store.close()
    // Volume 0 recorded with an older persona: the persona installed now is a change that was never A/B'd.
    const volumes = JSON.parse(readFileSync(join(t.root, '元/卷.json'), 'utf8'))
    volumes.volumes[0].persona_hash = 'sha256:an-older-persona'
    writeFileSync(join(t.root, '元/卷.json'), JSON.stringify(volumes))
    expect((await run(['volume', 'new', '--reason', '人格修订', '--confirm', 'new-volume'])).code).toBe(0)

    const doctor = await run(['doctor', '--json', '--lang', 'en'])
    const warned = (JSON.parse(doctor.out).lines as { check: string; status: string; detail: string }[]).filter(
      (l) => l.check === 'volume' && l.status === 'warn',
    )
    expect(warned.map((l) => l.detail).join('\n')).toContain('without a persona A/B: run `npm run persona:ab -- --base')
  })
})
