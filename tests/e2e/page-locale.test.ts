import { mkdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { t } from '../../i18n/index.ts'
import { webRpc } from '../../scripts/dsh-web.ts'
import { commandRow, npmStart, send, stop, type DemoServer } from '../harness/demo-web.ts'
import { clickThrough } from '../harness/dsh-web-page.ts'
import { PROJECT_ROOT } from '../harness/host.ts'
import { otherLanguage } from '../harness/language.ts'

/**
 * Issue 22, decision 076: a person whose browser speaks one language and who
 * never picks one in DSH's Settings gets DSH web in the browser's language; the
 * page tells the host (`POST /locale`), so Cyrene's chat commands answer in it
 * too. The DSH process's own LANG says the other language, so only the page's
 * report can make the answer right. `npm start -- --offline`, no stored
 * preference, headless Chromium with the browser's language set.
 */
const WORK = join(PROJECT_ROOT, '.cache', 'e2e-page-locale')
const ARTIFACTS = join(PROJECT_ROOT, '.cache', 'artifacts')
const CHROMIUM = '/usr/bin/chromium'

const WALKS = [
  { lang: 'en', browser: 'en-US', processLang: 'zh_CN.UTF-8', group: 'Ungrouped', listening: 'I’m listening' },
  { lang: 'zh', browser: 'zh-CN', processLang: 'en_US.UTF-8', group: '未分组', listening: '嗯，我在听哦' },
] as const

/** A first message without words (the session's title, too). */
const WORDLESS = '🌙✨'

for (const walk of WALKS) {
  describe(`a ${walk.browser} browser, no language stored, DSH started with LANG=${walk.processLang}`, () => {
    let server: DemoServer
    let browser: Browser
    let page: Page

    beforeAll(async () => {
      mkdirSync(WORK, { recursive: true })
      mkdirSync(ARTIFACTS, { recursive: true })
      server = await npmStart(WORK, `locale-${walk.lang}`, { env: { LC_ALL: '', LC_MESSAGES: '', LANG: walk.processLang } })
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
      })
      page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, locale: walk.browser })
    }, 600_000)

    afterAll(async () => {
      await browser?.close()
      stop(server)
      if (server?.home !== undefined) rmSync(server.home, { recursive: true, force: true })
    })

    it(`/cyrene help answers in the page's language (${walk.lang}), not in LANG's`, async () => {
      const created = await webRpc(server.port, 'session.create', { cwd: join(server.home, 'workspace'), agentPreset: 'chat' })
      const sessionId = created?.result?.value?.sessionId as string
      await webRpc(server.port, 'session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text: WORDLESS }] })
      await page.goto(`http://127.0.0.1:${server.port}/`)
      // DSH web itself resolved the browser's language: its own words are in it.
      await clickThrough(page, page.getByText(walk.group, { exact: true }).first(), 'the workspace group')
      await clickThrough(page, page.getByText(WORDLESS, { exact: true }).first(), 'the session')
      await send(page, '/cyrene help')
      const title = t('help.title', walk.lang)
      const row = await commandRow(page, title.slice(0, 12))
      expect(row).toContain(title)
      expect(otherLanguage(walk.lang, row)).toEqual([])
      await page.screenshot({ path: join(ARTIFACTS, `page-locale-help-${walk.lang}.png`) })
    })

    it(`the demo model answers a message without words in the page's language too (decision 077)`, async () => {
      await send(page, '✨')
      await page.getByText(walk.listening).last().waitFor({ timeout: 90_000 })
      await page.screenshot({ path: join(ARTIFACTS, `page-locale-wordless-${walk.lang}.png`) })
    })
  })
}
