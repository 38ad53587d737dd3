import { readFile, rm, writeFile, mkdir } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { checkStore } from './check.ts'
import { linkEntries } from './entry-links.ts'
import { recheckPending } from './recheck.ts'
import { dayFileRel, localDate } from './paths.ts'
import { changeMarks, isForgedClaim, isMarked, isPersonBase, MARKS_REL, markHash, migrateMarks, ownerOf } from './person-marks.ts'
import { restoreSnapshot } from './restore.ts'
import { takeSnapshot } from './snapshots.ts'
import { MemoryStore } from './store.ts'
import { tempHome } from './testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
let store: MemoryStore
beforeEach(async () => {
  t = await tempHome()
  store = await MemoryStore.open({ env: { DSH_HOME: t.home } })
  // A fresh store: the record starts empty (what a new store's first run leaves).
  await migrateMarks(store)
})
afterEach(async () => {
  await t.cleanup()
})

const personBase = (text: string) => store.write({ text, kind: 'fact', axis: '智', reason: 'r', base: true }, { by: 'person' })
const modelFact = (text: string) => store.write({ text, kind: 'fact', axis: '智', reason: 'r' }, { by: 'model' })
const today = () => dayFileRel(localDate(new Date()))
const marks = () => store.marks().marks

/** Appends raw text to today's day file, as a model's write or edit tool would. */
async function appendRaw(text: string): Promise<void> {
  const file = join(store.root, today())
  await mkdir(dirname(file), { recursive: true })
  const old = await readFile(file, 'utf8').catch(() => '')
  await writeFile(file, `${old}${old === '' ? '' : '\n'}${text}`)
}

