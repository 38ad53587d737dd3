import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { chromium, type Browser, type Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { webRpc } from '../../scripts/dsh-web.ts'
import { PROJECT_ROOT } from '../harness/host.ts'
import { until } from '../harness/until.ts'
import { clickThrough } from '../harness/dsh-web-page.ts'
import { commandRow, npmStart, send, stop, type DemoServer } from '../harness/demo-web.ts'
import { otherLanguage, wrongLanguage } from '../harness/language.ts'

/**
 * Issue 22, "done when": a newcomer's first hour, in DSH web's two languages,
 * each in a home of its own started by `npm start -- --offline` (the demo
 * model), seen by headless Chromium: remember, ask in other words,
 * `/cyrene nickname`, `/dream`, Settings → Cyrene, a bad value saved, a good
 * one, a dream day opened. Every visible text of the page is in the page's
 * language (the person's data aside: it is marked `data-cyrene-data`), and so
 * are the demo's answers. Screenshots go to .cache/artifacts/ (the README's
 * come from here: CYRENE_SCREENSHOTS=docs copies them into docs/).
 */
const WORK = join(PROJECT_ROOT, '.cache', 'e2e-first-hour')
const ARTIFACTS = join(PROJECT_ROOT, '.cache', 'artifacts')
const CHROMIUM = '/usr/bin/chromium'

interface Walk {
  lang: 'zh' | 'en'
  locale: string
  settings: string
  nav: string
  group: string
  remember: string
  rememberReply: string
  title: string
  nickname: string
  /** The `/cyrene nickname` row's reply, as the catalogue words it. */
  nicknameRow: string
  /** How the `/dream` row's reply begins. */
  dreamRow: string
  ask: string
  answer: string
  badHint: string
  saved: string
  restart: string
  dreamTitle: string
  journal: string
  calendar: string
}

const WALKS: Walk[] = [
  {
    lang: 'zh',
    locale: 'zh-CN',
    settings: '设置',
    nav: '昔涟 · 一页永恒',
    group: '未分组',
    remember: '记住：我养了一只叫团子的橘猫',
    rememberReply: '好，伙伴，我记下了，写进了今天的日档。',
    title: '我养了一只叫团子的橘猫',
    nickname: '阿远',
    nicknameRow: '好，以后叫你「阿远」。（写进了 元/settings.json，下一条消息起生效）',
    dreamRow: '昔涟做了 ',
    ask: '我的猫叫什么？',
    answer: '是团子呀，阿远——你跟我说过「我养了一只叫团子的橘猫」。',
    badHint: '请填以 http:// / https:// 开头的地址',
    saved: '已保存。',
    restart: '每晚做梦时间：重启 DSH 后生效。',
    dreamTitle: '☾ 那一夜的梦',
    journal: '今夜回看了 1 条记忆。',
    calendar: '记忆日历',
  },
  {
    lang: 'en',
    locale: 'en-US',
    settings: 'Settings',
    nav: 'Cyrene',
    group: 'Ungrouped',
    remember: 'remember: my dog is called Biscuit',
    rememberReply: 'Got it: I wrote that into today’s page.',
    title: 'my dog is called',
    nickname: 'Yuan',
    nicknameRow: 'All right, from now on you are "Yuan". (Saved in 元/settings.json; in effect from your next message.)',
    dreamRow: 'Cyrene dreamt of ',
    ask: 'What’s the name of my dog?',
    answer: 'It’s Biscuit, Yuan — you told me “my dog is called Biscuit”.',
    badHint: 'Give an address starting with http:// / https://',
    saved: 'Saved.',
    restart: 'Nightly dream time: in effect after DSH restarts.',
    dreamTitle: '☾ That night’s dream',
    journal: 'Tonight I looked back on 1 memory.',
    calendar: 'Memory calendar',
  },
]

/** The page's visible text without the person's data (memories, titles, names, technical details). */
async function pageWords(p: Page): Promise<string> {
  // Runs in the browser (no DOM types in this project's tsconfig): the element is handed over untyped.
  return await p.locator('[data-cyrene="settings"]').evaluate((root: any) => {
    const copy = root.cloneNode(true)
    for (const el of copy.querySelectorAll('[data-cyrene-data], details:not([open]) > :not(summary), input')) el.remove()
    root.parentNode.appendChild(copy)
    const text = copy.innerText as string
    copy.remove()
    return text
  })
}

/**
 * The whole section, not the strip DSH's settings dialog shows at a time: the dialog's scrolling
 * boxes are let grow for the picture (after every assertion), then the section is photographed.
 */
async function screenshotWhole(p: Page, path: string): Promise<void> {
  await p.setViewportSize({ width: 1280, height: 2600 })
  await p.locator('[data-cyrene="settings"]').evaluate((root: any) => {
    for (let el = root.parentElement; el !== null && el !== root.ownerDocument.body; el = el.parentElement) {
      el.style.maxHeight = 'none'
      el.style.height = 'auto'
      el.style.overflow = 'visible'
    }
  })
  await p.waitForTimeout(500)
  // DSH's dialog with its own navigation beside the section, so the picture shows how it sits in Settings.
  const dialog = p.locator('[role="dialog"]', { has: p.locator('[data-cyrene="settings"]') })
  await ((await dialog.count()) > 0 ? dialog.first() : p.locator('[data-cyrene="settings"]')).screenshot({ path })
}

const storeOf = (home: string) => join(home, 'cyrene-philia093-0')

for (const walk of WALKS) {
  describe(`the first hour in DSH web, ${walk.lang} (issue 22)`, () => {
    let server: DemoServer
    let browser: Browser
    let page: Page
    const chatAnswers: string[] = []
    // The night /dream wrote, read from the journal's name (a walk may cross midnight: never "today").
    let dreamNight = ''

    beforeAll(async () => {
      if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install chromium fonts-wqy-zenhei`)
      mkdirSync(WORK, { recursive: true })
      mkdirSync(ARTIFACTS, { recursive: true })
      // The person's language as chosen in DSH web (Settings → General → Language), docs/decisions/061.
      server = await npmStart(WORK, walk.lang, { preference: walk.lang })
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
      })
      page = await browser.newPage({ viewport: { width: 1280, height: 1000 }, locale: walk.locale })
      // The first change asks for the pairing code DSH's terminal showed (CONTRACT#pairing), as the person types it.
      page.on('dialog', (d) => {
        void (async () => {
          if (d.type() === 'confirm') return await d.accept()
          if (d.type() !== 'prompt') return await d.dismiss()
          // The code line reaches npm start's output a moment after the row prints it: wait for it as a person reads.
          let code = ''
          for (let i = 0; i < 100 && code === ''; i++) {
            code = [...(server?.output ?? '').matchAll(/Cyrene settings pairing code: ([A-Z0-9]{5}-[A-Z0-9]{5})/g)].at(-1)?.[1] ?? ''
            if (code === '') await new Promise((r) => setTimeout(r, 100))
          }
          await d.accept(code)
        })()
      })
    }, 600_000)

    afterAll(async () => {
      await browser?.close()
      stop(server)
      if (server?.home !== undefined) rmSync(server.home, { recursive: true, force: true })
    })

    it('remember: the first message of a chat session makes her write it down, and she says so in the person’s language', async () => {
      // The session is opened as DSH web's "new session" does (session.create in the workspace npm start made).
      const created = await webRpc(server.port, 'session.create', { cwd: join(server.home, 'workspace'), agentPreset: 'chat' })
      const sessionId = created?.result?.value?.sessionId as string
      await webRpc(server.port, 'session.prompt', { sessionId, mode: 'queue', content: [{ type: 'text', text: walk.remember }] })
      await page.goto(`http://127.0.0.1:${server.port}/`)
      await clickThrough(page, page.getByText(walk.group, { exact: true }).first(), 'the workspace group')
      await clickThrough(page, page.getByText(walk.title, { exact: true }).first(), 'the session')
      await page.getByText(walk.rememberReply).first().waitFor({ timeout: 90_000 })
      chatAnswers.push(walk.rememberReply)
      const written = readdirSync(join(storeOf(server.home), '岁月涟漪', '日档'), { recursive: true }).map(String)
      expect(written.some((f) => f.endsWith('.md'))).toBe(true)
    })

    it('/cyrene nickname, then a question in other words: answered from what recall and {{cyrene_memory}} put in front of her, by the new name', async () => {
      const settingsFile = join(storeOf(server.home), '元', 'settings.json')
      await send(page, `/cyrene nickname ${walk.nickname}`)
      await until('the nickname in 元/settings.json', () =>
        existsSync(settingsFile) && JSON.parse(readFileSync(settingsFile, 'utf8')).nickname === walk.nickname ? true : undefined,
      )
      // The row's reply, read whole: in the person's language (the name is data).
      const row = await commandRow(page, walk.nicknameRow.slice(0, 12))
      expect(row).toContain(walk.nicknameRow)
      expect(otherLanguage(walk.lang, row.replaceAll(walk.nickname, ''))).toEqual([])
      await send(page, walk.ask)
      await page.getByText(walk.answer).last().waitFor({ timeout: 90_000 })
      chatAnswers.push(walk.answer)
    })

    it('/dream writes a real (scripted) journal through memory_dream_journal', async () => {
      await send(page, '/dream')
      const dreams = join(storeOf(server.home), '梦境')
      const journal = await until('the dream journal', () =>
        existsSync(dreams)
          ? readdirSync(dreams, { recursive: true })
              .map(String)
              .find((f) => f.endsWith('.md'))
          : undefined,
      )
      // The command's row in the chat: it names the journal's path.
      await page
        .getByText(journal.split('/').at(-1) as string)
        .last()
        .waitFor({ timeout: 30_000 })
      dreamNight = /(\d{4}-\d{2}-\d{2})\.md$/.exec(journal as string)?.[1] ?? ''
      // The row's reply, read whole: which night, where the journal is, what was re-checked, in the person's language.
      const row = await commandRow(page, walk.dreamRow)
      expect(row).toContain(`${walk.dreamRow}${dreamNight}`)
      expect(row).toContain(journal.split('/').at(-1) as string)
      expect(row).not.toContain(walk.lang === 'zh' ? '本次未产出' : 'nothing came of it')
      expect(otherLanguage(walk.lang, row)).toEqual([])
      const text = readFileSync(join(dreams, journal as string), 'utf8')
      expect(text).toContain(walk.journal)
      expect(text).not.toContain('本次未产出')
      await page.screenshot({ path: join(ARTIFACTS, `chat-${walk.lang}.png`) })
    })

    it('the demo’s answers are in the person’s language (her words; the nickname and the memory are data)', () => {
      for (const answer of chatAnswers) {
        const words = answer
          .replaceAll(walk.nickname, '')
          .replace(/「[^」]*」|“[^”]*”/g, '')
          .replaceAll('伙伴', '')
        expect(wrongLanguage(walk.lang, words), answer).toEqual([])
      }
    })

    it('Settings → Cyrene: every visible text in the page’s language; snapshot, sessions and dream shown as a person reads them', async () => {
      await clickThrough(page, page.getByRole('button', { name: walk.settings, exact: true }).first(), 'Settings')
      await clickThrough(page, page.getByText(walk.nav, { exact: true }).first(), 'the Cyrene section')
      const panel = page.locator('[data-cyrene="settings"]')
      await panel.locator('[data-card="engine"]').waitFor({ timeout: 30_000 })
      await expect.poll(async () => await panel.locator('[data-cyrene="sessions"]').innerText(), { timeout: 20_000 }).toContain(walk.title)
      expect(await panel.locator('[data-cyrene="sessions"]').innerText()).not.toMatch(/session-[0-9a-f]{4}/)
      if (walk.lang === 'zh') expect(await panel.innerText()).not.toMatch(/\d{1,2}:\d{2}\s?[AP]M/)
      const words = await pageWords(page)
      // The check reads the page's own words (the data is what was taken out), so it has something to judge.
      expect(words).toContain(walk.calendar)
      expect(words).not.toContain(walk.title)
      expect(wrongLanguage(walk.lang, words)).toEqual([])
    })

    it('Back up now answers beside the button, in words; the snapshot card shows a time, not a folder name', async () => {
      const panel = page.locator('[data-cyrene="settings"]')
      await panel.locator('[data-action="backup"]').click()
      const note = panel.locator('[data-note="backup"]')
      await expect
        .poll(async () => await note.innerText(), { timeout: 30_000 })
        .toMatch(walk.lang === 'zh' ? /^已备份，共 \d+ 个文件。$/ : /^Backed up: \d+ files\.$/)
      const card = await panel.locator('[data-card="snapshots"]').innerText()
      expect(card).not.toMatch(/\d{4}-\d{2}-\d{2}/)
      expect(card).toMatch(/\d{1,2}:\d{2}/)
      expect(wrongLanguage(walk.lang, await pageWords(page))).toEqual([])
    })

    it('a bad SiYuan address: the field says what to write, beside it; nothing is written; no developer sentence anywhere', async () => {
      const panel = page.locator('[data-cyrene="settings"]')
      const settingsFile = join(storeOf(server.home), '元', 'settings.json')
      const before = readFileSync(settingsFile, 'utf8')
      await panel.locator('input[name="siyuanUrl"]').fill('siyuan on my laptop')
      await panel.locator('[data-action="save"]').click()
      const hint = panel.locator('[data-note="siyuan.url"]')
      await expect.poll(async () => await hint.innerText(), { timeout: 30_000 }).toContain(walk.badHint)
      expect(await panel.locator('input[name="siyuanUrl"]').getAttribute('aria-invalid')).toBe('true')
      expect(await panel.locator('[data-note="save"]').innerText()).toMatch(walk.lang === 'zh' ? /有 1 项没填对/ : /^1 value\(s\) are not right/)
      expect(await panel.innerText()).not.toContain('expect string to match')
      expect(await panel.innerText()).not.toContain('Nothing was written')
      expect(readFileSync(settingsFile, 'utf8')).toBe(before)
      expect(wrongLanguage(walk.lang, await pageWords(page))).toEqual([])
    })

    it('a good save: written, and beside Save what is in effect now and what after a restart', async () => {
      const panel = page.locator('[data-cyrene="settings"]')
      await panel.locator('input[name="siyuanUrl"]').fill('http://127.0.0.1:6806')
      await panel.locator('select[name="dreamTime"]').selectOption('22:30')
      await panel.locator('[data-action="save"]').click()
      const note = panel.locator('[data-note="save"]')
      await expect.poll(async () => await note.innerText(), { timeout: 30_000 }).toContain(walk.saved)
      expect(await note.innerText()).toContain(walk.restart)
      expect(await panel.locator('[data-note="siyuan.url"]').count()).toBe(0)
      expect(JSON.parse(readFileSync(join(storeOf(server.home), '元', 'settings.json'), 'utf8'))).toMatchObject({
        nickname: walk.nickname,
        dream: { time: '22:30' },
        siyuan: { url: 'http://127.0.0.1:6806' },
      })
      // The time in the page's locale format: 22:30 in Chinese, 10:30 PM in English.
      const shown = await panel.locator('select[name="dreamTime"] option:checked').innerText()
      expect(shown).toBe(walk.lang === 'zh' ? '22:30' : '10:30 PM')
      expect(wrongLanguage(walk.lang, await pageWords(page))).toEqual([])
    })

    it('the calendar: a ☾ day opens that night’s dream and the day’s memories with their kind in the page’s language; month and year jump directly', async () => {
      const panel = page.locator('[data-cyrene="settings"]')
      expect(dreamNight).toMatch(/^\d{4}-\d{2}-\d{2}$/)
      const today = dreamNight
      await panel.locator('select[name="calendarYear"]').selectOption(today.slice(0, 4))
      await panel.locator('select[name="calendarMonth"]').selectOption(String(Number(today.slice(5, 7)) - 1))
      const cell = panel.locator(`[data-date="${today}"]`)
      expect(await cell.locator('[data-mark="dream"]').count()).toBe(1)
      await cell.click()
      const day = panel.locator('[data-cyrene="day"]')
      await expect.poll(async () => await day.innerText(), { timeout: 30_000 }).toContain(walk.dreamTitle)
      expect(await day.locator('[data-cyrene="dream"]').innerText()).toContain(walk.journal)
      expect(await day.locator('[data-kind="note"]').innerText()).toBe(walk.lang === 'zh' ? '随记' : 'note')
      expect(await day.innerText()).toContain(walk.title)
      expect(wrongLanguage(walk.lang, await pageWords(page))).toEqual([])
      await screenshotWhole(page, join(ARTIFACTS, `settings-page-${walk.lang}.png`))
      // Month and year are chosen, not clicked through: March three years on in two choices.
      await panel.locator('select[name="calendarYear"]').selectOption(String(Number(today.slice(0, 4)) - 1))
      await panel.locator('select[name="calendarMonth"]').selectOption('2')
      expect(await panel.locator('[data-date]').first().getAttribute('data-date')).toBe(`${Number(today.slice(0, 4)) - 1}-03-01`)
      if (process.env.CYRENE_SCREENSHOTS === 'docs') {
        copyFileSync(join(ARTIFACTS, `settings-page-${walk.lang}.png`), join(PROJECT_ROOT, 'docs', `settings-page-${walk.lang}.png`))
        // Each README shows the chat in its own language: README.zh.md the zh walk's, README.md the en walk's.
        copyFileSync(
          join(ARTIFACTS, `chat-${walk.lang}.png`),
          join(PROJECT_ROOT, 'docs', walk.lang === 'zh' ? 'chat-in-dsh-web.png' : 'chat-in-dsh-web-en.png'),
        )
      }
    })
  })
}
