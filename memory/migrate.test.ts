import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { MemoryStore } from './store.ts'
import { findRetiredPlugins, itemsFromInbox, migrate } from './migrate.ts'
import { importItems, parseImportJsonl } from './importer.ts'
import { checkStore } from './check.ts'
import { walkFiles } from './fsio.ts'
import { tempHome } from './testing/tmp.ts'

const FIX = fileURLToPath(new URL('../tests/fixtures/memory/', import.meta.url))
const LEGACY = join(FIX, 'legacy-home')

async function treeHash(dir: string): Promise<string> {
  const h = createHash('sha256')
  for (const f of (await walkFiles(dir)).sort()) h.update(f).update(await fs.readFile(join(dir, f)))
  return h.digest('hex')
}

let t: Awaited<ReturnType<typeof tempHome>>
beforeEach(async () => {
  t = await tempHome()
})
afterEach(async () => {
  await t.cleanup()
})

describe('migrate', () => {
  it('imports 0.5.x day files as-is, cyrene-memory.md lines and confirmed inbox entries; never touches the source', async () => {
    const before = await treeHash(LEGACY)
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const dry = await migrate(s, LEGACY, { dryRun: true })
    expect(dry.imported).toBe(7)
    expect((await s.scan()).entries).toHaveLength(0)

    const r = await migrate(s, LEGACY)
    expect(await treeHash(LEGACY)).toBe(before)
    expect(r.sources.map((x) => x.kind).sort()).toEqual(['day-file', 'day-file', 'inbox', 'memory-md'])
    expect(r.imported).toBe(7)
    expect(r.snapshot).toMatch(/pre-migrate/)
    const why = r.skipped.map((x) => x.why).join('\n')
    expect(why).toMatch(/not valid JSON[\s\S]*left in the source/)
    expect(why).toMatch(/not confirmed/)
    expect(why).toMatch(/unknown op/)

    const old = await s.get('m-20250301-001')
    expect(old!.text).toBe('她说今天第一次自己做了饭。')
    expect(old!.meta).toMatchObject({ gate: 'imported', imported_gate: 'day', mood: 'happy', axis: '劳' })
    expect(old!.file).toBe('岁月涟漪/日档/2025/03/2025-03-01.md')
    expect((await s.get('m-20250301-002'))!.meta.custom).toEqual({ keep: [1, 2] })
    const { entries } = await s.scan()
    const texts = entries.map((e) => e.text)
    expect(texts).toEqual(expect.arrayContaining(['她叫小雨', '喜欢猫', '她在做全栈开发', '她讨厌香菜']))
    expect(texts).not.toContain('临时的一条')
    expect(texts).not.toContain('她在做前端开发')
    expect(entries.find((e) => e.text === '她讨厌香菜')!.meta.tag).toBe('kitchen')
    expect((await checkStore(s)).errors).toEqual([])

    const again = await migrate(s, LEGACY)
    expect(again.imported).toBe(0)
    expect((await s.scan()).entries).toHaveLength(7)
  })

  it('refuses to migrate from the store itself or from nowhere', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    await expect(migrate(s, s.root)).rejects.toThrow(/store itself/)
    await expect(migrate(s, join(t.home, 'nope'))).rejects.toThrow(/nothing at/)
  })

  it('finds retired plugins installed in a profile', async () => {
    await fs.mkdir(join(t.home, 'profiles/web/node_modules/dsh-cyrene'), { recursive: true })
    await fs.writeFile(join(t.home, 'profiles/web/node_modules/dsh-cyrene/package.json'), '{}')
    expect(await findRetiredPlugins(t.home)).toEqual([{ name: 'dsh-cyrene', where: join(t.home, 'profiles/web') }])
  })
})

describe('inbox replay', () => {
  it('supersede keeps the confirmation and moves the entry to the end', () => {
    const log = [
      '{"text":"a","status":"proposed"}',
      '{"text":"b","status":"proposed"}',
      '{"op":"confirm","ref":"a"}',
      '{"op":"confirm","ref":"b"}',
      '{"op":"supersede","ref":"a","text":"a2"}',
    ].join('\n')
    expect(itemsFromInbox(log, 'x').items.map((i) => i.text)).toEqual(['b', 'a2'])
  })
})

describe('import --jsonl', () => {
  it('takes good lines, reports bad ones with line numbers, keeps ref as source_ref, is idempotent', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const { items, skipped } = parseImportJsonl(await fs.readFile(join(FIX, 'import.jsonl'), 'utf8'), 'import.jsonl')
    expect(items).toHaveLength(2)
    expect(skipped.map((x) => x.origin)).toEqual(['import.jsonl:3', 'import.jsonl:4', 'import.jsonl:5'])
    const r = await importItems(s, items)
    expect(r.imported).toBe(2)
    const e = (await s.scan()).entries.find((x) => x.text === '第一条导入')!
    expect(e.meta).toMatchObject({ gate: 'imported', source_ref: 'notes:1', kind: 'fact' })
    expect((await importItems(s, items)).imported).toBe(0)
  })

  it('skips, not refuses, an item that is too long, keeping the rest', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const r = await importItems(s, [
      { text: '长'.repeat(500), origin: 'a' },
      { text: '短', origin: 'b' },
    ])
    expect(r.imported).toBe(1)
    expect(r.skipped[0]).toMatchObject({ origin: 'a', why: expect.stringMatching(/limit is 400/) })
  })
})

