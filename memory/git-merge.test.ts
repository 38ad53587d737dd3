import { describe, expect, it } from 'vitest'
import { serializeEntry } from './entry.ts'
import { mergeAnchor, mergeEntryFile, mergeKeyed, mergeLines, mergeRegistry, mergeVolumes, mergeWhole } from './git-merge.ts'

const e = (id: string, text: string): string => serializeEntry({ text, meta: { id, kind: 'fact' } })

describe('the merge drivers (pure)', () => {
  it('day files: the union of entries by id, each once; a removal on one side stays removed', () => {
    const base = e('a', '一') + e('b', '二')
    const ours = base + e('c', '三')
    const theirs = e('a', '一') + e('d', '四')
    const r = mergeEntryFile(base, ours, theirs)
    expect(r.conflicts).toEqual([])
    expect(r.text).toBe(e('a', '一') + e('c', '三') + e('d', '四'))
  })

  it('the same entry changed on both sides keeps ours in the file and hands theirs back as a conflict, never a marker', () => {
    const base = e('a', '原话')
    const r = mergeEntryFile(base, e('a', '我这边改的'), e('a', '那边改的'))
    expect(r.text).toBe(e('a', '我这边改的'))
    expect(r.conflicts).toEqual([{ kind: 'entry', key: 'a', ours: e('a', '我这边改的'), theirs: e('a', '那边改的') }])
    expect(r.text).not.toContain('<<<<<<<')
  })

  it('changed on one side only takes that side; removed on one side and changed on the other keeps the change', () => {
    expect(mergeEntryFile(e('a', '原'), e('a', '原'), e('a', '改')).text).toBe(e('a', '改'))
    expect(mergeEntryFile(e('a', '原'), '', e('a', '改')).text).toBe(e('a', '改'))
  })

  it('dream journals (free text): both sides appended, both additions kept once', () => {
    const base = '## 23:30 · 夜梦\n\n第一段。\n'
    const r = mergeEntryFile(base, `${base}\n## 23:40\n\n我这边。\n`, `${base}\n## 23:50\n\n那边。\n`)
    expect(r.text.match(/第一段/g)).toHaveLength(1)
    expect(r.text).toContain('我这边。')
    expect(r.text).toContain('那边。')
  })

  it('anchors: sections by 卷·日期 are a union; a core both changed is a conflict', () => {
    const base = '核心\n'
    const r = mergeAnchor(base, '核心\n## 卷0·2026-03-01\n甲\n', '核心\n## 卷0·2026-03-02\n乙\n')
    expect(r.text).toBe('核心\n## 卷0·2026-03-01\n甲\n## 卷0·2026-03-02\n乙\n')
    const c = mergeAnchor(base, '我的核心\n', '她的核心\n')
    expect(c.text).toBe('我的核心\n')
    expect(c.conflicts.map((x) => x.key)).toEqual(['core'])
  })

  it('settings: key by key; a key both changed takes the newer side, with an audit note', () => {
    const base = JSON.stringify({ nickname: 'a', dream: { time: '23:30' } })
    const ours = JSON.stringify({ nickname: 'b', dream: { time: '23:30' }, style: 's' })
    const theirs = JSON.stringify({ nickname: 'c', dream: { time: '22:00' } })
    const r = mergeKeyed(base, ours, theirs, 'theirs', '元/settings.json')
    expect(JSON.parse(r.text)).toEqual({ nickname: 'c', dream: { time: '22:00' }, style: 's' })
    expect(r.notes).toEqual([{ op: 'git-merge-setting', file: '元/settings.json', key: 'nickname', took: 'theirs' }])
  })

  it('volumes: two different current volumes are a conflict; the same volume opened on both machines keeps the first', () => {
    const v = (current: number, started: string): string => JSON.stringify({ current, volumes: [{ id: current, started_at: started }] })
    expect(mergeVolumes('', v(1, 'x'), v(2, 'y')).conflicts).toHaveLength(1)
    const same = mergeVolumes('', v(0, '2026-02-01'), v(0, '2026-01-01'))
    expect(same.conflicts).toEqual([])
    expect(JSON.parse(same.text).volumes[0].started_at).toBe('2026-01-01')
  })

  it('unknown JSON: never merged silently', () => {
    expect(mergeWhole('{"a":1}', '{"a":2}', '{"a":3}').conflicts).toHaveLength(1)
    expect(mergeWhole('{"a":1}', '{"a":1}', '{"a":3}').text).toBe('{"a":3}')
  })

  it('append-only lines: every line once, in time order', () => {
    const l = (at: string, op: string): string => JSON.stringify({ at, op })
    const base = `${l('2026-01-01', 'x')}\n`
    const r = mergeLines(base, `${base}${l('2026-01-03', 'ours')}\n`, `${base}${l('2026-01-02', 'theirs')}\n`)
    expect(r.text).toBe(`${l('2026-01-01', 'x')}\n${l('2026-01-02', 'theirs')}\n${l('2026-01-03', 'ours')}\n`)
  })

  it('the dream registry: the union of sessions, the one active last wins', () => {
    const reg = (sessions: Record<string, unknown>): string => JSON.stringify({ version: 1, defaultEnabled: true, sessions })
    const r = mergeRegistry(
      reg({}),
      reg({ s1: { lastActiveAt: '1' }, s2: { lastActiveAt: '5' } }),
      reg({ s2: { lastActiveAt: '6' }, s3: { lastActiveAt: '2' } }),
    )
    expect(Object.keys(JSON.parse(r.text).sessions).sort()).toEqual(['s1', 's2', 's3'])
    expect(JSON.parse(r.text).sessions.s2.lastActiveAt).toBe('6')
  })
})

describe('the driver program git runs (merge.cyrene-*.driver)', () => {
  it('writes the merge into %A, exits 0, and keeps a conflict in 元/冲突/ of the merge root', async () => {
    const { execFileSync } = await import('node:child_process')
    const { mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync } = await import('node:fs')
    const { join } = await import('node:path')
    const { tmpdir } = await import('node:os')
    const { driverScript } = await import('./git-repo.ts')
    const dir = mkdtempSync(join(tmpdir(), 'cyrene-driver-'))
    try {
      const [o, a, b] = ['o', 'a', 'b'].map((n) => join(dir, n))
      writeFileSync(o!, e('x', '原'))
      writeFileSync(a!, e('x', '甲') + e('y', '新'))
      writeFileSync(b!, e('x', '乙'))
      execFileSync(process.execPath, [driverScript(), 'entries', o!, a!, b!, '岁月涟漪/日档/2026/03/2026-03-01.md'], {
        env: { ...process.env, CYRENE_MERGE_ROOT: dir },
      })
      expect(readFileSync(a!, 'utf8')).toBe(e('x', '甲') + e('y', '新'))
      const records = readdirSync(join(dir, '元', '冲突'))
      expect(records).toHaveLength(1)
      expect(JSON.parse(readFileSync(join(dir, '元', '冲突', records[0]!), 'utf8'))).toMatchObject({ kind: 'entry', key: 'x', theirs: e('x', '乙') })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
