import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { MemoryStore } from './store.ts'
import { checkStore } from './check.ts'
import { readVolumes } from './volumes.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
let s: MemoryStore
beforeEach(async () => {
  t = await tempHome()
  s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
})
afterEach(async () => {
  await t.cleanup()
})
const fact = (text: string, at = '2026-04-01T12:00:00') => ({ text, at, axis: '智', reason: 'r', kind: 'fact' })
const day = '岁月涟漪/日档/2026/04/2026-04-01.md'

it('a hand-edited day file: edits are read, every other byte survives the next write', async () => {
  const a = await s.write(fact('第一条'), { by: 'person' })
  const b = await s.write(fact('第二条'), { by: 'person' })
  const file = join(t.root, day)
  let text = await fs.readFile(file, 'utf8')
  // The person rewrites a line, adds a heading and a free note, reorders JSON keys, uses CRLF.
  text = `# 四月一日\r\n\r\n${text.replace('第一条', '第一条（改过）').replace(`{"id":"${b.id}",`, `{"note":"hand","id":"${b.id}",`)}\r\n我自己随手写的一句。\r\n`
  await fs.writeFile(file, text)
  const edited = await s.get(a.id)
  expect(edited!.text).toBe('# 四月一日\n\n第一条（改过）')
  expect((await s.get(b.id))!.meta.note).toBe('hand')
  const c = await s.write(fact('第三条'), { by: 'person' })
  const after = await fs.readFile(file, 'utf8')
  const beforeLoose = text.slice(0, text.indexOf('我自己随手写的一句'))
  expect(after.startsWith(beforeLoose.trimEnd())).toBe(true)
  expect(after).toContain('我自己随手写的一句。')
  expect((await s.scan()).entries.map((e) => e.id)).toEqual([a.id, b.id, c.id])
  const report = await checkStore(s)
  // The edited entry is no longer the one the person-marks record backs: check names it until the
  // person confirms it (cyrene memory marks --confirm, docs/decisions/020); nothing else is wrong.
  expect(report.errors.map((e) => e.code)).toEqual(['unbacked-person'])
  expect(report.warnings.map((w) => w.code)).toContain('loose-text')
})

it('a truncated file: intact entries are served, the cut comment is reported, its bytes kept on the next write', async () => {
  await s.write(fact('完整的'), { by: 'person' })
  const file = join(t.root, day)
  await fs.appendFile(file, '\n写到一半\n<!--cyrene:{"id":"cut","ki')
  const cut = await fs.readFile(file, 'utf8')
  expect((await s.scan()).entries.map((e) => e.text)).toEqual(['完整的'])
  const r = await checkStore(s)
  expect(r.errors).toMatchObject([{ code: 'format', file: day, line: 5 }])
  await s.write(fact('之后的'), { by: 'person' })
  const after = await fs.readFile(file, 'utf8')
  expect(after.startsWith(cut)).toBe(true)
  expect((await s.scan()).entries.map((e) => e.text)).toEqual(['完整的', '之后的'])
})

it('a file that is not UTF-8 is reported and never rewritten', async () => {
  await s.write(fact('好的'), { by: 'person' })
  const file = join(t.root, day)
  const bytes = Buffer.concat([await fs.readFile(file), Buffer.from([0xff, 0xfe, 0x0a])])
  await fs.writeFile(file, bytes)
  expect((await s.scan()).entries.map((e) => e.text)).toEqual(['好的'])
  expect((await checkStore(s)).errors.map((e) => e.code)).toContain('format')
  await expect(s.write(fact('不能写进去'), { by: 'person' })).rejects.toThrow(/not valid UTF-8/)
  expect(Buffer.compare(await fs.readFile(file), bytes)).toBe(0)
  // other days keep working
  expect((await s.write(fact('别的日子', '2026-04-02T12:00:00'), { by: 'person' })).gate).toBe('day')
})

it('invalid JSON in 元/*.json is reported by check and refused by the code that needs it, untouched', async () => {
  await fs.writeFile(join(t.root, '元', '卷.json'), '{"current": 0, "volumes": [')
  await expect(readVolumes(s)).rejects.toThrow(/not valid JSON/)
  const r = await checkStore(s)
  expect(r.errors).toMatchObject([{ code: 'meta-json', file: '元/卷.json' }])
  // writing memories does not depend on it
  expect((await s.write(fact('照常'), { by: 'person' })).gate).toBe('day')
  expect(await fs.readFile(join(t.root, '元', '卷.json'), 'utf8')).toBe('{"current": 0, "volumes": [')
})

it('ids with path tricks or control characters in a file are harmless data, flagged by check', async () => {
  await fs.mkdir(join(t.root, '岁月涟漪/日档/2026/04'), { recursive: true })
  await fs.writeFile(join(t.root, day), 'a\n<!--cyrene:{"id":"../../../etc/passwd"}-->\n\nb\n<!--cyrene:{"id":"x\\u0000y"}-->\n')
  expect((await s.get('../../../etc/passwd'))!.text).toBe('a')
  const r = await checkStore(s)
  expect(r.errors.filter((e) => e.code === 'bad-id')).toHaveLength(1)
  expect(await fs.readdir(t.root)).not.toContain('etc')
})

it('a hand-edited comment with a date nothing sorts by, an axis none of the five or a volume that is no number is named by check', async () => {
  await fs.mkdir(join(t.root, '岁月涟漪/日档/2026/04'), { recursive: true })
  const lines = [
    'a\n<!--cyrene:{"id":"a1","at":"2026-13-45T99:99:99Z"}-->',
    'b\n<!--cyrene:{"id":"b1","at":12345}-->',
    'c\n<!--cyrene:{"id":"c1","at":"2026-04-01T12:00:00.000Z","axis":"X"}-->',
    'd\n<!--cyrene:{"id":"d1","at":"2026-04-01T12:00:00.000Z","vol":-1}-->',
    'e\n<!--cyrene:{"id":"e1","at":"2026-04-01T12:00:00.000Z","axis":"美","vol":0}-->',
  ]
  await fs.writeFile(join(t.root, day), lines.join('\n\n') + '\n')
  const odd = (await checkStore(s)).warnings.filter((w) => w.code === 'meta-field').map((w) => w.message.split(' is ')[0])
  expect(odd).toEqual(['"at"', '"at"', '"axis"', '"vol"'])
})

it('duplicate ids and dangling links are errors; a 10 MB paste is refused before touching disk', async () => {
  const a = await s.write(fact('one'), { by: 'person' })
  await s.write({ ...fact('two'), links: [`${a.id}|因果`] }, { by: 'person' })
  // Writes refuse dangling links now; a hand edit can still make one.
  await fs.appendFile(join(t.root, day), `\ncopy\n<!--cyrene:{"id":"${a.id}"}-->\n\nhand\n<!--cyrene:{"id":"hand-1","links":["ghost-id|相似"]}-->\n`)
  const codes = (await checkStore(s)).errors.map((e) => e.code).sort()
  expect(codes).toEqual(['duplicate-id', 'link'])
  const before = await fs.readFile(join(t.root, day))
  await expect(s.write(fact('长'.repeat(5 * 1024 * 1024)), { by: 'person' })).rejects.toThrow(/limit is 400/)
  expect(Buffer.compare(await fs.readFile(join(t.root, day)), before)).toBe(0)
})

describe('links only to entries that exist (issue 7 item 11)', () => {
  it('write refuses a link to an unknown id, naming it and how to list ids; nothing is written', async () => {
    const a = await s.write(fact('one'), { by: 'person' })
    const before = await fs.readFile(join(t.root, day))
    for (const by of ['person', 'model'] as const) {
      await expect(s.write({ ...fact('two'), links: [`${a.id}|因果`, 'ghost-id|相似'] }, { by })).rejects.toThrow(
        /no entry with id "ghost-id" to link to; nothing was written.*cyrene memory list/,
      )
    }
    expect(Buffer.compare(await fs.readFile(join(t.root, day)), before)).toBe(0)
    expect((await s.scan()).entries).toHaveLength(1)
    expect((await checkStore(s)).errors).toEqual([])
    // A link to an existing entry, day or pending, is fine.
    const pending = await s.write({ text: '待定的一条' }, { by: 'person' })
    expect((await s.write({ ...fact('three'), links: [`${a.id}|因果`, `${pending.id}|`] }, { by: 'model' })).gate).toBe('day')
  })

  it('update refuses adding a link to an unknown id, but a dangling link left by a hand edit does not block other changes', async () => {
    const a = await s.write(fact('one'), { by: 'person' })
    const b = await s.write(fact('two'), { by: 'person' })
    await expect(s.update(b.id, { links: ['ghost-id|因果'] }, { by: 'model' })).rejects.toThrow(/no entry with id "ghost-id"/)
    expect((await s.get(b.id))!.meta.links).toBeUndefined()
    // The person hand-edits a dangling link in; updating the text still works and keeps it.
    const file = join(t.root, day)
    await fs.writeFile(file, (await fs.readFile(file, 'utf8')).replace(`{"id":"${b.id}",`, `{"id":"${b.id}","links":["gone|相似"],`))
    const u = await s.update(b.id, { text: 'two (edited)' }, { by: 'person' })
    expect(u.meta.links).toEqual(['gone|相似'])
    expect((await s.update(b.id, { links: ['gone|相似', `${a.id}|时序`] }, { by: 'person' })).meta.links).toEqual(['gone|相似', `${a.id}|时序`])
  })
})
