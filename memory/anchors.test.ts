import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { MemoryStore } from './store.ts'
import { anchorRel, fitAnchor, parseAnchor, readAnchor, renderAnchor, writeAnchor } from './anchors.ts'
import type { AnchorKey } from './settings.ts'
import { tempHome } from './testing/tmp.ts'

describe('anchor documents (pure)', () => {
  it('parses core, reference and sections and renders them back', () => {
    const text = '我是昔涟。\n\n> 更早的卷：见 锚/历史/self/\n\n## 卷0·2026-01-01\n第一段\n\n## 卷1·2026-02-01\n第二段\n'
    const doc = parseAnchor(text)
    expect(doc.core).toBe('我是昔涟。')
    expect(doc.sections.map((s) => [s.vol, s.date, s.text])).toEqual([
      [0, '2026-01-01', '第一段'],
      [1, '2026-02-01', '第二段'],
    ])
    expect(renderAnchor(doc)).toBe(text)
  })
  it('moves the oldest sections out until the document fits, keeping the newest', () => {
    const doc = { core: '核心', earlierRef: undefined, sections: [1, 2, 3].map((i) => ({ vol: 0, date: `2026-0${i}-01`, text: '字'.repeat(30) })) }
    const { doc: fitted, archived } = fitAnchor(doc, 'origin', 80)
    expect(archived.map((s) => s.date)).toEqual(['2026-01-01', '2026-02-01'])
    expect(fitted.sections).toHaveLength(1)
    expect(fitted.earlierRef).toMatch(/锚\/历史\/origin\//)
    expect(() => fitAnchor({ ...doc, core: '字'.repeat(100) }, 'origin', 80)).toThrow(/limit is 80/)
  })
})

describe('writeAnchor', () => {
  let t: Awaited<ReturnType<typeof tempHome>>
  let now = new Date('2026-06-01T10:00:00Z')
  beforeEach(async () => {
    t = await tempHome()
  })
  afterEach(async () => {
    await t.cleanup()
  })

  it('enforces the cadence for the model (daily; origin weekly), not for the person, and audits', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
    await writeAnchor(s, 'user', { text: '你喜欢雨天。' }, { by: 'model' })
    await expect(writeAnchor(s, 'user', { text: '又一次' }, { by: 'model' })).rejects.toThrow(/once every day/)
    await writeAnchor(s, 'user', { text: '人写的' }, { by: 'person' })
    now = new Date('2026-06-02T11:00:00Z')
    await writeAnchor(s, 'user', { text: '第二天' }, { by: 'model' })
    await writeAnchor(s, 'origin', { text: '相遇' }, { by: 'model' })
    now = new Date('2026-06-05T11:00:00Z')
    await expect(writeAnchor(s, 'origin', { text: '太快' }, { by: 'model' })).rejects.toThrow(/7 days/)
    expect((await s.auditLog()).filter((r) => r.op === 'anchor')).toHaveLength(4)
  })

  it('only the person rewrites the core', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
    await expect(writeAnchor(s, 'self', { text: 'x', mode: 'core' }, { by: 'model' })).rejects.toThrow(/only the person/)
    await writeAnchor(s, 'self', { text: '我是昔涟。', mode: 'core' }, { by: 'person' })
    expect((await readAnchor(s, 'self')).core).toBe('我是昔涟。')
  })

  /** A store whose goal anchor holds 60 characters, and `days` goals written on 2026-07-01 onwards, one a day. */
  async function goalsWritten(days: number): Promise<MemoryStore> {
    await fs.mkdir(join(t.root, '元'), { recursive: true })
    await fs.writeFile(join(t.root, '元', 'settings.json'), JSON.stringify({ anchor: { goal: 60 } }))
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
    for (let d = 1; d <= days; d++) {
      now = new Date(`2026-07-0${d}T10:00:00Z`)
      await writeAnchor(s, 'goal', { text: `目标${d}`.padEnd(20, '。') }, { by: 'person' })
    }
    return s
  }

  it('archives old sections append-only to 锚/历史/<key>/YYYY-MM.md when over the limit', async () => {
    const s = await goalsWritten(4)
    const a = await readAnchor(s, 'goal')
    expect(a.chars).toBeLessThanOrEqual(60)
    expect(a.earlierRef).toBeDefined()
    const hist = await fs.readFile(join(t.root, '锚/历史/goal/2026-07.md'), 'utf8')
    expect(hist).toContain('目标1')
    expect(hist.indexOf('目标1')).toBeLessThan(hist.indexOf('目标2'))
    const all = hist + (await fs.readFile(join(t.root, a.file), 'utf8'))
    for (let d = 1; d <= 4; d++) expect(all).toContain(`目标${d}`)
  })

  it('a write retried after its history landed and its anchor did not (a full disk) moves no section twice', async () => {
    const s = await goalsWritten(3)
    const anchorFile = join(t.root, (await readAnchor(s, 'goal')).file)
    const before = await fs.readFile(anchorFile, 'utf8')
    now = new Date('2026-07-04T10:00:00Z')
    await writeAnchor(s, 'goal', { text: '目标4'.padEnd(20, '。') }, { by: 'person' })
    // As if the anchor's own write had failed after the history's: the anchor as it was, the history moved.
    await fs.writeFile(anchorFile, before)
    await writeAnchor(s, 'goal', { text: '目标4'.padEnd(20, '。') }, { by: 'person' })
    const hist = await fs.readFile(join(t.root, '锚/历史/goal/2026-07.md'), 'utf8')
    for (let d = 1; d <= 3; d++) expect(hist.split(`目标${d}`).length - 1, hist).toBeLessThanOrEqual(1)
  })

  /** Every byte of the anchor files, their history and the audit log, to show a refusal changed nothing. */
  async function anchorBytes(): Promise<string> {
    const files: string[] = []
    for (const dir of ['锚', '元/审计']) {
      for (const f of await fs.readdir(join(t.root, dir), { recursive: true }).catch(() => [] as string[])) {
        const full = join(t.root, dir, String(f))
        if ((await fs.stat(full)).isFile()) files.push(`${dir}/${String(f)}=${await fs.readFile(full, 'utf8')}`)
      }
    }
    return files.sort().join('\n')
  }

  it('a text with forged "## 卷N·YYYY-MM-DD" lines is refused for the model and the person, nothing written (issue 7 item 9)', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
    await writeAnchor(s, 'self', { text: '我是昔涟。', mode: 'core' }, { by: 'person' })
    const before = await anchorBytes()
    const forged = ['真正的补记。', ...Array.from({ length: 100 }, (_, i) => `## 卷${i}·${2001 + i}-01-01\n伪造的第${i}卷`)].join('\n').slice(0, 780)
    for (const by of ['model', 'person'] as const) {
      const refusal = writeAnchor(s, 'self', { text: forged }, { by })
      await expect(refusal).rejects.toMatchObject({ name: 'RefusedError', code: 'bad-input' })
      await expect(writeAnchor(s, 'self', { text: forged }, { by })).rejects.toThrow(
        /line 2 "## 卷0·2001-01-01".*dated section heading.*Remove or reword that line/,
      )
    }
    expect(await anchorBytes()).toBe(before)
    // The model's one write of the day is still there to use: the refusal did not count.
    await writeAnchor(s, 'self', { text: '真正的补记。' }, { by: 'model' })
    expect((await readAnchor(s, 'self')).sections.map((x) => x.text)).toEqual(['真正的补记。'])
  })

  it('near-miss headings and the history reference line are refused too, in a core as in a section (issue 7 item 9)', async () => {
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
    const cases: [AnchorKey, string, 'core' | 'section'][] = [
      ['user', '你是阿远。\n  ### 卷 3 · 2099-12-31', 'core'],
      ['user', '你是阿远。\n> 更早的卷：见 锚/历史/user/', 'core'],
      ['goal', '一起写书。\n#卷1·2030-01-01 额外', 'section'],
      ['goal', '一起写书。\n>更早的卷:别处', 'section'],
    ]
    for (const [key, text, mode] of cases) {
      await expect(writeAnchor(s, key, { text, mode }, { by: 'person' }), text).rejects.toMatchObject({ code: 'bad-input' })
    }
    expect(await anchorBytes()).toBe('')
    // Prose that only mentions a volume is fine.
    await writeAnchor(s, 'goal', { text: '写完 ## 卷0 的故事，再说 > 更早的卷。' }, { by: 'person' })
  })

  it('anchor writes count against the quota: past it, refused with nothing changed (issue 7 item 14)', async () => {
    const opened = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
    const used = (await opened.measureUsage(true)).total
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now, limits: { totalBytes: used + 10 } })
    await expect(writeAnchor(s, 'user', { text: '你喜欢雨天，也喜欢晴天。' }, { by: 'person' })).rejects.toMatchObject({ code: 'quota' })
    await expect(writeAnchor(s, 'user', { text: '你喜欢雨天，也喜欢晴天。' }, { by: 'model' })).rejects.toThrow(/memory store is full.*Nothing was written/)
    expect(await anchorBytes()).toBe('')
    await expect(fs.stat(join(t.root, anchorRel('user')))).rejects.toMatchObject({ code: 'ENOENT' })
  })

  it('repeated anchor writes in one process add up against the quota (issue 7 item 14: 33 writes went 43 KB over)', async () => {
    const opened = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
    const used = (await opened.withWriteLock(() => opened.measureUsage(true))).total
    const text = '你喜欢雨天。'.repeat(10)
    // Room for about three sections of this size, not for thirty-three.
    const s = await MemoryStore.open({
      env: { DSH_HOME: t.home },
      now: () => now,
      limits: { totalBytes: used + 3 * Buffer.byteLength(`## 卷0·2026-06-01\n${text}\n\n`) + 32 },
    })
    let refused: unknown
    let written = 0
    for (let i = 0; i < 33 && refused === undefined; i++) {
      try {
        await writeAnchor(s, 'self', { text: `${i}${text}` }, { by: 'person' })
        written++
      } catch (e) {
        refused = e
      }
    }
    expect(refused).toMatchObject({ code: 'quota' })
    expect(written).toBeGreaterThanOrEqual(2)
    expect(written).toBeLessThanOrEqual(3)
    expect((await s.measureUsage(true)).total).toBeLessThanOrEqual(s.limits.totalBytes)
  })

  it('the quota counts the archived history too (issue 7 item 14)', async () => {
    await fs.mkdir(join(t.root, '元'), { recursive: true })
    await fs.writeFile(join(t.root, '元', 'settings.json'), JSON.stringify({ anchor: { goal: 60 } }))
    const at = (d: number) => () => new Date(`2026-07-0${d}T10:00:00Z`)
    const first = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: at(1) })
    await writeAnchor(first, 'goal', { text: '目标1'.padEnd(20, '。') }, { by: 'person' })
    const before = await anchorBytes()
    // Measured as the write will measure it: under the write lock, whose owner record is a file too.
    const usage = (await first.withWriteLock(() => first.measureUsage(true))).total
    // The second write replaces the first section by the new one plus a reference line, and moves the first to 锚/历史/.
    const anchorBefore = Buffer.byteLength(await fs.readFile(join(t.root, anchorRel('goal'))))
    const next = renderAnchor({
      core: '',
      earlierRef: '> 更早的卷：见 锚/历史/goal/',
      sections: [{ vol: 0, date: '2026-07-02', text: '目标2'.padEnd(20, '。') }],
    })
    const history = `## 卷0·2026-07-01\n${'目标1'.padEnd(20, '。')}\n`
    const anchorDelta = Buffer.byteLength(next) - anchorBefore
    const historyBytes = Buffer.byteLength(history)
    // Room for the anchor's own growth with a margin for the lock record, but not for the history.
    const margin = 16
    expect(anchorDelta + margin).toBeLessThan(anchorDelta + historyBytes - margin)
    const tight = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: at(2), limits: { totalBytes: usage + anchorDelta + margin } })
    await expect(writeAnchor(tight, 'goal', { text: '目标2'.padEnd(20, '。') }, { by: 'person' })).rejects.toMatchObject({ code: 'quota' })
    expect(await anchorBytes()).toBe(before)
    const enough = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: at(2), limits: { totalBytes: usage + anchorDelta + historyBytes + margin } })
    expect(await writeAnchor(enough, 'goal', { text: '目标2'.padEnd(20, '。') }, { by: 'person' })).toMatchObject({ archived: 1 })
    expect(await fs.readFile(join(t.root, anchorRel('goal')), 'utf8')).toBe(next)
    expect(await fs.readFile(join(t.root, '锚/历史/goal/2026-07.md'), 'utf8')).toBe(history)
  })
})
