import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PanelDeps } from '../../panel/deps.ts'
import { PANEL_PREFIX, panelHandler } from '../../panel/routes.ts'
import { PanelPairing } from '../../panel/pairing.ts'
import { pageLocaleOf } from '../../panel/locale.ts'
import { dreamNowOf } from '../../panel/row.ts'
import type { CyreneMemory } from '../../host/service.ts'
import { bootHost, type Host } from '../harness/host.ts'
import { otherLanguage } from '../harness/language.ts'

/**
 * The panel's routes over real HTTP, served by the handler the web row
 * registers, in front of the cyreneMemory service of a real host (the
 * headless composition has no webServer; the browser test drives the same
 * routes inside `dsh web`).
 */
const TOKEN = 'siyuan-secret-7f3a9c'
let host: Host
let server: Server
let port: number
let root: string
let pairing: PanelPairing
/** What the terminal DSH runs in showed (the person reads it there; a shell does not). */
const shown: string[] = []
const answers: string[] = []

interface Call {
  method?: string
  host?: string
  origin?: string
  type?: string
  body?: string
  /** The pairing code sent with a POST: the page's (the person typed it) unless a test says otherwise; null sends none. */
  pairing?: string | null
}

async function call(path: string, opts: Call = {}): Promise<{ status: number; json: any }> {
  const body = opts.body
  const headers: Record<string, string> = { host: opts.host ?? `127.0.0.1:${port}` }
  if (opts.origin !== undefined) headers.origin = opts.origin
  if (body !== undefined) headers['content-type'] = opts.type ?? 'application/json'
  const code = opts.pairing === undefined ? pairing.current() : opts.pairing
  if (body !== undefined && code !== null) headers['x-cyrene-pairing'] = code
  return await new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path: `${PANEL_PREFIX}${path}`, method: opts.method ?? (body === undefined ? 'GET' : 'POST'), headers },
      (res) => {
        let text = ''
        res.on('data', (d) => (text += d))
        res.on('end', () => {
          answers.push(text)
          resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) })
        })
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const post = (body: unknown, more: Call = {}) => call('/action', { body: JSON.stringify(body), origin: `http://127.0.0.1:${port}`, ...more })

/** Every file of the store and its content hash: "nothing changed" is this map staying equal. */
function storeFiles(dir = root, rel = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of readdirSync(join(dir, rel))) {
    const r = rel === '' ? name : `${rel}/${name}`
    if (name.endsWith('.lock')) continue
    const st = statSync(join(dir, r))
    if (st.isDirectory()) Object.assign(out, storeFiles(dir, r))
    else
      out[r] = createHash('sha256')
        .update(readFileSync(join(dir, r)))
        .digest('hex')
  }
  return out
}

beforeAll(async () => {
  host = await bootHost()
  const memory = host.ctx.get('cyreneMemory') as CyreneMemory
  await memory.ready
  // Recall's start seals its cache in 元/ (docs/decisions/283): done before any "nothing changed" is measured.
  await memory.recallReady
  root = join(host.dshHome, 'cyrene-philia093-0')
  // The row's own "Dream now" (panel/row.ts), on this host's night service.
  pairing = new PanelPairing((code) => {
    shown.push(code)
  })
  const deps: PanelDeps = {
    memory,
    trustedHosts: ['panel.example'],
    maxBodyBytes: 2048,
    env: { SIYUAN_API_TOKEN: TOKEN },
    pairing,
    pageLocale: pageLocaleOf(host.ctx),
    dreamNow: dreamNowOf(host.ctx),
  }
  // The store guard's counts, handed over as panel/row.ts does.
  deps.guard = () => (host.ctx.get('cyreneStoreGuard') as { counts(): { refused: number; undone: number } }).counts()
  server = createServer(panelHandler(deps))
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  port = (server.address() as AddressInfo).port
})
afterAll(async () => {
  await new Promise((r) => server?.close(r))
  await host?.dispose()
})

