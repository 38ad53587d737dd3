import type { Context } from '@deepseek-ai/cordis'
import Schema from '@deepseek-ai/schemastery'
import type { PanelDeps } from './deps.ts'
import { PANEL_PREFIX, panelHandler } from './routes.ts'
import { PanelPairing, terminalShow } from './pairing.ts'
import { pageLocaleOf } from './locale.ts'
import { describeOutcome, type CyreneDream } from '../night/row.ts'
import { startSiyuanSync } from '../siyuan/row.ts'
import { startGitSync } from '../gitsync/row.ts'
import { t } from '../i18n/index.ts'
import { uiLang } from '../runtime/lang.ts'

/**
 * Row `cyrene-panel`, the package's bare export. DSH web finds a plugin's
 * browser half through a loader row whose module name is the package name, so
 * this row is what makes the settings page load at all; it also serves the
 * page's routes under /dsh-cyrene-philia093-0 (web profile only: without a
 * webServer the sub-plugin never runs).
 */
export const name = 'cyrene-panel'

export interface Config {
  trustedHosts: string[]
  maxBodyBytes: number
  syncDebounceMs: number
  syncTickMinutes: number
}

export const Config: Schema<Config> = Schema.object({
  trustedHosts: Schema.array(Schema.string().pattern(/^[^\s/@]+$/))
    .default([])
    .description('host names (host or host:port) besides loopback the panel answers; e.g. the name DSH web is reached by on your LAN'),
  maxBodyBytes: Schema.natural()
    .min(1024)
    .max(1024 * 1024)
    .default(64 * 1024)
    .description('largest POST body the panel reads'),
  syncDebounceMs: Schema.natural().min(100).default(1500).description('SiYuan and git: wait this long after the last write before sending'),
  syncTickMinutes: Schema.natural().min(1).default(30).description('SiYuan and git: a full pass this often, for whatever the triggers missed'),
})

/**
 * "Dream now" is `/dream`: the night's service, the same lease, the same words;
 * `code` and the night's data let the page word the answer in its own language.
 */
export function dreamNowOf(ctx: Context): NonNullable<PanelDeps['dreamNow']> {
  return async () => {
    const dream = ctx.get('cyreneDream') as CyreneDream | undefined
    const lang = uiLang(ctx)
    if (dream === undefined) return { ok: false, code: 'dream-no-service', message: t('chat.dream.notMounted', lang) }
    const outcome = await dream.dream('panel', true)
    const said = describeOutcome(outcome, lang)
    const data =
      outcome.kind === 'dreamt'
        ? { night: outcome.night, covered: outcome.covered, wrote: outcome.wrote, ...(outcome.error === undefined ? {} : { detail: outcome.error }) }
        : {}
    return { ok: said.kind === 'success', code: `dream-${outcome.kind}`, message: said.text ?? '', ...data }
  }
}

export function apply(ctx: Context, config: Config): void {
  ctx.inject(['cyreneMemory', 'cyreneSeats'], async (ctx) => {
    const memory = ctx.cyreneMemory
    const seats = ctx.cyreneSeats
    await memory.ready
    const deps: Omit<PanelDeps, 'pairing'> = {
      memory,
      trustedHosts: config.trustedHosts,
      maxBodyBytes: config.maxBodyBytes,
      env: process.env,
      pageLocale: pageLocaleOf(ctx),
    }
    deps.dreamNow = dreamNowOf(ctx)
    deps.guard = () => (ctx.get('cyreneStoreGuard') as { counts(): { refused: number; undone: number } } | undefined)?.counts()
    // Only the process that holds the memory engine mirrors it.
    const store = memory.store()
    if (store !== undefined) {
      const rhythm = { debounceMs: config.syncDebounceMs, tickMinutes: config.syncTickMinutes }
      // Seated where /cyrene sync and the doctor find them; cleared when this row unloads.
      deps.sync = seats.siyuanSeat.take(ctx, startSiyuanSync(ctx, store, rhythm, process.env), 'siyuan sync')
      deps.gitSync = seats.gitSyncSeat.take(ctx, startGitSync(ctx, store, rhythm, process.env), 'git sync')
    }
    ctx.inject(['webServer'], (ctx) => {
      // The page's pairing code is made, and shown, only where there is a page.
      const pairing = new PanelPairing(terminalShow(process.env))
      seats.pairingSeat.take(ctx, pairing, 'pairing')
      ctx.effect(
        () =>
          (ctx as any).webServer.register({
            kind: 'prefix',
            path: PANEL_PREFIX,
            handler: panelHandler({ ...deps, pairing } as PanelDeps, (e) => ctx.logger.warn(e)),
          }),
        'cyrene: panel routes',
      )
    })
  })
}
