import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync, readdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bootHost, type Host } from '../harness/host.ts'
import type { SeenRequest } from '../harness/mock-llm.ts'
import { localDate } from '../../memory/paths.ts'

/** A dream request carries the dream's own tool; a chat step never does. */
const isDream = (r: SeenRequest) => r.tools.some((t) => t.name === 'memory_dream_journal')

let host: Host
let home: string
beforeAll(async () => {
  // A home outside the host's scratch folder, so a second host can start on it (the last test).
  home = mkdtempSync(join(tmpdir(), 'cyrene-dream-home-'))
  host = await bootHost({
    lang: 'en',
    dshHome: home,
    // The schedule on, at its default time; the night record says tonight is dreamt already, so a run
    // between 23:30 and midnight does not dream by itself at start.
    nightAt: '23:30',
    // A registry that is not one: kept aside and rebuilt at start.
    prepareHome: (home) => {
      mkdirSync(join(home, 'cyrene-philia093-0', '元'), { recursive: true })
      writeFileSync(join(home, 'cyrene-philia093-0', '元', '梦会话.json'), '[not json')
      writeFileSync(join(home, 'cyrene-philia093-0', '元', '梦夜.json'), JSON.stringify({ version: 1, lastNight: localDate(new Date()), runs: [] }))
    },
    script: (r) => (isDream(r) && r.messages.length === 1 ? { tool: 'memory_dream_journal', args: { text: '梦里有一辆自行车。' } } : { text: '好呀。' }),
  })
  await host.ctx.get('cyreneDream').ready
})
afterAll(async () => {
  await host?.dispose()
  rmSync(home, { recursive: true, force: true })
})

const root = () => join(host.dshHome, 'cyrene-philia093-0')
const registry = () => JSON.parse(readFileSync(join(root(), '元', '梦会话.json'), 'utf8'))

async function until(ok: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 20))
  expect(ok()).toBe(true)
}

describe('the night on a real host', () => {
  it('a corrupt registry was kept aside at start and a fresh one written', () => {
    const aside = readdirSync(join(root(), '元')).filter((n) => n.startsWith('梦会话.json.corrupt-'))
    expect(aside).toHaveLength(1)
    expect(readFileSync(join(root(), '元', aside[0]!), 'utf8')).toBe('[not json')
    expect(registry()).toMatchObject({ defaultEnabled: true, sessions: {} })
  })

  it('a chat turn registers the session with its last line; /dream dreams with that line and the journal the model writes is on disk', async () => {
    const agent = await host.createAgent('chat')
    const id = String(agent.session.id)
    await until(() => registry().sessions[id] !== undefined)
    await host.turn(agent, '今天我学会了骑自行车！')
    await until(() => registry().sessions[id]?.lastUserText === '今天我学会了骑自行车！')
    expect(registry().sessions[id]).toMatchObject({ enabled: true, preset: 'chat', provider: 'mock' })
    // the live session has its nightly task (cleared with the agent)
    await until(() => host.ctx.get('cyreneDream').doctorState().tasks.includes(id))
    // the chat step never offered the dream's tool
    const chatSteps = host.llm.requests.filter((r) => !isDream(r))
    expect(chatSteps.length).toBeGreaterThan(0)
    for (const r of chatSteps) expect(r.tools.map((t) => t.name)).not.toContain('memory_dream_journal')
    const events = agent.session.events.length

    const result = await host.command(agent, '/dream')
    expect(result?.kind, result?.text).toBe('success')
    const dream = host.llm.requests.find(isDream)!
    expect(JSON.stringify(dream.messages)).toContain('今天我学会了骑自行车！')
    expect(dream.system).toContain('昔涟')
    const today = new Date()
    const d = `${today.getFullYear()}-${String(today.getMonth() + 1).padStart(2, '0')}-${String(today.getDate()).padStart(2, '0')}`
    const journal = join(root(), '梦境', d.slice(0, 4), d.slice(5, 7), `${d}.md`)
    expect(readFileSync(journal, 'utf8')).toContain('梦里有一辆自行车。')
    // the dream is not a turn of the person's chat
    const after = agent.session.events.slice(events).map((e: { type: string }) => e.type)
    expect(after.filter((t: string) => t === 'turn/start' || t === 'user/message' || t === 'assistant/message')).toEqual([])
  })

  it('a session on a preset that is not Cyrene is not registered', async () => {
    const other = await host.createAgent('standard')
    await new Promise((r) => setTimeout(r, 100))
    expect(registry().sessions[String(other.session.id)]).toBeUndefined()
  })

  it('/cyrene dream off takes the session out of the night; on brings it back; the doctor shows the night', async () => {
    const agent = await host.createAgent('chat')
    const id = String(agent.session.id)
    expect((await host.command(agent, '/cyrene dream off'))?.kind).toBe('success')
    expect(registry().sessions[id].enabled).toBe(false)
    expect((await host.command(agent, '/cyrene dream on'))?.kind).toBe('success')
    expect(registry().sessions[id].enabled).toBe(true)
    expect((await host.command(agent, '/cyrene dream maybe'))?.kind).toBe('error')
    const doctor = (await host.command(agent, '/cyrene doctor --verbose'))?.text ?? ''
    expect(doctor).toMatch(/night: dreams at 23:30 local/)
    expect(doctor).toMatch(/dream: last dreamt of \d{4}-\d{2}-\d{2}/)
    expect(doctor).toMatch(/snapshots: 1 daily/)
    expect(doctor).toMatch(/! dream registry: a corrupt registry was kept aside as 元\/梦会话\.json\.corrupt-/)
    expect(doctor).toMatch(/! dream registry: 元\/梦会话\.json: not valid JSON .*kept aside/)
    expect(existsSync(join(root(), '元', '梦夜.json'))).toBe(true)
  })

  it('at the next start, sessions DSH no longer knows are dropped from the registry; known ones stay', async () => {
    const known = Object.keys(registry().sessions)
    expect(known.length).toBeGreaterThan(0)
    await host.dispose()
    const file = join(home, 'cyrene-philia093-0', '元', '梦会话.json')
    const r = JSON.parse(readFileSync(file, 'utf8'))
    r.sessions['ghost-session'] = { enabled: true, lastActiveAt: '2026-01-01T00:00:00.000Z', lastUserText: '早已不在的会话', preset: 'chat' }
    writeFileSync(file, JSON.stringify(r))
    host = await bootHost({ dshHome: home })
    await host.ctx.get('cyreneDream').ready
    const after = Object.keys(registry().sessions)
    expect(after).not.toContain('ghost-session')
    expect(after.sort()).toEqual(known.sort())
  })

  it('the night time the person saved in 元/settings.json (the panel, by hand) is the one the night uses after a restart', async () => {
    await host.dispose()
    const settings = join(home, 'cyrene-philia093-0', '元', 'settings.json')
    const before = existsSync(settings) ? JSON.parse(readFileSync(settings, 'utf8')) : {}
    writeFileSync(settings, JSON.stringify({ ...before, dream: { time: '21:15' } }))
    host = await bootHost({ dshHome: home })
    await host.ctx.get('cyreneDream').ready
    expect(host.ctx.get('cyreneDream').doctorState().at).toBe('21:15')
  })
})
