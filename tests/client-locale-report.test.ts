import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { runInNewContext } from 'node:vm'
import { describe, expect, it } from 'vitest'
import { PROJECT_ROOT } from './harness/host.ts'

/**
 * Decision 076: how the page tells the host its language (client/api.js
 * `postLocale`), against a recorded `fetch`: what is sent, what is tried again
 * and with which language. The real page and route meet in
 * tests/e2e/page-locale.test.ts.
 */
type Answer = { status: number; body: unknown } | 'network-error'
interface Sent {
  url: string
  method: string
  headers: Record<string, string>
  body: string
}

function loadApi(answers: Answer[]): { postLocale: (current: () => string, tries?: number, waitMs?: number) => Promise<unknown>; sent: Sent[] } {
  const sent: Sent[] = []
  const fetch = async (url: string, init: { method: string; headers: Record<string, string>; body: string }) => {
    sent.push({ url, method: init.method, headers: init.headers, body: init.body })
    const next = answers.shift() ?? 'network-error'
    if (next === 'network-error') throw new TypeError('Failed to fetch')
    return { ok: next.status >= 200 && next.status < 300, status: next.status, json: async () => next.body }
  }
  // client/ is CommonJS for DSH web's module loader, in an ESM package: run the file as the bundle does.
  const module = { exports: {} as Record<string, unknown> }
  runInNewContext(readFileSync(join(PROJECT_ROOT, 'client', 'api.js'), 'utf8'), { module, exports: module.exports, fetch, setTimeout })
  return { postLocale: module.exports.postLocale as never, sent }
}

describe('the page reports its language (client/api.js postLocale)', () => {
  it('sends {"lang"} as JSON to /locale, without a pairing code', async () => {
    const { postLocale, sent } = loadApi([{ status: 200, body: { ok: true, lang: 'en' } }])
    expect(await postLocale(() => 'en', 5, 0)).toEqual({ ok: true, lang: 'en' })
    expect(sent).toEqual([{ url: '/dsh-cyrene-philia093-0/locale', method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"lang":"en"}' }])
  })

  it('a route not up yet or no answer is tried again, with the language of that moment', async () => {
    let lang = 'en'
    const { postLocale, sent } = loadApi([{ status: 404, body: { ok: false } }, 'network-error', { status: 200, body: { ok: true, lang: 'zh' } }])
    const done = postLocale(
      () => {
        const now = lang
        lang = 'zh'
        return now
      },
      5,
      0,
    )
    expect(await done).toEqual({ ok: true, lang: 'zh' })
    expect(sent.map((s) => s.body)).toEqual(['{"lang":"en"}', '{"lang":"zh"}', '{"lang":"zh"}'])
  })

  it('a refusal (400) is final; after the last try it gives up with the host’s words', async () => {
    const refused = loadApi([{ status: 400, body: { ok: false, error: 'lang must be "zh" or "en"; nothing was changed' } }])
    await expect(refused.postLocale(() => 'fr', 5, 0)).rejects.toThrow('lang must be "zh" or "en"')
    expect(refused.sent).toHaveLength(1)
    const gone = loadApi([])
    await expect(gone.postLocale(() => 'en', 3, 0)).rejects.toThrow('no answer')
    expect(gone.sent).toHaveLength(3)
  })
})
