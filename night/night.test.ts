import { afterEach, beforeEach, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { spawnHolder } from '../durable/testing/spawn.ts'
import { kindOfName, listSnapshots, listPending, restoreTombstone } from '../memory/upkeep.ts'
import { MemoryStore } from '../memory/index.ts'
import { NO_OUTPUT } from '../memory/paths.ts'
import { parseNightTime } from './clock.ts'
import { readNightRecord } from './record.ts'
import { noteSession, updateRegistry } from './registry.ts'
import { tempHome } from '../memory/testing/tmp.ts'
import { MockLlm, type Script } from '../tests/harness/mock-llm.ts'
import { DreamConfig } from './config.ts'
import { storeLines } from '../host/doctor.ts'
import { dreamNight, nightWake, type NightDeps } from './night.ts'
import { NightTimer } from './scheduler.ts'
import { drivenClock } from './testing/driven-clock.ts'

let t: Awaited<ReturnType<typeof tempHome>>
let now: Date
const config = DreamConfig({} as DreamConfig)
beforeEach(async () => {
  t = await tempHome()
  now = new Date('2026-05-02T12:00:00')
})
afterEach(async () => {
  await t.cleanup()
})

async function open(): Promise<MemoryStore> {
  return await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
}

async function register(store: MemoryStore, id: string, line: string): Promise<void> {
  await updateRegistry(store, (r) => noteSession(r, { id, preset: 'chat', at: now, provider: 'mock', model: 'm', userText: line }))
}

function deps(store: MemoryStore, llm: MockLlm): NightDeps {
  return { store, config, stream: (o) => llm.stream(o), system: () => '你是昔涟。', liveUserLines: () => [], wuyuVersion: async () => undefined }
}

const journal = (text: string, extra: Record<string, unknown> = {}) => ({ tool: 'memory_dream_journal', args: { text, ...extra } })
const journalFile = (night: string) => join(t.root, '梦境', night.slice(0, 4), night.slice(5, 7), `${night}.md`)

it('dreams once when the night starts (23:30 local), with the last line of each session in the request; two journal calls append', async () => {
  const store = await open()
  await register(store, 's1', '今天终于把书架装好了')
  await store.write({ text: '装好了书架', axis: '劳', reason: '动手', kind: 'event', at: '2026-05-02T10:00:00' }, { by: 'person' })
  const script: Script = (_r, i) => (i === 0 ? journal('第一段梦。') : i === 1 ? journal('第二段梦。') : { text: '晚安' })
  const llm = new MockLlm(script)
  now = new Date('2026-05-02T23:29:00')
  expect((await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })).kind).toBe('not-due')
  expect(llm.requests).toHaveLength(0)
  now = new Date('2026-05-02T23:30:00')
  const o = await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })
  expect(o).toMatchObject({ kind: 'dreamt', night: '2026-05-02', wrote: true })
  const brief = JSON.stringify(llm.requests[0]!.messages)
  expect(brief).toContain('今天终于把书架装好了')
  expect(brief).toContain('装好了书架')
  expect(llm.requests[0]!.tools.map((x) => x.name)).toContain('memory_dream_journal')
  const text = await fs.readFile(journalFile('2026-05-02'), 'utf8')
  expect(text).toMatch(/^# 梦志 2026-05-02\n/)
  expect(text.indexOf('第一段梦。')).toBeLessThan(text.indexOf('第二段梦。'))
  // the same night again: nothing
  now = new Date('2026-05-02T23:50:00')
  expect((await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })).kind).toBe('not-due')
  expect((await readNightRecord(store)).record.lastNight).toBe('2026-05-02')
})

it('a model that writes nothing leaves 「本次未产出」, never a copy of the day', async () => {
  const store = await open()
  await register(store, 's1', '随便聊聊')
  await store.write({ text: '一条当天的记忆', axis: '智', reason: 'r', kind: 'fact', at: '2026-05-02T10:00:00' }, { by: 'person' })
  const llm = new MockLlm(() => ({ text: '（沉默）' }))
  now = new Date('2026-05-02T23:31:00')
  expect(await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })).toMatchObject({ kind: 'dreamt', wrote: false })
  const text = await fs.readFile(journalFile('2026-05-02'), 'utf8')
  expect(text).toContain(NO_OUTPUT)
  expect(text).not.toContain('一条当天的记忆')
})