describe('panel routes (issue 12 item 2)', () => {
  it('GET /status answers the store, engine, recall, snapshots and settings; the token only as present', async () => {
    const { status, json } = await call('/status')
    expect(status).toBe(200)
    expect(json.engine.kind).toBe('ready')
    expect(json.store.usage.limitBytes).toBe(128 * 1024 * 1024)
    expect(json.settings.values.siyuan).toEqual({
      enabled: false,
      url: 'http://127.0.0.1:6806',
      notebook: '昔涟',
      tokenEnv: 'SIYUAN_API_TOKEN',
      tokenEnvAllow: ['SIYUAN_*'],
    })
    expect(json.sync.tokenPresent).toBe(true)
    expect(json.snapshots.length).toBeGreaterThan(0)
    // The store guard's counts (CONTRACT#store-guard).
    expect(json.guard).toEqual({ refused: expect.any(Number), undone: expect.any(Number) })
  })

  it('a forged Host gets 403 for GET and POST and nothing changes; a configured trusted host is answered', async () => {
    const before = storeFiles()
    expect((await call('/status', { host: 'evil.example' })).status).toBe(403)
    expect((await call('/status', { host: 'evil.example:80' })).status).toBe(403)
    expect((await post({ action: 'save-config', settings: { nickname: 'x' } }, { host: 'attacker.test', origin: 'http://attacker.test' })).status).toBe(403)
    expect((await post({ action: 'backup' }, { host: '127.0.0.1.evil.example' })).status).toBe(403)
    expect(storeFiles()).toEqual(before)
    expect((await call('/status', { host: 'panel.example:8080' })).status).toBe(200)
  })

  it('a cross-origin POST gets 403 and changes nothing', async () => {
    const before = storeFiles()
    const r = await post({ action: 'save-config', settings: { nickname: '坏人' } }, { origin: 'http://evil.example' })
    expect(r.status).toBe(403)
    expect((await post({ action: 'backup' }, { origin: 'null' })).status).toBe(403)
    expect(storeFiles()).toEqual(before)
  })

  it('non-JSON, oversized, a wrong type or an unknown action: 4xx with a message, no file changed', async () => {
    const before = storeFiles()
    const origin = `http://127.0.0.1:${port}`
    expect((await call('/action', { body: 'action=backup', type: 'application/x-www-form-urlencoded', origin })).status).toBe(415)
    const bad = await call('/action', { body: '{"action": "backup"', origin })
    expect(bad.status).toBe(400)
    expect(bad.json.error).toBe('the request body is not valid JSON')
    expect((await call('/action', { body: '["backup"]', origin })).status).toBe(400)
    expect((await post({ action: 'save-config', settings: { style: 'x'.repeat(4000) } })).status).toBe(413)
    const unknown = await post({ action: 'rm -rf' })
    expect(unknown.status).toBe(400)
    expect(unknown.json.error).toMatch(/unknown action; use one of sync, backup, dream, save-config/)
    expect((await call('/nowhere')).status).toBe(404)
    expect((await call('/status', { method: 'DELETE' })).status).toBe(405)
    expect(storeFiles()).toEqual(before)
    for (const a of answers) expect(a).not.toMatch(/at .*\.(ts|js):\d+/)
  })

  it('save-config round trip: written to 元/settings.json, in effect now or after a restart as it says, read back by /status', async () => {
    const r = await post({ action: 'save-config', settings: { nickname: '小远', form: 'work', dream: { time: '22:15' }, quota: { entryChars: 500 } } })
    expect(r.status).toBe(200)
    expect(r.json.appliedNow).toEqual(expect.arrayContaining(['nickname', 'form', 'quota.entryChars']))
    expect(r.json.needRestart).toEqual(['dream.time'])
    expect(r.json.code).toBe('saved')
    expect(r.json.message).toContain('after a DSH restart: dream.time')
    const file = JSON.parse(readFileSync(join(root, '元', 'settings.json'), 'utf8'))
    expect(file).toEqual({ nickname: '小远', form: 'work', dream: { time: '22:15' }, quota: { entryChars: 500 } })
    const { json } = await call('/status')
    expect(json.settings.values.nickname).toBe('小远')
    expect(json.settings.values.dream.time).toBe('22:15')
    // Applied to the running store at once: the entry limit the write gate uses.
    expect((host.ctx.get('cyreneMemory') as CyreneMemory).store()?.limits.entryChars).toBe(500)
  })

  it('a wrong value, an unknown key or a token is refused as a whole and nothing is written', async () => {
    const before = storeFiles()
    const wrong = await post({ action: 'save-config', settings: { nickname: '好', dream: { time: '25:99' } } })
    expect(wrong.status).toBe(400)
    expect(wrong.json.error).toContain('"dream.time"')
    // The page words it: the code and the one field that is wrong (the good nickname is not blamed).
    expect(wrong.json).toMatchObject({ code: 'bad-setting', keys: ['dream.time'] })
    const url = await post({ action: 'save-config', settings: { nickname: '好', siyuan: { url: 'not a url', notebook: '昔涟' } } })
    expect(url.json).toMatchObject({ ok: false, code: 'bad-setting', keys: ['siyuan.url'] })
    const token = await post({ action: 'save-config', settings: { siyuan: { token: 'abc' } } })
    expect(token.status).toBe(400)
    expect(token.json.error).toContain('"siyuan.token" is not a setting')
    expect(storeFiles()).toEqual(before)
  })

  it('backup makes a snapshot that /status then lists', async () => {
    const before = (await call('/status')).json.snapshots.length
    const r = await post({ action: 'backup' })
    expect(r.status).toBe(200)
    expect(r.json.message).toMatch(/^snapshot /)
    expect(r.json).toMatchObject({ code: 'backup-done', files: expect.any(Number) })
    const last = (await call('/status')).json.snapshots.at(-1)
    expect(Date.parse(last.takenAt)).toBeGreaterThan(Date.now() - 120_000)
    expect((await call('/status')).json.snapshots.length).toBe(Math.min(before + 1, 7))
  })

  it('GET /session and /day answer; the calendar counts what was written', async () => {
    await (host.ctx.get('cyreneMemory') as CyreneMemory)
      .store()
      ?.write({ text: '雨天听黑胶。', kind: 'preference', axis: '美', reason: '稳定偏好' }, { by: 'person' })
    const { json } = await call('/status')
    expect(json.calendar[json.today].entries).toBeGreaterThanOrEqual(1)
    const day = await call(`/day?date=${json.today}`)
    expect(day.json.entries.map((e: { text: string }) => e.text)).toContain('雨天听黑胶。')
    expect(day.json.dream).toBeNull()
    expect((await call('/day?date=yesterday')).status).toBe(400)
    const session = await call('/session?sessionId=abc')
    expect(session.json).toMatchObject({ sessionId: 'abc', registered: false })
    expect((await call('/session')).status).toBe(400)
  })

  it('a dream registry session can be switched off from the panel', async () => {
    writeFileSync(
      join(root, '元', '梦会话.json'),
      JSON.stringify({ defaultEnabled: true, sessions: { s1: { lastActiveAt: '2026-11-30T10:00:00Z', lastUserText: '晚安' } } }),
    )
    expect((await call('/status')).json.dreamRegistry.sessions).toEqual([
      { sessionId: 's1', enabled: true, lastActiveAt: '2026-11-30T10:00:00Z', lastUserText: '晚安' },
    ])
    const r = await post({ action: 'save-config', dreamSession: { sessionId: 's1', enabled: false } })
    expect(r.status).toBe(200)
    expect(r.json).toMatchObject({ code: 'dream-session-switched', sessionId: 's1', enabled: false })
    expect(JSON.parse(readFileSync(join(root, '元', '梦会话.json'), 'utf8')).sessions.s1.enabled).toBe(false)
    expect((await post({ action: 'save-config', dreamSession: { sessionId: 'nope', enabled: false } })).status).toBe(400)
  })

  it('"Dream now" runs the night service as /dream does and answers with its words', async () => {
    // No session has recorded a model yet, so the night tries DSH's default one, which has no key here:
    // the night is recorded 「本次未产出」 and the answer says why, in /dream's words.
    const r = await post({ action: 'dream' })
    expect(r.json.ok).toBe(false)
    expect(r.json.message).toContain('模型调用失败')
    const journal = /梦境\/\d{4}\/\d{2}\/\d{4}-\d{2}-\d{2}\.md/.exec(r.json.message)?.[0]
    expect(journal, r.json.message).toBeDefined()
    expect(readFileSync(join(root, journal!), 'utf8')).toContain('本次未产出')
    expect(r.json).toMatchObject({ code: 'dream-dreamt', wrote: false, detail: expect.any(String) })
    // The calendar's ☾ day opens that night's journal.
    const night = /(\d{4}-\d{2}-\d{2})\.md$/.exec(journal!)?.[1]
    const day = await call(`/day?date=${night}`)
    expect(day.json.dream).toContain('本次未产出')
    expect(day.json.dream).not.toContain('<!--cyrene:')
  })

  it('a loopback POST without the pairing code (a curl from the model’s shell) is refused and changes nothing (issue 19)', async () => {
    const before = storeFiles()
    for (const body of [
      { action: 'save-config', settings: { nickname: '坏人' } },
      { action: 'save-config', settings: { siyuan: { enabled: true, url: 'http://127.0.0.9:9', tokenEnv: 'SIYUAN_X' } }, confirm: 'siyuan' },
      { action: 'backup' },
      { action: 'sync' },
    ]) {
      const r = await post(body, { pairing: null, origin: undefined })
      expect(r.status).toBe(401)
      expect(r.json).toMatchObject({ ok: false, pairing: 'missing' })
      expect(r.json.error).toContain('pairing code shown in the terminal')
    }
    expect((await post({ action: 'backup' }, { pairing: 'AAAAA-AAAAA' })).json.pairing).toBe('wrong')
    expect(storeFiles()).toEqual(before)
  })

  it('wrong codes from a shell are counted and change nothing: the code the person typed still works, the terminal is not written again', async () => {
    // A loop of wrong codes used to replace the code every fifth try: the person's page was refused, the terminal flooded (decision 317).
    const typed = pairing.current()
    const printed = shown.length
    for (let i = 0; i < 50; i++) expect((await post({ action: 'backup' }, { pairing: `GUESS-${String(i).padStart(5, '0')}` })).status).toBe(401)
    expect(shown.length).toBe(printed)
    expect((await post({ action: 'save-config', settings: { nickname: '小远' } }, { pairing: typed })).status).toBe(200)
    expect(pairing.wrongGuesses).toBeGreaterThanOrEqual(50)
  })

  it('SiYuan cannot be turned on or pointed elsewhere without the person’s second step, nor given any variable as its token', async () => {
    const before = storeFiles()
    const on = await post({ action: 'save-config', settings: { siyuan: { enabled: true, url: 'http://127.0.0.9:9' } } })
    expect(on.status).toBe(409)
    expect(on.json).toMatchObject({ ok: false, confirm: 'siyuan' })
    expect(on.json.error).toContain('http://127.0.0.9:9')
    for (const name of ['PATH', 'DEEPSEEK_API_KEY']) {
      const r = await post({ action: 'save-config', settings: { siyuan: { tokenEnv: name } }, confirm: 'siyuan' })
      expect(r.status).toBe(400)
      expect(r.json.error).toContain('is not a variable you allowed')
    }
    const allow = await post({ action: 'save-config', settings: { siyuan: { tokenEnvAllow: ['*'] } } })
    expect(allow.status).toBe(400)
    expect(allow.json.error).toContain('set only by you')
    expect(storeFiles()).toEqual(before)
    // The person confirms: then it is saved.
    const yes = await post({ action: 'save-config', settings: { siyuan: { enabled: true, url: 'http://127.0.0.9:9' } }, confirm: 'siyuan' })
    expect(yes.status).toBe(200)
    expect(JSON.parse(readFileSync(join(root, '元', 'settings.json'), 'utf8')).siyuan).toEqual({ enabled: true, url: 'http://127.0.0.9:9' })
    // While on, another address needs the second step again.
    expect((await post({ action: 'save-config', settings: { siyuan: { url: 'http://127.0.0.10:9' } } })).status).toBe(409)
    expect((await post({ action: 'save-config', settings: { siyuan: { enabled: false } } })).status).toBe(200)
  })

  it.each(['constructor', 'toString', '__proto__'])('a settings key found only on the prototype (%s) is refused with a clear message', async (key) => {
    const before = storeFiles()
    const r = await call('/action', { body: `{"action":"save-config","settings":{"${key}":{"a":1}}}`, origin: `http://127.0.0.1:${port}` })
    expect(r.status).toBe(400)
    expect(r.json.error).toContain(`"${key}" is not a setting (settings are nickname`)
    expect(storeFiles()).toEqual(before)
  })

  it('why a save is refused and what is wrong in the settings file reach the page in both languages (issue 22, decision 083)', async () => {
    const before = storeFiles()
    const refusals = [
      await post({ action: 'save-config', settings: { nickname: '好', dream: { time: '25:99' }, form: 'desk' } }),
      await post({ action: 'save-config', settings: { siyuan: { tokenEnv: 'PATH' } }, confirm: 'siyuan' }),
      await post({ action: 'save-config', settings: { siyuan: { tokenEnvAllow: ['PATH'] } } }),
    ]
    for (const r of refusals) {
      expect(r.status).toBe(400)
      expect(r.json.words.en).toBe(r.json.error)
      expect(otherLanguage('zh', r.json.words.zh), r.json.words.zh).toEqual([])
    }
    expect(refusals[0]!.json.words.zh).toContain('"form" 只能是 `chat, work` 之一')
    expect(refusals[1]!.json.words.zh).toContain('"PATH" 不是你允许的环境变量')
    expect(refusals[2]!.json.words.zh).toContain('"siyuan.tokenEnvAllow" 只能由你自己在 元/settings.json 里改')
    expect(storeFiles()).toEqual(before)
    const file = join(root, '元', 'settings.json')
    const kept = readFileSync(file, 'utf8')
    writeFileSync(file, JSON.stringify({ nope: 1, form: 'desk' }))
    const store = (host.ctx.get('cyreneMemory') as CyreneMemory).store()!
    try {
      await store.reloadSettings()
      const { json } = await call('/status')
      expect(json.settings.problemsIn.en).toEqual(json.settings.problems)
      expect(json.settings.problemsIn.zh).toHaveLength(2)
      expect(json.settings.problemsIn.zh.join('\n')).toContain('没有 "nope" 这个设置')
      expect(otherLanguage('zh', json.settings.problemsIn.zh.join('\n'))).toEqual([])
    } finally {
      writeFileSync(file, kept)
      await store.reloadSettings()
    }
  })

  it('the token is in no answer and no file of the store', () => {
    for (const a of answers) expect(a).not.toContain(TOKEN)
    for (const f of Object.keys(storeFiles())) expect(readFileSync(join(root, f)).includes(TOKEN)).toBe(false)
  })
})