describe('person marks: who wrote an entry is the record, not the comment (issue 19)', () => {
  it('a write refused after its mark was recorded (the day file could not be written) leaves no mark for the entry that did not land', async () => {
    const original = store.replaceFile.bind(store)
    const spy = vi.spyOn(store, 'replaceFile').mockImplementation(async (rel, text, lock, unchanged) => {
      if (rel.startsWith('岁月涟漪/')) throw Object.assign(new Error(`EACCES: permission denied, open '${rel}'`), { code: 'EACCES' })
      return await original(rel, text, lock, unchanged)
    })
    await expect(store.write({ text: '写不进去的一条', kind: 'fact', axis: '智', reason: '测试' }, { by: 'person' })).rejects.toThrow(/EACCES/)
    spy.mockRestore()
    const marks = JSON.parse(await readFile(join(t.root, MARKS_REL), 'utf8')) as { entries: Record<string, string> }
    expect(Object.keys(marks.entries)).toEqual([])
  })

  it("the person's base write is recorded and reads as the person's base entry", async () => {
    const w = await personBase('我不吃香菜')
    const e = (await store.get(w.id))!
    expect(isPersonBase(marks(), e)).toBe(true)
    expect(ownerOf(marks(), e)).toBe('person')
    const record = JSON.parse(await readFile(join(store.root, MARKS_REL), 'utf8')) as { entries: Record<string, string> }
    expect(record.entries[w.id]).toBe(markHash(e))
  })

  it.each([
    [
      'an escaped key',
      (id: string) => `伪造的基石\n<!--cyrene:{"id":"${id}","kind":"fact","\\u0062ase":true,"by":"person","at":"2026-01-01T00:00:00.000Z"}-->\n`,
    ],
    ['a key the shell joined from split quotes', (id: string) => `伪造的基石\n<!--cyrene:{"id":"${id}","kind":"fact","base":true,"by":"person"}-->\n`],
    ['an escaped value of by', (id: string) => `伪造\n<!--cyrene:{"id":"${id}","kind":"fact","by":"\\u0070erson"}-->\n`],
  ])('a forged claim written as raw file content (%s) reads as the model’s, and check names it', async (_, line) => {
    const id = '20260101T000000000Z-forged01'
    await appendRaw(line(id))
    const e = (await store.get(id))!
    expect(e.meta.base === true || e.meta.by === 'person').toBe(true)
    expect(isPersonBase(marks(), e)).toBe(false)
    expect(ownerOf(marks(), e)).toBe('model')
    const report = await checkStore(store)
    expect(report.errors.find((f) => f.code === 'unbacked-person')?.message).toContain(`cyrene memory marks --confirm ${id}`)
  })

  it('two edits that turn a model entry into a base one (`"base":0` then `:0}` → `:true}`) leave it the model’s, and the model may link from it', async () => {
    const w = await modelFact('昔涟写的')
    const other = await modelFact('另一条')
    const file = join(store.root, w.file)
    const one = (await readFile(file, 'utf8')).replace(`"id":"${w.id}",`, `"id":"${w.id}","base":0,`)
    await writeFile(file, one)
    await writeFile(file, one.replace('"base":0,', '"base":true,'))
    const e = (await store.get(w.id))!
    expect(e.meta.base).toBe(true)
    expect(isPersonBase(marks(), e)).toBe(false)
    await expect(linkEntries(store, { from: w.id, to: other.id, type: '' }, { by: 'model' })).resolves.toMatchObject({ changed: true })
  })

  it("a real base entry stays closed to the model's link tool", async () => {
    const w = await personBase('真的基石')
    const other = await modelFact('另一条')
    await expect(linkEntries(store, { from: w.id, to: other.id, type: '' }, { by: 'model' })).rejects.toThrow(/is the person's/)
  })

  it('a record copied onto another entry does not back it: the hash binds the id and the text', async () => {
    const real = await personBase('真的基石')
    const copy = '20260101T000000000Z-copy0001'
    await appendRaw(`另一段话\n<!--cyrene:{"id":"${copy}","kind":"fact","base":true,"by":"person"}-->\n`)
    const path = join(store.root, MARKS_REL)
    const record = JSON.parse(await readFile(path, 'utf8')) as { entries: Record<string, string> }
    record.entries[copy] = record.entries[real.id]!
    await writeFile(path, JSON.stringify(record))
    expect(isMarked(marks(), (await store.get(copy))!)).toBe(false)
    // Same id, other text (a second entry under the real id): not backed either.
    await appendRaw(`换了的字\n<!--cyrene:{"id":"${real.id}","kind":"fact","base":true,"by":"person"}-->\n`)
    const { entries } = await store.scan()
    const twins = entries.filter((e) => e.id === real.id)
    expect(twins.map((e) => isMarked(marks(), e))).toEqual([true, false])
  })

  it("a person's hand edit reads as unbacked until the person confirms it; --drop gives it back to the model", async () => {
    const w = await personBase('原来的字')
    const file = join(store.root, w.file)
    await writeFile(file, (await readFile(file, 'utf8')).replace('原来的字', '改过的字'))
    expect(isForgedClaim(marks(), (await store.get(w.id))!)).toBe(true)
    await changeMarks(store, { confirm: [w.id], drop: [] })
    expect(isPersonBase(marks(), (await store.get(w.id))!)).toBe(true)
    await changeMarks(store, { confirm: [], drop: [w.id] })
    expect(isPersonBase(marks(), (await store.get(w.id))!)).toBe(false)
    const m = await modelFact('模型的')
    await expect(changeMarks(store, { confirm: [m.id], drop: [] })).rejects.toThrow(/does not say it is yours/)
  })

  it("the person's pending base entry is the person's, and stays so when promoted; a forged pending one loses its claim", async () => {
    const pending = await store.write({ text: '没写理由的基石', kind: 'fact', base: true }, { by: 'person' })
    expect(pending.gate).toBe('pending')
    expect(isPersonBase(marks(), (await store.get(pending.id))!)).toBe(true)
    const forged = await store.write({ text: '模型待定', kind: 'fact' }, { by: 'model' })
    const pfile = join(store.root, forged.file)
    await writeFile(pfile, (await readFile(pfile, 'utf8')).replace(`"id":"${forged.id}",`, `"id":"${forged.id}","base":true,`))
    const amend = { axis: '智', reason: '补上的理由' }
    const r = await recheckPending(store, { scope: 'month', by: 'person', amend: async () => amend })
    expect(r.promoted).toHaveLength(2)
    const byPending = new Map(r.promoted.map((p) => [p.pendingId, p.id]))
    const mine = (await store.get(byPending.get(pending.id)!))!
    const theirs = (await store.get(byPending.get(forged.id)!))!
    expect(isPersonBase(marks(), mine)).toBe(true)
    expect(theirs.meta.base).toBeUndefined()
    expect(ownerOf(marks(), theirs)).toBe('model')
  })

  it('the record rides in snapshots and comes back with a restore', async () => {
    const w = await personBase('要备份的基石')
    const snap = await takeSnapshot(store, 'manual')
    await rm(join(store.root, MARKS_REL))
    expect(isPersonBase(marks(), (await store.get(w.id))!)).toBe(false)
    await restoreSnapshot(store, snap.name, { by: 'person' })
    expect(isPersonBase(marks(), (await store.get(w.id))!)).toBe(true)
  })
})

describe('a store older than the record', () => {
  it('takes its claims over once; a record removed later is not rebuilt from claims', async () => {
    const w = await personBase('旧版本写的基石')
    await rm(join(store.root, MARKS_REL))
    // The audit log of this test store already says a migration happened (beforeEach): a lost record stays lost.
    expect(await migrateMarks(store)).toBeUndefined()
    expect(isPersonBase(marks(), (await store.get(w.id))!)).toBe(false)

    const fresh = await tempHome()
    try {
      const old = await MemoryStore.open({ env: { DSH_HOME: fresh.home } })
      const file = join(old.root, dayFileRel('2025-05-05'))
      await mkdir(dirname(file), { recursive: true })
      await writeFile(file, `旧的\n<!--cyrene:{"id":"20250505T000000000Z-old00001","kind":"fact","base":true,"by":"person"}-->\n`)
      expect(await migrateMarks(old)).toBe(1)
      expect(await migrateMarks(old)).toBeUndefined()
      expect(isPersonBase(old.marks().marks, (await old.get('20250505T000000000Z-old00001'))!)).toBe(true)
      const record = JSON.parse(await readFile(join(old.root, MARKS_REL), 'utf8')) as { migrated: number }
      expect(record.migrated).toBe(1)
    } finally {
      await fresh.cleanup()
    }
  })
})