it('a clock set back after the dream does not dream the night again', async () => {
  const store = await open()
  await register(store, 's1', 'hi')
  const llm = new MockLlm(() => ({ text: '…' }))
  now = new Date('2026-05-02T23:40:00')
  expect((await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })).kind).toBe('dreamt')
  now = new Date('2026-05-02T22:00:00')
  expect((await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })).kind).toBe('not-due')
  now = new Date('2026-05-02T23:35:00')
  expect((await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })).kind).toBe('not-due')
  expect(llm.requests).toHaveLength(1)
})

it('a restart between schedule and fire: the next start dreams the missed night once (catch-up), at most 7 days', async () => {
  const first = await open()
  await register(first, 's1', 'hi')
  const llm = new MockLlm(() => ({ text: '…' }))
  now = new Date('2026-05-01T23:45:00')
  await dreamNight(deps(first, llm), { trigger: 'schedule', force: false })
  // DSH stopped at 22:00 on 05-02, before the night; it starts again on 05-12 in the morning
  now = new Date('2026-05-12T08:00:00')
  const second = await open()
  const o = await dreamNight(deps(second, llm), { trigger: 'catch-up', force: false })
  expect(o).toMatchObject({
    kind: 'dreamt',
    night: '2026-05-11',
    covered: ['2026-05-05', '2026-05-06', '2026-05-07', '2026-05-08', '2026-05-09', '2026-05-10', '2026-05-11'],
  })
  expect(JSON.stringify(llm.requests[1]!.messages)).toContain('补梦')
  expect((await dreamNight(deps(await open(), llm), { trigger: 'catch-up', force: false })).kind).toBe('not-due')
  expect(await fs.readdir(join(t.root, '梦境', '2026', '05'))).toEqual(['2026-05-01.md', '2026-05-11.md'])
})

it('two real processes on one DSH_HOME told to dream at the same moment: exactly one dream, one journal section', async () => {
  const store = await open()
  await register(store, 's1', 'hi')
  const worker = fileURLToPath(new URL('./testing/dreamer.ts', import.meta.url))
  const workers = ['a', 'b'].map((label) => spawnHolder([worker, t.home, '2026-05-02T23:30:30', label]))
  // Both waiters before either line can arrive (a line nobody waits for is dropped).
  const ready = workers.map((w) => w.next('READY', 'EXITED'))
  expect(await Promise.all(ready)).toEqual(['READY', 'READY'])
  const outcomes = workers.map((w) => w.next('OUTCOME', 'EXITED'))
  for (const w of workers) w.send('GO')
  const kinds = (await Promise.all(outcomes)).map((l) => l.replace('OUTCOME ', '')).sort()
  for (const w of workers) await w.done
  // the loser either met the lease (busy) or came after the winner's record (not-due)
  expect(kinds.filter((k) => k === 'dreamt')).toHaveLength(1)
  expect(kinds.filter((k) => k !== 'dreamt').every((k) => k === 'busy' || k === 'not-due')).toBe(true)
  const text = await fs.readFile(journalFile('2026-05-02'), 'utf8')
  expect(text.match(/梦（[ab]）/g)).toHaveLength(1)
})

it('two stores in one process on one DSH_HOME at the same moment: exactly one dream, one journal section', async () => {
  const a = await open()
  const b = await open()
  await register(a, 's1', 'hi')
  const slow = new MockLlm((_r, i) => (i === 0 ? journal('唯一的梦') : { text: '…' }))
  now = new Date('2026-05-02T23:30:00')
  const outcomes = await Promise.all([dreamNight(deps(a, slow), { trigger: 'a', force: false }), dreamNight(deps(b, slow), { trigger: 'b', force: false })])
  expect(outcomes.map((o) => o.kind).sort()).toEqual(['busy', 'dreamt'].sort())
  const again = await dreamNight(deps(b, slow), { trigger: 'b', force: false })
  expect(again.kind).toBe('not-due')
  const text = await fs.readFile(journalFile('2026-05-02'), 'utf8')
  expect(text.match(/唯一的梦/g)).toHaveLength(1)
})

