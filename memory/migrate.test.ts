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
beforeEach(async () => { t = await tempHome() })
afterEach(async () => { await t.cleanup() })

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
    const log = ['{"text":"a","status":"proposed"}', '{"text":"b","status":"proposed"}', '{"op":"confirm","ref":"a"}', '{"op":"confirm","ref":"b"}', '{"op":"supersede","ref":"a","text":"a2"}'].join('\n')
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
    const r = await importItems(s, [{ text: '长'.repeat(500), origin: 'a' }, { text: '短', origin: 'b' }])
    expect(r.imported).toBe(1)
    expect(r.skipped[0]).toMatchObject({ origin: 'a', why: expect.stringMatching(/limit is 400/) })
  })
})
