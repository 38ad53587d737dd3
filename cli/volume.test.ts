import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { chmodSync, cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PACKAGE_ROOT } from '../host/package-root.ts'
import { PERSONA_SOURCES } from '../host/persona-sources.ts'
import { personaFingerprint, startEngine } from '../memory/index.ts'
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
  const io = memoryIO({ DSH_HOME: t.home, HOME: t.home }, t.home)
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

    const doctor = await run(['doctor', '--json'])
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
})