it('/dream runs tonight now and a second /dream appends to the same journal', async () => {
  const store = await open()
  await register(store, 's1', 'hi')
  let n = 0
  const llm = new MockLlm((r) => (r.messages.length === 1 ? journal(`梦 ${++n}`) : { text: '…' }))
  now = new Date('2026-05-02T20:00:00')
  await dreamNight(deps(store, llm), { trigger: '/dream', force: true })
  await dreamNight(deps(store, llm), { trigger: '/dream', force: true })
  const text = await fs.readFile(journalFile('2026-05-02'), 'utf8')
  expect(text).toContain('梦 1')
  expect(text).toContain('梦 2')
  expect(text.match(/^# 梦志/gm)).toHaveLength(1)
  // the 23:30 task of that night then has nothing to do
  now = new Date('2026-05-02T23:31:00')
  expect((await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })).kind).toBe('not-due')
})

it('a new-volume suggestion goes into the journal and the record, with the command a person would run', async () => {
  const store = await open()
  await register(store, 's1', 'hi')
  const llm = new MockLlm((_r, i) => (i === 0 ? journal('梦。', { new_volume_suggestion: { reason: '五育改写', changed: '德的定义变了' } }) : { text: '…' }))
  now = new Date('2026-05-02T23:31:00')
  await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })
  const text = await fs.readFile(journalFile('2026-05-02'), 'utf8')
  expect(text).toContain('/cyrene new-volume confirm 五育改写')
  expect((await readNightRecord(store)).record.suggestion).toEqual({ night: '2026-05-02', reason: '五育改写', changed: '德的定义变了' })
  const lines = await storeLines({ env: { DSH_HOME: t.home }, cwd: t.home }, 'en')
  expect(lines).toContainEqual({
    area: 'memory',
    check: 'new volume suggested',
    status: 'warn',
    detail: expect.stringContaining('Only you decide; to open one run: /cyrene new-volume confirm 五育改写'),
  })
  expect(lines).toContainEqual(expect.objectContaining({ check: 'dream', detail: expect.stringContaining('last dreamt of 2026-05-02') }))
})

it('the month check promotes a pending entry once the model supplies a quote that occurs verbatim; the pending file stays byte for byte', async () => {
  const store = await open()
  now = new Date('2026-04-20T12:00:00')
  await register(store, 's1', '我决定以后每周六都去爬山，这是给自己的约定')
  const p = await store.write(
    { text: '每周六去爬山', kind: 'decision', axis: '体', reason: '身体', consequence: { self: '更健康' }, at: '2026-04-20T10:00:00' },
    { by: 'model' },
  )
  expect(p.gate).toBe('pending')
  const pendingPath = join(t.root, p.file)
  const before = await fs.readFile(pendingPath)
  now = new Date('2026-05-01T23:31:00')
  const llm = new MockLlm((r, i) => {
    if (i === 0) return { tool: 'memory_pending_complete', args: { id: p.id, src_quote: '并不存在的一句话' } }
    if (i === 1) return { tool: 'memory_pending_complete', args: { id: p.id, src_quote: '每周六都去爬山' } }
    if (i === 2) return journal('梦。')
    return { text: JSON.stringify(r.messages.at(-1)).includes('error') ? 'x' : 'ok' }
  })
  const o = await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })
  expect(JSON.stringify(llm.requests[0]!.messages)).toContain(p.id)
  // the invented quote was refused as a tool error
  expect(JSON.stringify(llm.requests[1]!.messages.at(-1))).toContain('word for word')
  expect(o.kind === 'dreamt' && o.checks.month?.promoted).toHaveLength(1)
  const promoted = (await store.scan()).entries.find((e) => e.meta.gate === 'promoted')
  expect(promoted).toMatchObject({ text: '每周六去爬山', area: 'day', meta: { src: 'margin', src_quote: '每周六都去爬山', source_ref: `${p.file}#${p.id}` } })
  expect(await fs.readFile(pendingPath)).toEqual(before)
})

