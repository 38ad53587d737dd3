import { afterEach, beforeEach, expect, it } from 'vitest'
import { promises as fs } from 'node:fs'
import { join } from 'node:path'
import { MemoryStore } from '../memory/index.ts'
import { charCount } from '../prompt/index.ts'
import { forgetUnknown, LAST_LINE_CHARS, noteSession, readRegistry, scheduledSessions, updateRegistry } from './registry.ts'
import { tempHome } from '../memory/testing/tmp.ts'

let t: Awaited<ReturnType<typeof tempHome>>
let s: MemoryStore
beforeEach(async () => {
  t = await tempHome()
  s = await MemoryStore.open({ env: { DSH_HOME: t.home } })
})
afterEach(async () => {
  await t.cleanup()
})

it('registers a session enabled by default and keeps its last line, at most 200 characters', async () => {
  const long = '长'.repeat(300)
  await updateRegistry(s, (r) => noteSession(r, { id: 'a', preset: 'chat', at: new Date('2026-05-01T10:00:00Z'), userText: long }))
  const { registry } = await readRegistry(s)
  expect(registry.defaultEnabled).toBe(true)
  expect(registry.sessions.a).toMatchObject({ enabled: true, preset: 'chat', lastActiveAt: '2026-05-01T10:00:00.000Z' })
  expect(charCount(registry.sessions.a!.lastUserText)).toBeLessThanOrEqual(LAST_LINE_CHARS)
  expect(registry.sessions.a!.lastUserText.startsWith('长'.repeat(150))).toBe(true)
  // a sighting without a line keeps the last one
  await updateRegistry(s, (r) => noteSession(r, { id: 'a', preset: 'chat', at: new Date('2026-05-02T10:00:00Z') }))
  expect((await readRegistry(s)).registry.sessions.a!.lastUserText).toBe(registry.sessions.a!.lastUserText)
})

it('a corrupt registry is kept aside byte for byte and started afresh, with a problem to report', async () => {
  const file = join(t.root, '元', '梦会话.json')
  await fs.writeFile(file, '{"sessions": [oops')
  expect((await readRegistry(s)).problem).toMatch(/not valid JSON/)
  const r = await updateRegistry(s, (x) => noteSession(x, { id: 'b', preset: 'chat', at: new Date() }))
  expect(r.keptAside).toMatch(/^梦会话\.json\.corrupt-/)
  expect(await fs.readFile(join(t.root, '元', r.keptAside!), 'utf8')).toBe('{"sessions": [oops')
  expect(Object.keys((await readRegistry(s)).registry.sessions)).toEqual(['b'])
})

it('forgets sessions DSH does not know and schedules at most N enabled ones, most recent first', () => {
  const r = { version: 1 as const, defaultEnabled: true, sessions: {} }
  for (let i = 0; i < 5; i++) noteSession(r, { id: `s${i}`, preset: 'chat', at: new Date(Date.UTC(2026, 0, 1 + i)) })
  noteSession(r, { id: 'off', preset: 'chat', at: new Date(Date.UTC(2026, 1, 1)) })
  ;(r.sessions as Record<string, { enabled: boolean }>).off!.enabled = false
  expect(scheduledSessions(r, 3).map(([id]) => id)).toEqual(['s4', 's3', 's2'])
  expect(forgetUnknown(r, new Set(['s1', 'off']))).toEqual(['s0', 's2', 's3', 's4'])
  expect(Object.keys(r.sessions)).toEqual(['s1', 'off'])
})