describe('re-importing brings nothing twice; bad lines are refused one by one (issue 7 items 6, 10, 13)', () => {
  const enc = (lines: string[]): Buffer => Buffer.from(`${lines.join('\n')}\n`)

  it('3 runs of a file with lines without "at" and an escaped lone surrogate: each entry once, the surrogate line refused with its number every time (item 6)', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const file = enc([
      '{"text":"没有时间的一条","kind":"fact"}',
      '{"text":"  没有时间的第二条 "}',
      '{"text":"半个字符\\ud83d在这里","at":"2026-01-02T10:00:00Z"}',
      '{"text":"有时间的一条","at":"2026-01-03"}',
    ])
    const runs = []
    for (let n = 0; n < 3; n++) {
      const { items, skipped } = parseImportJsonl(file, 'f.jsonl')
      const r = await importItems(s, items)
      runs.push({ imported: r.imported, already: r.already.map((x) => x.origin), refused: [...skipped, ...r.skipped].map((x) => x.origin) })
      expect([...skipped, ...r.skipped].find((x) => x.origin === 'f.jsonl:3')?.why).toMatch(/lone surrogate/)
    }
    expect(runs).toEqual([
      { imported: 3, already: [], refused: ['f.jsonl:3'] },
      { imported: 0, already: ['f.jsonl:1', 'f.jsonl:2', 'f.jsonl:4'], refused: ['f.jsonl:3'] },
      { imported: 0, already: ['f.jsonl:1', 'f.jsonl:2', 'f.jsonl:4'], refused: ['f.jsonl:3'] },
    ])
    const { entries } = await s.scan()
    expect(entries.map((e) => e.text).sort()).toEqual(['有时间的一条', '没有时间的一条', '没有时间的第二条'])
    expect(entries.some((e) => e.text.includes('\ufffd'))).toBe(false)
    // The key: sha256 of the canonical JSON [normalised text, kind or null, the line's own at or null].
    const key = (text: string, kind: string | null, at: string | null) =>
      `sha256:${createHash('sha256')
        .update(JSON.stringify([text, kind, at]))
        .digest('hex')}`
    const byText = new Map(entries.map((e) => [e.text, e.meta]))
    expect(byText.get('没有时间的一条')!.import_key).toBe(key('没有时间的一条', 'fact', null))
    expect(byText.get('没有时间的第二条')!.import_key).toBe(key('没有时间的第二条', null, null))
    expect(byText.get('有时间的一条')!.import_key).toBe(key('有时间的一条', null, '2026-01-03'))
    // Lines without "at" are still filed at the import time.
    expect(typeof byText.get('没有时间的一条')!.at).toBe('string')
  })

  it('an exact repeat inside one file is imported once; a line that differs in kind or at is its own memory', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const { items } = parseImportJsonl(
      enc(['{"text":"同一句"}', '{"text":"同一句"}', '{"text":"同一句","kind":"note"}', '{"text":"同一句","at":"2026-01-01"}']),
      'g',
    )
    const r = await importItems(s, items)
    expect(r.imported).toBe(3)
    expect(r.already).toEqual([{ origin: 'g:2', why: expect.stringMatching(/same line as g:1/), said: { code: 'why.same-line', params: { first: 'g:1' } } }])
  })

  it('entries imported before import keys are still recognised (same text and at, no key)', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const at = '2024-01-02T10:00:00.000Z'
    await fs.mkdir(join(t.root, '岁月涟漪/日档/2024/01'), { recursive: true })
    await fs.writeFile(join(t.root, '岁月涟漪/日档/2024/01/2024-01-02.md'), `旧的导入\n<!--cyrene:{"id":"old-1","at":"${at}","gate":"imported"}-->\n`)
    const r = await importItems(s, parseImportJsonl(enc([`{"text":"旧的导入","at":"${at}"}`]), 'h').items)
    expect(r.imported).toBe(0)
    expect(r.already).toHaveLength(1)
  })

  it('axis, reason and the metadata cap are checked like a write; escapes never get in (item 10)', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const { items, skipped } = parseImportJsonl(
      enc([
        '{"text":"好的","axis":"智","reason":"学到了"}',
        '{"text":"坏轴","axis":"\\u001b[2J\\u001b[31m智"}',
        `{"text":"长理由","axis":"德","reason":"${'理'.repeat(100_000)}"}`,
        '{"text":"两行理由","reason":"一\\n二"}',
        '{"text":"控制字符","reason":"\\u009b31m"}',
        '{"text":"不是字符串","axis":5}',
      ]),
      'm',
    )
    const r = await importItems(s, items)
    expect(r.imported).toBe(1)
    const refused = Object.fromEntries([...skipped, ...r.skipped].map((x) => [x.origin, x.why]))
    expect(Object.keys(refused).sort()).toEqual(['m:2', 'm:3', 'm:4', 'm:5', 'm:6'])
    expect(refused['m:2']).toMatch(/not one of 德 智 体 美 劳/)
    expect(refused['m:3']).toMatch(/limit is 200/)
    expect(refused['m:4']).toMatch(/one line/)
    expect(refused['m:5']).toMatch(/control/)
    expect(refused['m:6']).toMatch(/"axis" must be a string/)
    // A legacy entry whose comment is a 100 KB paste is refused, not imported.
    const big = await importItems(s, [{ text: '旧的', meta: { id: 'legacy-big', blob: 'x'.repeat(100_000) }, origin: 'old#legacy-big' }])
    expect(big.skipped[0]).toMatchObject({ origin: 'old#legacy-big', why: expect.stringMatching(/limit is 4000/) })
    const raw = (await Promise.all((await walkFiles(t.root, '岁月涟漪')).map((f) => fs.readFile(join(t.root, f), 'utf8')))).join('')
    expect(raw).not.toMatch(/[\u001b\u009b]|\\u001b|\\u009b/)
  })

  it('a year below 1000, 0999, an impossible date: refused with the line number, the rest goes on (item 13)', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const { items, skipped } = parseImportJsonl(
      enc([
        '{"text":"公元五十年","at":"0050-01-01T00:00:00Z"}',
        '{"text":"公元九九九年","at":"0999-12-31"}',
        '{"text":"二月三十日","at":"2026-02-30"}',
        '{"text":"数字","at":"12"}',
        '{"text":"正常","at":"2026-02-28"}',
      ]),
      'y',
    )
    expect(skipped.map((x) => x.origin)).toEqual(['y:1', 'y:2', 'y:3', 'y:4'])
    for (const x of skipped) expect(x.why).toMatch(/Accepted: YYYY-MM-DD/)
    const r = await importItems(s, items)
    expect(r.imported).toBe(1)
    // The same rule holds for items that do not come through the JSONL parser.
    const direct = await importItems(s, [
      { text: '直接', at: '0050-06-01', origin: 'direct' },
      { text: '也正常', at: '2026-02-27', origin: 'ok' },
    ])
    expect(direct).toMatchObject({ imported: 1, skipped: [{ origin: 'direct', why: expect.stringMatching(/1000–9999/) }] })
  })

  it('invalid UTF-8 is refused line by line with its number, never imported as U+FFFD (item 13)', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const bytes = Buffer.concat([
      Buffer.from('\ufeff{"text":"第一行"}\n{"text":"'),
      Buffer.from([0xe4, 0xbd]),
      Buffer.from('坏"}\n{"text":"'),
      Buffer.from([0xff]),
      Buffer.from('"}\n{"text":"第四行"}\n'),
    ])
    const { items, skipped } = parseImportJsonl(bytes, 'u')
    expect(skipped.map((x) => x.origin)).toEqual(['u:2', 'u:3'])
    expect(skipped[0]!.why).toMatch(/not valid UTF-8 \(near byte 12 of the line, 0xe5/)
    expect((await importItems(s, items)).imported).toBe(2)
    expect((await s.scan()).entries.map((e) => e.text)).toEqual(['第一行', '第四行'])
  })

  it('migrate: a legacy file with invalid UTF-8 loses only the entries on those lines, reported with the line', async () => {
    const from = join(t.home, 'old')
    await fs.mkdir(from)
    const day = Buffer.concat([
      Buffer.from('好的一条\n<!--cyrene:{"id":"ok-1","at":"2025-03-01T10:00:00Z"}-->\n\n坏的'),
      Buffer.from([0xc3, 0x28]),
      Buffer.from('一条\n<!--cyrene:{"id":"bad-1"}-->\n'),
    ])
    await fs.writeFile(join(from, '2025-03-01.md'), day)
    await fs.writeFile(join(from, 'cyrene-memory.md'), Buffer.concat([Buffer.from('- 猫\n- '), Buffer.from([0xff]), Buffer.from('\n- 狗\n')]))
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
    const r = await migrate(s, from)
    expect((await s.scan()).entries.map((e) => e.text).sort()).toEqual(['好的一条', '狗', '猫'])
    const why = r.skipped.map((x) => `${x.origin} ${x.why}`).join('\n')
    expect(why).toMatch(/2025-03-01\.md:4 not valid UTF-8/)
    expect(why).toMatch(/#bad-1 its lines 3–5 include line 4/)
    expect(why).toMatch(/cyrene-memory\.md:2 not valid UTF-8/)
    expect((await migrate(s, from)).already).toHaveLength(3)
  })
})
