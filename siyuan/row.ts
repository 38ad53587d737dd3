import { watch, type FSWatcher } from 'chokidar'
import type { Context } from '@deepseek-ai/cordis'
import type { MemoryStore } from '../memory/index.ts'
import { SiyuanSync } from './sync.ts'

export interface TriggerConfig {
  debounceMs: number
  tickMinutes: number
}

const WRITE_EVENTS = new Set(['tool/result', 'turn/end'])

/**
 * When the sync runs: 1.5 s after a write settles — a model's write (the
 * session's `tool/result` / `turn/end`) or any change to the store's files
 * (the CLI, a hand edit, a restore), seen by watching the store — and every
 * 30 minutes to catch the rest. Everything is registered through `ctx`, so
 * unloading the row stops the watcher, the timers and the retries.
 */
export function startSiyuanSync(ctx: Context, store: MemoryStore, config: TriggerConfig, env: NodeJS.ProcessEnv): SiyuanSync {
  const sync = new SiyuanSync(store, { env })
  let timer: ReturnType<typeof setTimeout> | undefined
  // The store watcher runs only while sync is on: its first look at a large store (every file
  // lstat'ed on DSH's thread) costs tens of milliseconds of event loop for nothing when it is off.
  let watcher: FSWatcher | undefined
  const watching = (): void => {
    const on = store.settings.values.siyuan.enabled
    if (on && watcher === undefined) {
      watcher = watch(store.root, {
        ignoreInitial: true,
        // 元/ holds the sync's own ledger and the locks; temp files are half-written.
        ignored: (path: string) => path.includes('/元/') || path.endsWith('/元') || /\.tmp[-.]|\.lock$/.test(path),
        awaitWriteFinish: false,
        persistent: false,
      })
      watcher.on('all', soon)
      watcher.on('error', (error) => ctx.logger.warn(error))
    } else if (!on && watcher !== undefined) {
      void watcher.close()
      watcher = undefined
    }
  }
  const soon = (): void => {
    watching()
    if (!store.settings.values.siyuan.enabled) return
    if (timer !== undefined) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = undefined
      void sync.runNow().catch((error: unknown) => ctx.logger.warn(error))
    }, config.debounceMs)
    // Never what keeps a one-shot `dsh` alive: what is not sent yet is found by its hash at the next start.
    timer.unref?.()
  }
  sync.beforeRun = watching
  ctx.effect(() => {
    const tick = setInterval(soon, config.tickMinutes * 60_000)
    tick.unref?.()
    // A start with files still pending from a SiYuan that was down sends them now.
    soon()
    return () => {
      clearInterval(tick)
      if (timer !== undefined) clearTimeout(timer)
      sync.close()
      void watcher?.close()
      watcher = undefined
    }
  }, 'cyrene: SiYuan sync')
  ctx.on('session/event' as any, (_session: unknown, event: { type?: string }) => {
    if (event?.type !== undefined && WRITE_EVENTS.has(event.type)) soon()
  })
  return sync
}
