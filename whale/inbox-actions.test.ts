import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { confirmEntries, loadInbox } from './inbox-actions.ts'

const jsonl = (...rows: object[]): string => rows.map((r) => JSON.stringify(r) + '\n').join('')

describe('confirmEntries and the sink log (§6 written once)', () => {
  let dir = ''
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  function home(): { ctx: { env: Record<string, string>; cwd: string }; file: (rel: string) => string } {
    dir = mkdtempSync(path.join(os.tmpdir(), 'whale-confirm-'))
    const file = (rel: string): string => path.join(dir, 'home', 'whale-persona', rel)
    mkdirSync(path.dirname(file('config.json')), { recursive: true })
    writeFileSync(file('config.json'), JSON.stringify({ memory: { enabled: true, sinks: { idea: { path: 'ideas.md' } } } }))
    writeFileSync(
      file('memory-inbox.jsonl'),
      jsonl(
        { text: 'old idea', kind: 'idea', at: '2026-09-20T01:00:00Z', status: 'proposed' },
        { text: 'new idea', kind: 'idea', at: '2026-09-21T01:00:00Z', status: 'proposed' },
        { text: 'a memory', status: 'proposed' },
      ),
    )
    // "old idea" was sunk by an earlier confirm; its drop line never made it into the inbox
    writeFileSync(file('ideas.md'), '- old idea（2026-09-20）\n')
    writeFileSync(
      file('sink-log.jsonl'),
      jsonl({
        at: '2026-09-20T02:00:00.000Z',
        kind: 'idea',
        path: 'home/whale-persona/ideas.md',
        format: 'md',
        line: '- old idea（2026-09-20）',
        bytes: 21,
        source: 'cyrene',
      }),
    )
    return { ctx: { env: { DSH_HOME: 'home' }, cwd: dir }, file }
  }

  it('sink idempotency: an entry already in the sink log gets its confirm line but no drop line; drops follow for new writes in confirmation order (issue 14 item "sink idempotency")', () => {
    const { ctx, file } = home()
    const before = readFileSync(file('memory-inbox.jsonl'), 'utf8')
    const result = confirmEntries(ctx, loadInbox(ctx), [1, 0, 2], 'cyrene', new Date('2026-10-01T00:00:00Z'))
    const appended = readFileSync(file('memory-inbox.jsonl'), 'utf8')
      .slice(before.length)
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { op: string; ref: string })
    expect(appended.map((l) => [l.op, l.ref])).toEqual([
      ['confirm', 'new idea'],
      ['confirm', 'old idea'],
      ['confirm', 'a memory'],
      ['drop', 'new idea'],
    ])
    expect(result.appendedLines).toHaveLength(4)
    expect(result.report.skipped).toEqual([{ index: 0, kind: 'idea', path: 'home/whale-persona/ideas.md', reason: 'already-sunk' }])
    expect(result.report.sunk.map((s) => s.index)).toEqual([1])
    expect(readFileSync(file('ideas.md'), 'utf8')).toBe('- old idea（2026-09-20）\n- new idea（2026-09-21）\n')
    // the skipped entry stays in the view (confirmed, never injected: its kind is not memory)
    expect(loadInbox(ctx).entries.map((e) => [e.text, e.status])).toEqual([
      ['old idea', 'confirmed'],
      ['a memory', 'confirmed'],
    ])
  })

  it('the sink log names the same target however its path was written (absolute, ./, relative)', () => {
    for (const recorded of ['ABS', './home/whale-persona/ideas.md', 'home/whale-persona/../whale-persona/ideas.md']) {
      const { ctx, file } = home()
      const logged = recorded === 'ABS' ? file('ideas.md') : recorded
      writeFileSync(
        file('sink-log.jsonl'),
        jsonl({ at: '2026-09-20T02:00:00.000Z', kind: 'idea', path: logged, format: 'md', line: '- old idea（2026-09-20）', bytes: 21, source: 'cyrene' }),
      )
      const result = confirmEntries(ctx, loadInbox(ctx), [0], 'cyrene', new Date('2026-10-01T00:00:00Z'))
      expect(result.report.skipped.map((s) => s.index)).toEqual([0])
      expect(readFileSync(file('ideas.md'), 'utf8')).toBe('- old idea（2026-09-20）\n')
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('a later confirm of the skipped entry writes nothing at all', () => {
    const { ctx, file } = home()
    confirmEntries(ctx, loadInbox(ctx), [0], 'cyrene', new Date('2026-10-01T00:00:00Z'))
    const inbox = readFileSync(file('memory-inbox.jsonl'), 'utf8')
    const again = confirmEntries(ctx, loadInbox(ctx), [0], 'cyrene', new Date('2026-10-02T00:00:00Z'))
    expect(again.appendedLines).toEqual([])
    expect(readFileSync(file('memory-inbox.jsonl'), 'utf8')).toBe(inbox)
    expect(readFileSync(file('ideas.md'), 'utf8')).toBe('- old idea（2026-09-20）\n')
  })
})
