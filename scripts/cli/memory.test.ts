import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { main } from './main.ts'
import type { CliIO } from './io.ts'
import { tempHome } from '../../memory/testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => { t = await tempHome() })
afterEach(async () => {
  await fs.chmod(join(t.root, '元/卷/000/persona'), 0o700).catch(() => undefined)
  await fs.chmod(join(t.root, '元/卷/001/persona'), 0o700).catch(() => undefined)
  await t.cleanup()
})

function io(stdin = ''): CliIO & { out: string; err: string } {
  const o = { out: '', err: '' } as CliIO & { out: string; err: string }
  o.stdout = (s) => { o.out += s }
  o.stderr = (s) => { o.err += s }
  o.env = { DSH_HOME: t.home }
  o.cwd = t.home
  o.readStdin = async () => stdin
  return o
}

async function run(args: string[], stdin = ''): Promise<{ code: number; out: string; err: string }> {
  const i = io(stdin)
  const code = await main(args, i)
  return { code, out: i.out, err: i.err }
}

describe('cyrene memory', () => {
  it('write → list → show → search → log, with --json', async () => {
    const w = await run(['memory', 'write', '她喜欢', '抹茶', '--kind', 'preference', '--axis', '美', '--reason', '口味', '--json'])
    expect(w.code).toBe(0)
    const { id, gate } = JSON.parse(w.out) as { id: string; gate: string }
    expect(gate).toBe('day')
    const l = await run(['memory', 'list'])
    expect(l.out).toContain(id)
    expect(l.out).toContain('她喜欢 抹茶')
    const s = await run(['memory', 'show', id, '--json'])
    expect(JSON.parse(s.out).meta.by).toBe('person')
    expect((await run(['memory', 'search', '抹茶', '--json'])).out).toContain(id)
    expect((await run(['memory', 'search', 'nothing-like-this'])).out).toMatch(/nothing found/)
    expect((await run(['memory', 'log'])).out).toContain(`person wrote ${id}`)
    expect((await run(['memory', 'show', 'no-such-id'])).code).toBe(1)
  })

  it('reads text from stdin and reports a pending write with reasons', async () => {
    const r = await run(['memory', 'write', '-'], '决定辞职')
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/余页\/待定/)
    expect(r.out).toMatch(/rule 2/)
    expect((await run(['memory', 'list', '--pending', '--json'])).out).toContain('决定辞职')
  })

  it('refuses bad input with exit 2 and a message', async () => {
    const long = await run(['memory', 'write', '字'.repeat(401)])
    expect(long.code).toBe(2)
    expect(long.err).toMatch(/limit is 400/)
    expect((await run(['memory', 'write', 'x', '--link', 'a|朋友'])).err).toMatch(/link type/)
    expect((await run(['memory', 'write', 'x', '--bogus'])).code).toBe(2)
    expect((await run(['memory', 'frobnicate'])).code).toBe(2)
    expect((await run(['memory', 'list', '--limit', '-3'])).code).toBe(2)
  })

  it('check exits 0 when clean and 1 on a malformed comment, naming file and line', async () => {
    await run(['memory', 'write', 'ok', '--axis', '德', '--reason', 'r', '--at', '2026-01-02T12:00:00'])
    expect((await run(['memory', 'check'])).code).toBe(0)
    const f = join(t.root, '岁月涟漪/日档/2026/01/2026-01-02.md')
    await fs.appendFile(f, '\nbad\n<!--cyrene:{nope}-->\n')
    const c = await run(['memory', 'check'])
    expect(c.code).toBe(1)
    expect(c.out).toMatch(/岁月涟漪\/日档\/2026\/01\/2026-01-02\.md:5: .*not valid JSON/)
    expect((await run(['memory', 'list'])).out).toMatch(/1 entry; 1 unreadable/)
  })

  it('check reports a retired plugin still installed in a profile', async () => {
    await fs.mkdir(join(t.home, 'profiles/web/node_modules/dsh-cyrene-eternal-page-remembrance'), { recursive: true })
    await fs.writeFile(join(t.home, 'profiles/web/node_modules/dsh-cyrene-eternal-page-remembrance/package.json'), '{}')
    const c = await run(['memory', 'check'])
    expect(c.code).toBe(1)
    expect(c.out).toMatch(/retired plugin dsh-cyrene-eternal-page-remembrance/)
  })

  it('import --jsonl, export, reindex (progress on stderr)', async () => {
    const file = fileURLToPath(new URL('../../tests/fixtures/memory/import.jsonl', import.meta.url))
    const i = await run(['memory', 'import', '--jsonl', file])
    expect(i.code).toBe(0)
    expect(i.out).toMatch(/imported 2 entries/)
    expect(i.out).toMatch(/import\.jsonl:4/)
    expect(i.err).toMatch(/import: 2\/2/)
    const e = await run(['memory', 'export'])
    expect(e.out.trim().split('\n')).toHaveLength(2)
    expect(JSON.parse(e.out.split('\n')[0]!).meta.gate).toBe('imported')
    const r = await run(['memory', 'reindex', '--json', '--quiet'])
    expect(JSON.parse(r.out)).toMatchObject({ entries: 2 })
  })

  it('anchor write/show; recheck and untomb', async () => {
    expect((await run(['memory', 'anchor', 'write', 'user', '你喜欢雨天'])).code).toBe(0)
    expect((await run(['memory', 'anchor'])).out).toContain('你喜欢雨天')
    await run(['memory', 'write', '模糊'])
    for (let n = 0; n < 3; n++) expect((await run(['memory', 'recheck'])).code).toBe(0)
    const p = JSON.parse((await run(['memory', 'list', '--pending', '--json'])).out) as { entries: Array<{ id: string; record: { tombstoned_at?: string } }> }
    expect(p.entries[0]!.record.tombstoned_at).toBeDefined()
    expect((await run(['memory', 'untomb', p.entries[0]!.id])).code).toBe(0)
  })
})

