import type { Context } from '@deepseek-ai/cordis'
import { callWindowsClosed } from '../durable/host-writes.ts'
import { CallRunningError, configuredRemote, currentRemote, listConflicts, syncGit, type GitSyncReport } from '../memory/git.ts'
import type { MemoryStore } from '../memory/index.ts'

/** The git sync's state as the panel, `/cyrene sync` and the doctor show it. */
export interface GitSyncState {
  remote: string | undefined
  running: boolean
  lastRunAt?: string
  lastReport?: GitRunReport
  conflicts: number
}

/** A sync's report, or why none ran (no remote; git or the store refused: its message). */
export type GitRunReport = GitSyncReport | { ok: false; message: string; noRemote?: true; callRunning?: number }

export interface GitSyncRunner {
  /** One sync now (waits for one already running, then runs again: what was written meanwhile goes too). */
  runNow(): Promise<GitRunReport>
  state(): GitSyncState
  /** The remote 元/settings.json names now (read again when the file changed: the CLI may set it while DSH runs). */
  remote(): Promise<string | undefined>
  /** Counts the conflicts waiting in 元/冲突/ again (after a sync or a resolve). */
  refresh(): Promise<void>
}

const WRITE_EVENTS = new Set(['tool/result', 'turn/end'])
/** How long a sync that waited for a tool call keeps watching for its end before the 30-minute tick takes over. */
const CALL_WAIT_MS = 30 * 60_000

/**
 * The background git sync while DSH runs (CONTRACT#git-sync): with `git.remote`
 * set, a sync `debounceMs` after a write settles (the session's tool/result or
 * turn/end, SiYuan's rhythm) and every `tickMinutes` for what another machine
 * pushed. One sync at a time in this process; the store's write lock keeps it
 * apart from every other writer. Everything through `ctx`.
 */
export function startGitSync(ctx: Context, store: MemoryStore, config: { debounceMs: number; tickMinutes: number }, env: NodeJS.ProcessEnv): GitSyncRunner {
  const state: GitSyncState = { remote: configuredRemote(store), running: false, conflicts: 0 }
  let chain: Promise<unknown> = Promise.resolve()
  let timer: ReturnType<typeof setTimeout> | undefined
  let closed = false
  const refresh = async (): Promise<void> => {
    state.conflicts = (await listConflicts(store).catch(() => ({ conflicts: [] }))).conflicts.length
  }
  const remote = async (): Promise<string | undefined> => (state.remote = await currentRemote(store).catch(() => configuredRemote(store)))
  const once = async (): Promise<GitRunReport> => {
    if ((await remote()) === undefined)
      return { ok: false, message: 'no git remote is set (git.remote in 元/settings.json, or cyrene sync git --remote URL)', noRemote: true }
    state.running = true
    try {
      const report = await syncGit(store, { env })
      // What the merge brought may include other settings (key-wise merged): read them again.
      if (report.changed.includes('元/settings.json')) await store.reloadSettings()
      state.lastReport = report
      return report
    } catch (error) {
      const message = (error as Error).message
      const report: GitRunReport = error instanceof CallRunningError ? { ok: false, message, callRunning: error.waitedMs } : { ok: false, message }
      state.lastReport = report
      // Once the call has ended (and the guard has judged what it changed), the sync runs again.
      if (error instanceof CallRunningError) void callWindowsClosed(CALL_WAIT_MS).then((ended) => ended && soon())
      return report
    } finally {
      state.running = false
      state.lastRunAt = new Date().toISOString()
      await refresh()
    }
  }
  const runNow = (): Promise<GitRunReport> => {
    const next = chain.then(once, once)
    chain = next.catch(() => undefined)
    return next
  }
  const soon = (): void => {
    void remote().then((r) => {
      if (r !== undefined) schedule()
    })
  }
  const schedule = (): void => {
    if (closed) return
    if (timer !== undefined) clearTimeout(timer)
    timer = setTimeout(() => {
      timer = undefined
      void runNow().then((r) => {
        if (!r.ok) ctx.logger.warn(`cyrene git sync: ${r.message}`)
      })
    }, config.debounceMs)
    // Never what keeps a one-shot `dsh` alive: what is not sent goes at the next sync.
    timer.unref?.()
  }
  ctx.effect(() => {
    void refresh()
    const tick = setInterval(soon, config.tickMinutes * 60_000)
    tick.unref?.()
    return () => {
      closed = true
      clearInterval(tick)
      if (timer !== undefined) clearTimeout(timer)
    }
  }, 'cyrene: git sync')
  ctx.on('session/event' as any, (_session: unknown, event: { type?: string }) => {
    if (event?.type !== undefined && WRITE_EVENTS.has(event.type)) soon()
  })
  return { runNow, state: () => ({ ...state, remote: configuredRemote(store) }), remote, refresh }
}
