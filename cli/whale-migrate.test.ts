import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MemoryStore } from '../memory/index.ts'
import { scratchDir } from '../tests/harness/scratch.ts'
import { memoryIO, type CliIO } from './io.ts'
import { main } from './main.ts'
import { itemsFromWhaleInbox } from './whale-migrate.ts'

/** Lines a long-lived inbox really has: odd casing, CRLF, supersede, drop, proposals. */
const INBOX =
  [
    { text: '喜欢乌龙茶', at: '2026-01-02T03:04:05Z', status: ' Confirmed ', tag: 'life' },
    { text: '在写第一本小说', at: '2026-01-03T03:04:05Z', status: 'proposed' },
    { op: 'confirm', ref: '在写第一本小说' },
    { text: '住在杭州', at: '2026-01-04T03:04:05Z', status: 'confirmed' },
    { op: 'supersede', ref: '住在杭州', text: '搬到了上海' },
    { text: '还没确认的事', at: '2026-01-05T03:04:05Z', status: 'proposed' },
    { text: '丢掉的', status: 'confirmed' },
    { op: 'drop', ref: '丢掉的' },
  ]
    .map((l) => JSON.stringify(l))
    .join('\r\n') + '\r\n'

function io(home: string): CliIO & { out: () => string } {
  return memoryIO({ DSH_HOME: home, HOME: home }, home)
}

describe('whale-persona inbox → memory', () => {
  it('takes exactly the confirmed entries of the replayed view', () => {
    const { items, skipped } = itemsFromWhaleInbox(INBOX, 'inbox.jsonl')
    expect(items.map((i) => i.text)).toEqual(['喜欢乌龙茶', '在写第一本小说', '搬到了上海'])
    expect(items[0]).toMatchObject({ kind: 'fact', at: '2026-01-02T03:04:05Z', extra: { tag: 'life' }, source_ref: 'inbox.jsonl#1' })
    expect(skipped.map((s) => s.origin)).toEqual(['inbox.jsonl#4'])
  })

  it('cyrene migrate --from-whale imports them once, and leaves the inbox as it was', async () => {
    const home = scratchDir('from-whale')
    mkdirSync(join(home, 'whale-persona'), { recursive: true })
    const inbox = join(home, 'whale-persona', 'memory-inbox.jsonl')
    writeFileSync(inbox, INBOX)
    const listed = io(home)
    expect(await main(['whale', 'inbox', 'list', '--json'], listed)).toBe(0)
    const confirmed = (JSON.parse(listed.out()) as { text: string; status: string }[]).filter((e) => e.status === 'confirmed').map((e) => e.text)
    const first = io(home)
    expect(await main(['migrate', '--from-whale', '--json', '--quiet'], first)).toBe(0)
    expect(JSON.parse(first.out()).imported).toBe(confirmed.length)
    const again = io(home)
    expect(await main(['migrate', '--from-whale', '--json', '--quiet'], again)).toBe(0)
    expect(JSON.parse(again.out()).imported).toBe(0)
    const { entries } = await (await MemoryStore.open({ env: { DSH_HOME: home } })).scan()
    expect(entries.map((e) => e.text).sort()).toEqual([...confirmed].sort())
    expect(entries.every((e) => e.meta.gate === 'imported')).toBe(true)
    expect(readFileSync(inbox, 'utf8')).toBe(INBOX)
  })

  it('a skipped proposal names the number `whale inbox confirm` takes, and following it confirms that entry', async () => {
    const home = scratchDir('from-whale')
    mkdirSync(join(home, 'whale-persona'), { recursive: true })
    writeFileSync(join(home, 'whale-persona', 'memory-inbox.jsonl'), INBOX)
    const first = io(home)
    await main(['migrate', '--from-whale', '--json', '--quiet', '--lang', 'en'], first)
    const advice = (JSON.parse(first.out()) as { skipped: { why: string }[] }).skipped[0]!.why
    const n = /inbox confirm (\d+)/.exec(advice)![1]!
    expect(await main(['whale', 'inbox', 'confirm', n], io(home))).toBe(0)
    const listed = io(home)
    await main(['whale', 'inbox', 'list', '--json'], listed)
    expect((JSON.parse(listed.out()) as { text: string; status: string }[]).find((e) => e.text === '还没确认的事')?.status).toBe('confirmed')
  })

  it('with the person’s record, what the model appended as confirmed stays behind, exactly as `whale inbox list` shows it (decisions 254, 307)', async () => {
    const home = scratchDir('from-whale')
    mkdirSync(join(home, 'whale-persona'), { recursive: true })
    const inbox = join(home, 'whale-persona', 'memory-inbox.jsonl')
    writeFileSync(inbox, INBOX)
    await MemoryStore.open({ env: { DSH_HOME: home } })
    const view = async (): Promise<{ text: string; status: string }[]> => {
      const listed = io(home)
      expect(await main(['whale', 'inbox', 'list', '--json'], listed)).toBe(0)
      return JSON.parse(listed.out()) as { text: string; status: string }[]
    }
    // the person confirms one entry: the store now keeps the record (the inbox's confirmations taken over once)
    expect(await main(['whale', 'inbox', 'confirm', String((await view()).findIndex((e) => e.text === '还没确认的事'))], io(home))).toBe(0)
    // then the model appends a line saying confirmed and a rewrite of a confirmed memory
    appendFileSync(inbox, `${JSON.stringify({ text: '模型写的确认', status: 'confirmed' })}\n`)
    appendFileSync(inbox, `${JSON.stringify({ op: 'supersede', ref: '喜欢乌龙茶', text: '模型改写的记忆' })}\n`)
    const confirmed = (await view()).filter((e) => e.status === 'confirmed').map((e) => e.text)
    expect(confirmed).toEqual(['在写第一本小说', '搬到了上海', '还没确认的事'])
    const run = io(home)
    expect(await main(['migrate', '--from-whale', '--json', '--quiet'], run)).toBe(0)
    expect(JSON.parse(run.out()).imported).toBe(confirmed.length)
    const { entries } = await (await MemoryStore.open({ env: { DSH_HOME: home } })).scan()
    expect(entries.map((e) => e.text).sort()).toEqual([...confirmed].sort())
  })

  it('refuses without a source, with two sources, and when there is no inbox', async () => {
    const home = scratchDir('from-whale')
    expect(await main(['migrate'], io(home))).toBe(2)
    expect(await main(['migrate', '--from-whale', '--from', home], io(home))).toBe(2)
    expect(await main(['migrate', '--from-whale'], io(home))).toBe(2)
  })
})
