import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { MemoryStore } from './store.ts'
import { fitAnchor, parseAnchor, readAnchor, renderAnchor, writeAnchor } from './anchors.ts'
import { tempHome } from './testing/tmp.ts'

describe('anchor documents (pure)', () => {
  it('parses core, reference and sections and renders them back', () => {
    const text = '我是昔涟。\n\n> 更早的卷：见 锚/历史/self/\n\n## 卷0·2026-01-01\n第一段\n\n## 卷1·2026-02-01\n第二段\n'
    const doc = parseAnchor(text)
    expect(doc.core).toBe('我是昔涟。')
    expect(doc.sections.map((s) => [s.vol, s.date, s.text])).toEqual([[0, '2026-01-01', '第一段'], [1, '2026-02-01', '第二段']])
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
  beforeEach(async () => { t = await tempHome() })
  afterEach(async () => { await t.cleanup() })

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

  it('archives old sections append-only to 锚/历史/<key>/YYYY-MM.md when over the limit', async () => {
    await fs.mkdir(join(t.root, '元'), { recursive: true })
    await fs.writeFile(join(t.root, '元', 'settings.json'), JSON.stringify({ anchor: { goal: 60 } }))
    const s = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => now })
    for (let d = 1; d <= 4; d++) {
      now = new Date(`2026-07-0${d}T10:00:00Z`)
      await writeAnchor(s, 'goal', { text: `目标${d}`.padEnd(20, '。') }, { by: 'person' })
    }
    const a = await readAnchor(s, 'goal')
    expect(a.chars).toBeLessThanOrEqual(60)
    expect(a.earlierRef).toBeDefined()
    const hist = await fs.readFile(join(t.root, '锚/历史/goal/2026-07.md'), 'utf8')
    expect(hist).toContain('目标1')
    expect(hist.indexOf('目标1')).toBeLessThan(hist.indexOf('目标2'))
    const all = hist + (await fs.readFile(join(t.root, a.file), 'utf8'))
    for (let d = 1; d <= 4; d++) expect(all).toContain(`目标${d}`)
  })
})