it('a pending entry is no source: a quote of its own words, its own id or another pending id is refused, and nothing is promoted', async () => {
  const store = await open()
  now = new Date('2026-04-20T12:00:00')
  await register(store, 's1', '今天天气不错')
  const p = await store.write(
    { text: '对方决定把积蓄全部投进朋友的新公司。', kind: 'decision', axis: '智', reason: '理财', consequence: { self: '更有钱' }, at: '2026-04-20T10:00:00' },
    { by: 'model' },
  )
  const other = await store.write({ text: '对方决定辞职创业。', kind: 'decision', axis: '智', reason: '事业', at: '2026-04-20T11:00:00' }, { by: 'model' })
  expect([p.gate, other.gate]).toEqual(['pending', 'pending'])
  now = new Date('2026-05-01T23:31:00')
  const llm = new MockLlm((r, i) => {
    if (i === 0) return { tool: 'memory_pending_complete', args: { id: p.id, src_quote: '决定把积蓄全部投进朋友的新公司' } }
    if (i === 1) return { tool: 'memory_pending_complete', args: { id: p.id, src_ids: [p.id] } }
    if (i === 2) return { tool: 'memory_pending_complete', args: { id: p.id, src_ids: [other.id] } }
    if (i === 3) return journal('梦。')
    return { text: JSON.stringify(r.messages.at(-1)).includes('error') ? 'x' : 'ok' }
  })
  const o = await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })
  expect(JSON.stringify(llm.requests[1]!.messages.at(-1))).toContain('word for word')
  expect(JSON.stringify(llm.requests[2]!.messages.at(-1))).toContain('a pending entry is no source')
  expect(JSON.stringify(llm.requests[3]!.messages.at(-1))).toContain('a pending entry is no source')
  expect(o.kind === 'dreamt' && (o.checks.month?.promoted ?? [])).toHaveLength(0)
  expect((await store.scan()).entries.filter((e) => e.meta.gate === 'promoted')).toEqual([])
})

it('three months of failed checks in a row tombstone a pending entry; a person brings it back', async () => {
  const store = await open()
  await register(store, 's1', 'hi')
  now = new Date('2026-04-10T12:00:00')
  const p = await store.write({ text: '模糊的一句', at: '2026-04-10T10:00:00' }, { by: 'model' })
  const llm = new MockLlm(() => ({ text: '…' }))
  for (const [night, tombstoned] of [
    ['2026-05-01', 0],
    ['2026-05-02', 0],
    ['2026-06-01', 0],
    ['2026-07-01', 1],
  ] as const) {
    now = new Date(`${night}T23:31:00`)
    const o = await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })
    expect(o.kind).toBe('dreamt')
    const [rec] = await listPending(store)
    expect(rec!.record.tombstoned_at === undefined ? 0 : 1).toBe(tombstoned)
  }
  expect((await listPending(store))[0]!.record.fails).toBe(3)
  await restoreTombstone(store, p.id, { by: 'person' })
  expect((await listPending(store))[0]!.record).toEqual({ fails: 0 })
})

it('while DSH runs, a timer wake takes one daily snapshot per local day and dreams each night once (driven clock, three days)', async () => {
  const clock = drivenClock(new Date('2026-05-02T09:00:00'))
  const store = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: clock.now })
  await register(store, 's1', 'hi')
  const llm = new MockLlm((r) => (r.messages.length === 1 ? journal('梦。') : { text: '…' }))
  const timer = new NightTimer({
    now: clock.now,
    at: parseNightTime(config.at),
    maxWakeMs: config.maxWakeMinutes * 60_000,
    onWake: async () => {
      await nightWake(deps(store, llm), 'schedule', true)
    },
    setTimer: clock.setTimer,
  })
  timer.start()
  await clock.advance(3 * 86_400_000)
  timer.stop()
  expect((await listSnapshots(store)).filter((n) => kindOfName(n) === 'daily')).toEqual(['2026-05-02', '2026-05-03', '2026-05-04', '2026-05-05'])
  expect(await fs.readdir(join(t.root, '梦境', '2026', '05'))).toEqual(['2026-05-02.md', '2026-05-03.md', '2026-05-04.md'])
  expect(llm.requests.filter((r) => r.messages.length === 1)).toHaveLength(3)
})

