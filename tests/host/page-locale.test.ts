import { createServer, request, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { t, type Lang } from '../../i18n/index.ts'
import type { CyreneMemory } from '../../host/service.ts'
import { pageLocaleOf } from '../../panel/locale.ts'
import { PanelPairing } from '../../panel/pairing.ts'
import { PANEL_PREFIX, panelHandler } from '../../panel/routes.ts'
import { bootHost, type Host } from '../harness/host.ts'
import { otherLanguage } from '../harness/language.ts'

/**
 * Issue 22, decision 076: with no language stored in DSH's settings, the page
 * reports the language DSH web resolved to (`POST /locale`) and the chat
 * commands answer in it, before the DSH process's locale variables. The route
 * is the one the web row registers, served here in front of a real host with no
 * stored preference (the headless composition has no webServer; the browser
 * test drives it inside `dsh web`).
 */
let host: Host
let server: Server
let port: number
let agent: unknown
const LOCALE_VARS = ['LC_ALL', 'LC_MESSAGES', 'LANG'] as const
const savedEnv = Object.fromEntries(LOCALE_VARS.map((k) => [k, process.env[k]]))

interface Sent {
  body: string
  host?: string
  origin?: string | null
  type?: string
}

async function report({ body, host: authority, origin, type }: Sent): Promise<{ status: number; json: any }> {
  const headers: Record<string, string> = { host: authority ?? `127.0.0.1:${port}`, 'content-type': type ?? 'application/json' }
  if (origin !== null) headers.origin = origin ?? `http://127.0.0.1:${port}`
  return await new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: `${PANEL_PREFIX}/locale`, method: 'POST', headers }, (res) => {
      let text = ''
      res.on('data', (d) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(text) }))
    })
    req.on('error', reject)
    req.end(body)
  })
}

/** The language `/cyrene help` answers in, read off its title line from the catalogue, and checked for the other language. */
async function helpLang(): Promise<Lang | 'mixed'> {
  const reply = ((await host.command(agent, '/cyrene help')) as { text?: string } | undefined)?.text ?? ''
  for (const lang of ['zh', 'en'] as const) if (reply.includes(t('help.title', lang)) && otherLanguage(lang, reply).length === 0) return lang
  return 'mixed'
}

beforeAll(async () => {
  // The DSH process's own locale says Chinese, so an English answer can only come from the page.
  for (const k of LOCALE_VARS) delete process.env[k]
  process.env.LANG = 'zh_CN.UTF-8'
  host = await bootHost({ lang: 'none' })
  const memory = host.ctx.get('cyreneMemory') as CyreneMemory
  await memory.ready
  server = createServer(
    panelHandler({
      memory,
      trustedHosts: [],
      maxBodyBytes: 2048,
      env: {},
      pairing: new PanelPairing(() => {}),
      pageLocale: pageLocaleOf(host.ctx),
    }),
  )
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  port = (server.address() as AddressInfo).port
  agent = await host.createAgent('chat')
})
afterAll(async () => {
  await new Promise((r) => server?.close(r))
  await host?.dispose()
  for (const k of LOCALE_VARS) {
    if (savedEnv[k] === undefined) delete process.env[k]
    else process.env[k] = savedEnv[k]
  }
})

describe('the page reports its language (decision 076)', () => {
  it('no stored choice: LANG decides until the page reports; then the page’s language, from the next command on, without a pairing code', async () => {
    expect(await helpLang()).toBe('zh')
    const en = await report({ body: '{"lang":"en"}' })
    expect(en).toEqual({ status: 200, json: { ok: true, lang: 'en' } })
    expect(await helpLang()).toBe('en')
    // Without an Origin (not a browser) the Host check decides, as on the other routes.
    expect((await report({ body: '{"lang":"zh"}', origin: null })).status).toBe(200)
    expect(await helpLang()).toBe('zh')
    expect((await report({ body: '{"lang":"en"}' })).status).toBe(200)
  })

  it('refusals: bad JSON, a wrong lang, more fields, not JSON, a foreign Origin or Host; each says why and changes nothing', async () => {
    const refused: [Sent, number, RegExp][] = [
      [{ body: '{"lang":"zh"' }, 400, /not valid JSON/],
      [{ body: '"zh"' }, 400, /must be a JSON object/],
      [{ body: '{"lang":"fr"}' }, 400, /lang must be "zh" or "en"; nothing was changed/],
      [{ body: '{"lang":"ZH"}' }, 400, /lang must be "zh" or "en"/],
      [{ body: '{}' }, 400, /lang must be "zh" or "en"/],
      [{ body: '{"lang":"zh","action":"backup"}' }, 400, /unknown field\(s\): action; nothing was changed/],
      [{ body: 'lang=zh', type: 'application/x-www-form-urlencoded' }, 415, /send JSON/],
      [{ body: '{"lang":"zh"}', origin: 'http://evil.example' }, 403, /cross-origin/],
      [{ body: '{"lang":"zh"}', host: 'evil.example', origin: 'http://evil.example' }, 403, /host name is not trusted/],
      [{ body: `{"lang":"${'z'.repeat(4000)}"}` }, 413, /over 2048 bytes/],
    ]
    for (const [sent, status, why] of refused) {
      const r = await report(sent)
      expect({ sent, status: r.status, ok: r.json.ok }).toEqual({ sent, status, ok: false })
      expect(r.json.error).toMatch(why)
    }
    expect(pageLocaleOf(host.ctx).get()).toBe('en')
    expect(await helpLang()).toBe('en')
  })

  it('a choice stored in DSH’s settings beats what the page reported', async () => {
    await host.ctx.settings.update('locale', { preference: 'zh' })
    expect(await helpLang()).toBe('zh')
    await host.ctx.settings.update('locale', { preference: 'en' })
    expect(await helpLang()).toBe('en')
  })
})
