import { describe, expect, it } from 'vitest'
import { appendedText, sinkKey, sinkLine, sinkLogKeys, sinkRoutes, utcDay } from './sinks.ts'

const now = new Date('2026-01-02T03:04:05.000Z')
const entry = { text: 'hello\nworld', at: '2026-09-21T01:30:00+08:00', tag: 't', status: 'confirmed' as const, kind: 'idea' }

describe('sinkRoutes (§6)', () => {
  it('normalises keys, ignores memory, bad shapes and empty paths, and joins relative paths to the config dir', () => {
    const routes = sinkRoutes(
      {
        Idea: { path: 'out/i.md', format: 'MD' },
        memory: { path: 'm.md' },
        bad: 'x',
        empty: { path: '  ' },
        abs: { path: '/tmp/a.jsonl', format: 'jsonl', createParents: false },
        weird: { path: 'w.txt', format: 'html' },
      },
      'home/whale-persona',
    )
    expect([...routes.keys()]).toEqual(['idea', 'abs', 'weird'])
    expect(routes.get('idea')!.path).toBe('home/whale-persona/out/i.md')
    expect(routes.get('abs')).toMatchObject({ path: '/tmp/a.jsonl', format: 'jsonl', createParents: false })
    expect(routes.get('weird')!.format).toBe('md')
  })
})

describe('sinkLine', () => {
  const route = (over: object) => ({ kind: 'idea', path: 'p', format: 'md' as const, template: '', header: '', createParents: true, ...over })
  it('md default uses the UTC day of `at` and folds newlines', () => {
    expect(sinkLine(route({}), entry, 'cli', now)).toBe('- hello world（2026-09-20）')
  })
  it('plain uses {text} by default; templates fill only the five placeholders', () => {
    expect(sinkLine(route({ format: 'plain' }), entry, 'cli', now)).toBe('hello world')
    expect(sinkLine(route({ format: 'plain', template: '{kind}/{tag}/{source}/{date} {text} {other}' }), entry, 'cli', now)).toBe(
      'idea/t/cli/2026-09-20 hello world {other}',
    )
  })
  it('jsonl writes a record and leaves out an empty tag', () => {
    expect(JSON.parse(sinkLine(route({ format: 'jsonl' }), { ...entry, tag: '' }, 'cli', now))).toEqual({
      text: 'hello world',
      kind: 'idea',
      at: entry.at,
      source: 'cli',
    })
  })
  it('a missing or invalid date falls back to today (UTC)', () => {
    expect(utcDay('', now)).toBe('2026-01-02')
    expect(utcDay('t1', now)).toBe('2026-01-02')
  })
})

describe('appendedText and the sink log', () => {
  const r = { kind: 'k', path: 'p', format: 'md' as const, template: '', header: '## H\n\n\n', createParents: true }
  it('writes the header with exactly one newline before the first line only', () => {
    expect(appendedText(r, 'x', false)).toBe('## H\nx\n')
    expect(appendedText(r, 'x', true)).toBe('x\n')
  })
  it('reads keys from the log, skipping damaged lines; the path compares case-insensitively', () => {
    const keys = sinkLogKeys(['{bad', JSON.stringify({ kind: 'K', line: 'x', path: 'A/B.md' }), ''].join('\n'))
    expect(keys.has(sinkKey('k', 'x', 'a/b.md'))).toBe(true)
    expect(keys.has(sinkKey('k', 'y', 'a/b.md'))).toBe(false)
  })
})
