import type { Locator, Page } from 'playwright-core'

/**
 * DSH web's first-visit steps, as a person meets them in a fresh browser: the internal-testing
 * notice ("Continue"), then the API key ("Configure later"). Each appears only once its own
 * settings have loaded — a moment after the page is up, sometimes after a first click — as a modal
 * that makes the app root inert (`#root.inert`, DSH's OnboardingModal) until it is answered; the
 * notice's button is disabled while its answer is saved. So a click on the page lands only while
 * no step is open.
 */
const FIRST_VISIT_BUTTONS = ['Continue', 'Configure later', '继续', '稍后配置']

/** True while a first-visit step holds the page (the app root is inert). */
async function stepOpen(p: Page): Promise<boolean> {
  return await p.evaluate(() => (globalThis as any).document.getElementById('root')?.inert === true).catch(() => false)
}

/** Answers the first-visit steps that are open, as a person would; each click is bounded (a step may close under it). */
async function dismissFirstVisit(p: Page): Promise<void> {
  for (const name of FIRST_VISIT_BUTTONS) {
    const button = p.getByRole('button', { name, exact: true })
    if (await button.isVisible().catch(() => false)) await button.click({ timeout: 2000 }).catch(() => undefined)
  }
}

/**
 * Clicks `target` once DSH web lets it: answers any first-visit step, waits until the app root
 * takes input again, and clicks; a step that opens over the target between the two is answered on
 * the next round. The time counts from when the target is there, so a page slow to come up (a
 * loaded machine) does not eat the rounds.
 */
export async function clickThrough(p: Page, target: Locator, what: string, ms = 60_000): Promise<void> {
  await target.waitFor({ timeout: ms })
  const deadline = Date.now() + ms
  let last: unknown
  while (Date.now() < deadline) {
    await dismissFirstVisit(p)
    // The real condition for a click to land: no step holds the page (bounded, then the steps are looked at again).
    await p.waitForFunction(() => (globalThis as any).document.getElementById('root')?.inert !== true, undefined, { timeout: 2000 }).catch(() => undefined)
    if (await stepOpen(p)) continue
    try {
      await target.click({ timeout: 3000 })
      return
    } catch (error) {
      // A step opened over the target after the check: answered on the next round.
      last = error
    }
  }
  throw new Error(`${what} never took a click (${String(last ?? 'a first-visit step stayed open')})`)
}