it('a new five-virtue version makes the next dream re-check every pending entry, this month’s too', async () => {
  const store = await open()
  await register(store, 's1', 'hi')
  const p = await store.write({ text: '本月的一条待定', at: '2026-05-02T10:00:00' }, { by: 'model' })
  let wuyu = 'v1'
  const llm = new MockLlm(() => ({ text: '…' }))
  const d = () => ({ ...deps(store, llm), wuyuVersion: async () => wuyu })
  now = new Date('2026-05-02T23:31:00')
  await dreamNight(d(), { trigger: 'schedule', force: false })
  // this month's pending entry is not part of the month check
  expect(JSON.stringify(llm.requests[0]!.messages)).not.toContain(p.id)
  wuyu = 'v2'
  now = new Date('2026-05-03T23:31:00')
  await dreamNight(d(), { trigger: 'schedule', force: false })
  expect(JSON.stringify(llm.requests.at(-1)!.messages)).toContain(p.id)
  expect((await readNightRecord(store)).record.wuyuChecked).toBe('v2')
})

it('the first dream of a month writes the month’s echo by the model and 档/ statistics by code', async () => {
  const store = await open()
  await register(store, 's1', 'hi')
  await store.write({ text: '四月的事', axis: '美', reason: 'r', kind: 'event', at: '2026-04-30T10:00:00' }, { by: 'person' })
  await store.write({ text: '五月一日的事', axis: '劳', reason: 'r', kind: 'event', at: '2026-05-01T10:00:00' }, { by: 'person' })
  const llm = new MockLlm((r, i) => {
    if (i === 0) return { tool: 'memory_dream_echo', args: { kind: 'month', text: '四月像一场雨。' } }
    if (i === 1) return journal('梦。')
    return { text: r.tools.map((x) => x.name).join(',') }
  })
  now = new Date('2026-05-01T23:31:00')
  await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })
  expect(llm.requests[0]!.tools.map((x) => x.name)).toEqual(expect.arrayContaining(['memory_dream_journal', 'memory_dream_echo']))
  expect(await fs.readFile(join(t.root, '岁月涟漪', '月响', '2026', '2026-04.md'), 'utf8')).toContain('四月像一场雨。')
  const month = JSON.parse(await fs.readFile(join(t.root, '档', '2026', '2026-05.json'), 'utf8'))
  expect(month).toMatchObject({ period: '2026-05', total: 1, byDay: { '2026-05-01': 1 }, byAxis: { 劳: 1 }, byKind: { event: 1 } })
  // the next dream of the month offers no echo
  now = new Date('2026-05-02T23:31:00')
  await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })
  expect(llm.requests.at(-1)!.tools.map((x) => x.name)).not.toContain('memory_dream_echo')
})

it('the first dream of a year tombstones a pending entry older than 12 months that still fails (已过时), and writes the year’s ring', async () => {
  const store = await open()
  await register(store, 's1', 'hi')
  now = new Date('2025-01-05T12:00:00')
  const old = await store.write({ text: '很久以前的一句', at: '2025-01-05T10:00:00' }, { by: 'model' })
  const recent = await store.write({ text: '去年年底的一句', at: '2025-12-20T10:00:00' }, { by: 'model' })
  const llm = new MockLlm((r, i) =>
    i === 0 && r.tools.some((x) => x.name === 'memory_dream_echo')
      ? { tool: 'memory_dream_echo', args: { kind: 'year', text: '这一年像一条河。' } }
      : { text: '…' },
  )
  now = new Date('2026-01-10T23:31:00')
  const o = await dreamNight(deps(store, llm), { trigger: 'schedule', force: false })
  expect(o.kind === 'dreamt' && o.checks.year?.tombstoned).toEqual([{ id: old.id, why: 'out of date at the year check' }])
  const records = Object.fromEntries((await listPending(store)).map((p) => [p.id, p.record]))
  expect(records[old.id]!.tombstoned_at).toBeDefined()
  expect(records[recent.id]!.tombstoned_at).toBeUndefined()
  expect(await fs.readFile(join(t.root, '岁月涟漪', '年轮', '2025.md'), 'utf8')).toContain('这一年像一条河。')
})
