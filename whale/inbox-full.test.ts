import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { fillDisk } from '../durable/testing/tmpfs.ts'
import { useTmpfs } from '../durable/testing/use-tmpfs.ts'
import { confirmEntries, loadInbox } from './inbox-actions.ts'

/**
 * Written once (§6) on a real full disk (a 1 MB tmpfs; tests run as root): the sink takes its line but
 * the sink log has no room for the record. An outside fault audit found the line kept without its
 * record, and the next confirm writing it a second time.
 */
const fsys = useTmpfs('1m')

describe('a confirm whose sink log cannot be written', () => {
  it('takes the sink line back, says so, and the next confirm writes it once', async () => {
    const dir = path.join(fsys.dir, 'home', 'whale-persona')
    const file = (rel: string): string => path.join(dir, rel)
    mkdirSync(dir, { recursive: true })
    writeFileSync(file('config.json'), JSON.stringify({ memory: { enabled: true, sinks: { idea: { path: 'ideas.md' } } } }))
    writeFileSync(file('memory-inbox.jsonl'), `${JSON.stringify({ text: 'a new idea', kind: 'idea', at: '2026-09-21T01:00:00Z', status: 'proposed' })}\n`)
    // The sink's page has room for a line; the log's page is full, so its record needs a page the disk no longer has.
    writeFileSync(file('ideas.md'), '- an older idea\n')
    const pad = JSON.stringify({ at: '2026-01-01T00:00:00Z', kind: 'pad', path: 'pad.md', line: '' })
    writeFileSync(file('sink-log.jsonl'), `${pad.slice(0, -2)}${'x'.repeat(4096 - pad.length - 1)}"}\n`)
    expect(readFileSync(file('sink-log.jsonl')).length).toBe(4096)
    const filler = path.join(fsys.dir, 'filler')
    await fillDisk(filler)
    const ctx = { env: { DSH_HOME: path.join(fsys.dir, 'home') }, cwd: fsys.dir }
    const first = confirmEntries(ctx, loadInbox(ctx), [0], 'cyrene', new Date('2026-10-01T00:00:00Z'))
    expect(first.report.sunk).toEqual([])
    const said = first.report.errors[0]?.error ?? ''
    expect(said).toContain('could not record it in the sink log')
    expect(said).toMatch(/nothing was written to \S*ideas\.md/)
    expect(readFileSync(file('ideas.md'), 'utf8')).toBe('- an older idea\n')
    rmSync(filler)
    const again = confirmEntries(ctx, loadInbox(ctx), [0], 'cyrene', new Date('2026-10-01T00:01:00Z'))
    expect(again.report.sunk).toHaveLength(1)
    const ideas = readFileSync(file('ideas.md'), 'utf8')
    expect(ideas.split('a new idea').length - 1).toBe(1)
  })
})
