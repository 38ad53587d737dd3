import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { join } from 'node:path'
import { promises as fs } from 'node:fs'
import { MemoryStore, writeAnchor } from './index.ts'
import { NEWEST_OF_A_DAY, readRecent, recentFiles } from './recent.ts'
import { serializeEntry } from './entry.ts'
import { tempHome } from './testing/tmp.ts'

describe('recent memory for {{cyrene_memory}} (memory/recent.ts)', () => {
  let t: Awaited<ReturnType<typeof tempHome>>
  beforeEach(async () => {
    t = await tempHome()
  })
  afterEach(async () => {
    await t.cleanup()
  })

  it('names the four anchors and the day files of the last days, newest first', () => {
    const files = recentFiles('/r', 3, new Date(2026, 2, 1, 0, 30))
    expect(files.anchors.map((a) => [a.key, a.title])).toEqual([
      ['self', '我是谁'],
      ['user', '你是谁'],
      ['origin', '来处'],
      ['goal', '去处'],
    ])
    expect(files.days).toEqual([
      { date: '2026-03-01', path: join('/r', '岁月涟漪/日档/2026/03/2026-03-01.md') },
      { date: '2026-02-28', path: join('/r', '岁月涟漪/日档/2026/02/2026-02-28.md') },
      { date: '2026-02-27', path: join('/r', '岁月涟漪/日档/2026/02/2026-02-27.md') },
    ])
  })

  it('reads entries newest first and anchors core first; a missing file reads as empty', async () => {
    let clock = new Date(2026, 10, 28, 9)
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => clock })
    await writeAnchor(store, 'user', { text: '你是阿远。', mode: 'core' }, { by: 'person' })
    await store.write({ text: '前天的事', kind: 'fact', axis: '智', reason: '测试' }, { by: 'person' })
    clock = new Date(2026, 10, 30, 9)
    await store.write({ text: '今天早上', kind: 'fact', axis: '智', reason: '测试' }, { by: 'person' })
    clock = new Date(2026, 10, 30, 18)
    await store.write({ text: '今天晚上', kind: 'fact', axis: '智', reason: '测试' }, { by: 'person' })
    await store.close()

    const { anchors, recent } = readRecent(recentFiles(t.root, 3, new Date(2026, 10, 30, 20)))
    expect(recent.map(({ date, text }) => ({ date, text }))).toEqual([
      { date: '2026-11-30', text: '今天晚上' },
      { date: '2026-11-30', text: '今天早上' },
      { date: '2026-11-28', text: '前天的事' },
    ])
    expect(anchors.find((a) => a.key === 'user')?.parts[0]).toEqual({ text: '你是阿远。' })
    expect(anchors.find((a) => a.key === 'goal')?.parts).toEqual([{ text: '' }])
  })

  it('reads a day of more entries than the block could show from its newest on, the same entries the whole parse gives there', async () => {
    const files = recentFiles(t.root, 2, new Date(2026, 10, 30, 20))
    const entry = (n: number) => serializeEntry({ text: `第${n}条`, meta: { id: `e-${n}`, kind: 'fact' } })
    const count = NEWEST_OF_A_DAY + 500
    // A broken comment and loose words among the newest, as a hand edit leaves them.
    const body = Array.from({ length: count }, (_, n) => entry(n)).join('\n') + '<!--cyrene:{bad\n我自己的话\n' + entry(count)
    await fs.mkdir(join(files.days[0]!.path, '..'), { recursive: true })
    await fs.writeFile(files.days[0]!.path, body)
    const { recent } = readRecent(files)
    // The day's last NEWEST_OF_A_DAY comment lines, one of them the broken one.
    expect(recent).toHaveLength(NEWEST_OF_A_DAY - 1)
    expect(recent[0]).toEqual({ id: `e-${count}`, date: '2026-11-30', text: '我自己的话\n第2500条' })
    expect(recent.at(-1)?.id).toBe(`e-${count - NEWEST_OF_A_DAY + 2}`)
  })

  it('never reads through a symbolic link: a linked anchor, a linked day file and a linked day folder read as empty (issue 7 item 7)', async () => {
    const store = await MemoryStore.open({ env: { DSH_HOME: t.home }, now: () => new Date(2026, 10, 30, 9) })
    const outside = join(t.home, 'outside')
    await fs.mkdir(join(outside, '11'), { recursive: true })
    const day = '<!--cyrene:{"id":"x1","kind":"fact","at":"2026-11-30T01:00:00.000Z","by":"person","gate":"day"}-->'
    await fs.writeFile(join(outside, 'anchor.md'), '外面的锚点文字\n')
    await fs.writeFile(join(outside, 'day.md'), `外面的日档文字\n${day}\n`)
    await fs.writeFile(join(outside, '11', '2026-11-29.md'), `外面文件夹里的文字\n${day}\n`)
    await fs.symlink(join(outside, 'anchor.md'), join(store.root, '锚/你是谁.md'))
    await fs.mkdir(join(store.root, '岁月涟漪/日档/2026'), { recursive: true })
    await fs.mkdir(join(store.root, '岁月涟漪/日档/2026/10'), { recursive: true })
    await fs.symlink(join(outside, 'day.md'), join(store.root, '岁月涟漪/日档/2026/10/2026-10-31.md'))
    await fs.symlink(join(outside, '11'), join(store.root, '岁月涟漪/日档/2026/11'))
    const read = readRecent(recentFiles(store.root, 40, new Date(2026, 10, 30, 9)))
    expect(JSON.stringify(read)).not.toMatch(/外面/)
  })
})