describe('backup, restore, volume, migrate', () => {
  it('backup then restore', async () => {
    await run(['memory', 'write', 'one', '--axis', '德', '--reason', 'r'])
    const b = JSON.parse((await run(['backup', '--json', '--quiet'])).out) as { name: string }
    await run(['memory', 'write', 'two', '--axis', '德', '--reason', 'r'])
    expect((await run(['restore', '--list'])).out).toContain(b.name)
    const r = await run(['restore', b.name])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/To undo: cyrene restore .*pre-restore/)
    const l = await run(['memory', 'list'])
    expect(l.out).toContain('one')
    expect(l.out).not.toContain('two')
    expect((await run(['restore', 'nope'])).code).toBe(2)
  })

  it('volume new needs the confirmation word; volume show', async () => {
    expect((await run(['volume', 'new', '--reason', 'x'])).err).toMatch(/--confirm new-volume/)
    const v = await run(['volume', 'new', '--reason', '人格修订', '--confirm', 'new-volume', '--json'])
    expect(v.code).toBe(0)
    expect(JSON.parse(v.out).id).toBe(1)
    expect((await run(['volume'])).out).toMatch(/current volume 1/)
  })

  it('migrate --dry-run then migrate', async () => {
    const from = fileURLToPath(new URL('../../tests/fixtures/memory/legacy-home', import.meta.url))
    const d = await run(['migrate', '--from', from, '--dry-run'])
    expect(d.out).toMatch(/dry run — would import 7/)
    const m = await run(['migrate', '--from', from])
    expect(m.out).toMatch(/imported 7 entries/)
    expect(m.out).toMatch(/skipped .*not confirmed/)
    expect((await run(['memory', 'check'])).code).toBe(0)
    expect((await run(['migrate'])).code).toBe(2)
  })

  it('a relative --root is refused, never resolved against the working directory', async () => {
    const i = io()
    const code = await main(['memory', 'list', '--root', 'relative/path'], i)
    expect(code).toBe(2)
    expect(i.err).toMatch(/absolute path/)
  })
})
