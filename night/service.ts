import { Service, type Context } from '@deepseek-ai/cordis'
import type { GenerateOptions, StreamChunk } from '@deepseek-ai/dsh-llm'
import { localDate } from '../memory/paths.ts'
import { readVolumes } from '../memory/person.ts'
import type { MemoryStore } from '../memory/index.ts'
import { parseNightTime } from './clock.ts'
import { forgetUnknown, noteSession, readRegistry, scheduledSessions, updateRegistry, type RegistryRead, type SeenSession } from './registry.ts'
import type { CyreneMemory } from '../host/service.ts'
import { MEMORY_TITLE } from '../host/memory-block.ts'
import { personTextOf } from '../host/person-lines.ts'
import { dataFrame } from '../prompt/index.ts'
import type { DreamConfig } from './config.ts'
import type { DreamState } from './types.ts'
import { dreamNight, nightWake, type NightDeps, type NightOutcome } from './night.ts'
import { dreamSystem } from './persona.ts'
import { NightTimer, realTimer, type SetTimer } from './scheduler.ts'

declare module '@deepseek-ai/cordis' {
  interface Context {
    cyreneDream: CyreneDream
  }
}

/** What the service reads of a DSH agent (narrowed: DSH's types are wide). */
interface SeenAgent {
  options?: { provider?: string; model?: string }
  session: { id: string; events?: ReadonlyArray<{ type: string; time?: number | string; data?: unknown }> }
  ctx: Context
}

/**
 * The night (issue 11, CONTRACT#night): the dream registry kept from DSH's
 * agent events, a nightly task per enabled live session plus one host-level
 * timer (DSH web creates agents lazily, so the host's timer is the one that
 * always exists), the dream itself (night.ts), and the daily snapshot while
 * DSH runs. Every timer and listener is registered through ctx: unloading the
 * row clears them. Fails open: a problem is a doctor line, never a failed turn.
 */
export class CyreneDream extends Service {
  static inject = ['cyreneMemory']
  config: DreamConfig
  readonly ready: Promise<void>
  private store: MemoryStore | undefined
  private writes: Promise<unknown> = Promise.resolve()
  private timer: NightTimer
  private readonly agentTimers = new Map<string, NightTimer>()
  private registryProblem: string | undefined
  private lastOutcome: string | undefined
  private lastError: string | undefined
  private snapshotError: string | undefined
  private running: Promise<NightOutcome | undefined> | undefined
  /** Read once while the context is active: a one-shot DSH may unload the row before start() goes on. */
  private readonly memoryService: CyreneMemory
  private stopped = false
  /** Sessions in the registry (read at start, added as they are seen): only their messages are noted. */
  private readonly known = new Set<string>()
  private readonly sightings = new Map<string, SeenSession>()
  private readonly toArm = new Map<string, SeenAgent>()
  private flushCancel: (() => void) | undefined
  /** Injected by tests to drive the clock; the store's clock is the other half. */
  setTimer: SetTimer = realTimer

  constructor(ctx: Context, config: DreamConfig) {
    super(ctx, 'cyreneDream')
    this.config = config
    this.timer = this.nightTimer(config.at)
    ctx.on('agent/created', ({ agent }) => this.onAgent(agent as unknown as SeenAgent))
    ctx.on('session/event', (session, event) => this.onEvent(String(session.id), event as { type: string; data?: unknown }))
    this.memoryService = ctx.cyreneMemory
    ctx.effect(
      () => () => {
        this.stopped = true
        this.flushCancel?.()
        this.timer.stop()
        for (const t of this.agentTimers.values()) t.stop()
      },
      'cyrene: stop the night timers',
    )
    // Never rejects: a night that cannot start is a doctor line, not a failed DSH.
    this.ready = this.start().catch((e: Error) => {
      this.lastError = `the night did not start: ${e.message}`
    })
  }

  private nightTimer(at: string): NightTimer {
    return new NightTimer({
      now: () => this.now(),
      at: parseNightTime(at),
      maxWakeMs: this.config.maxWakeMinutes * 60_000,
      onWake: () => this.wake('schedule'),
      setTimer: (f, ms) => this.setTimer(f, ms),
    })
  }

  /**
   * The person's own choices win over the row's (CONTRACT#settings layering): `dream.time` and
   * `dream.maxScheduledSessions` set in 元/settings.json (the panel, by hand) are read once at
   * start, which is why saving them says "needs a restart".
   */
  private async personsNight(store: MemoryStore): Promise<void> {
    const { value } = await store.readMetaJson<{ dream?: { time?: unknown; maxScheduledSessions?: unknown } }>('settings.json', {})
    const layered = store.settings.values.dream
    if (typeof value?.dream?.time === 'string' && layered.time === value.dream.time) {
      this.config = { ...this.config, at: layered.time }
      this.timer = this.nightTimer(layered.time)
    }
    if (typeof value?.dream?.maxScheduledSessions === 'number' && layered.maxScheduledSessions === value.dream.maxScheduledSessions)
      this.config = { ...this.config, maxScheduledSessions: layered.maxScheduledSessions }
  }

  private memory(): CyreneMemory {
    return this.memoryService
  }

  /** A service of the host, or undefined (also once this row is unloading: then the context is inactive). */
  private optional(name: string): unknown {
    if (this.stopped) return undefined
    try {
      return this.ctx.get(name as never)
    } catch {
      return undefined
    }
  }

  private now(): Date {
    return this.store?.now() ?? new Date()
  }

  private async start(): Promise<void> {
    await this.memory().ready
    if (this.stopped) return
    this.store = this.memory().store()
    if (this.store === undefined) return
    await this.personsNight(this.store)
    await this.cleanRegistry()
    for (const id of Object.keys((await readRegistry(this.store)).registry.sessions)) this.known.add(id)
    if (this.stopped) return
    // Nights missed while DSH was not running: one catch-up dream now (night.ts caps the days).
    await this.wake('catch-up')
    // The host timer runs even with dreams off: it also takes the daily snapshot while DSH runs.
    if (!this.stopped) this.timer.start()
  }

  /** Sessions DSH no longer knows are dropped at start; a corrupt registry is kept aside and rebuilt. */
  private async cleanRegistry(): Promise<void> {
    const store = this.store!
    let known: Set<string> | undefined
    try {
      const query = this.optional('sessionQuery') as { listSessions(): Promise<Array<{ header: { id: string } }>> } | undefined
      if (query !== undefined) known = new Set((await query.listSessions()).map((r) => String(r.header.id)))
      // An empty answer is more likely a persistence that is not there than every session gone: keep the registry.
      if (known?.size === 0) known = undefined
    } catch {
      known = undefined
    }
    const before = await readRegistry(store)
    if (known === undefined && before.problem === undefined) return
    await this.registryWrite((r) => {
      if (known !== undefined) forgetUnknown(r, known)
    })
  }

  private registryWrite(change: Parameters<typeof updateRegistry>[1]): Promise<RegistryRead | undefined> {
    const store = this.store
    if (store === undefined) return Promise.resolve(undefined)
    const next = this.writes.then(async () => {
      const read = await updateRegistry(store, change)
      if (read.keptAside !== undefined) this.registryProblem = `${read.problem}; kept aside as 元/${read.keptAside} and started afresh`
      return read
    })
    this.writes = next.catch((e: Error) => {
      this.registryProblem = `元/梦会话.json could not be written: ${e.message}`
    })
    return next.catch(() => undefined)
  }

  private presetOf(agent: SeenAgent): string | undefined {
    const roster = this.optional('agentPresets') as { composedPreset(c: Context): string | undefined } | undefined
    try {
      return roster?.composedPreset(agent.ctx)
    } catch {
      return undefined
    }
  }

  private onAgent(agent: SeenAgent): void {
    const roots = (this.optional('agents') as { roots(): unknown[] } | undefined)?.roots() ?? []
    if (!roots.includes(agent)) return
    const preset = this.presetOf(agent)
    if (preset === undefined || !this.config.presets.includes(preset)) return
    const id = String(agent.session.id)
    this.known.add(id)
    this.toArm.set(id, agent)
    this.noteSighting({ id, preset, at: this.now(), provider: agent.options?.provider, model: agent.options?.model })
  }

  private onEvent(sessionId: string, event: { type: string; data?: unknown }): void {
    if (event.type !== 'user/message' || !this.known.has(sessionId)) return
    const text = personTextOf(event.data)
    if (text !== undefined) this.noteSighting({ id: sessionId, preset: '', at: this.now(), userText: text })
  }

  /**
   * Sightings are gathered and written together after `registryFlushMs`: a
   * chat's every message does not take the store's write lock, and a burst of
   * messages is one write.
   */
  private noteSighting(seen: SeenSession): void {
    const had = this.sightings.get(seen.id)
    this.sightings.set(seen.id, {
      ...had,
      ...Object.fromEntries(Object.entries(seen).filter(([, v]) => v !== undefined && v !== '')),
      id: seen.id,
      preset: seen.preset !== '' ? seen.preset : (had?.preset ?? ''),
      at: seen.at,
    })
    if (this.flushCancel !== undefined || this.stopped) return
    this.flushCancel = realTimer(() => {
      this.flushCancel = undefined
      void this.flushSightings()
    }, this.config.registryFlushMs)
  }

  private async flushSightings(): Promise<void> {
    await this.ready
    await this.writeSightings()
  }

  /** Write what was gathered now (the dream calls it first, so its prompt has the latest lines); does not wait for `ready`. */
  private async writeSightings(): Promise<void> {
    if (this.stopped || this.store === undefined || this.sightings.size === 0) return
    const batch = [...this.sightings.values()]
    this.sightings.clear()
    const read = await this.registryWrite((r) => {
      for (const seen of batch) noteSession(r, seen)
    })
    if (read === undefined) return
    for (const seen of batch) {
      const agent = this.toArm.get(seen.id)
      this.toArm.delete(seen.id)
      if (agent !== undefined) this.armAgentTask(agent, seen.id)
    }
  }

  /** A nightly task for an enabled session while it is live (at most maxScheduledSessions); cleared with the agent. */
  private armAgentTask(agent: SeenAgent, id: string): void {
    if (!this.config.enabled || this.agentTimers.has(id) || this.store === undefined) return
    void readRegistry(this.store).then(({ registry }) => {
      if (this.stopped || !scheduledSessions(registry, this.config.maxScheduledSessions).some(([sid]) => sid === id)) return
      const t = new NightTimer({
        now: () => this.now(),
        at: parseNightTime(this.config.at),
        maxWakeMs: this.config.maxWakeMinutes * 60_000,
        onWake: () => this.wake(`session ${id}`),
        setTimer: (f, ms) => this.setTimer(f, ms),
      })
      try {
        agent.ctx.effect(() => {
          this.agentTimers.set(id, t)
          t.start()
          return () => {
            t.stop()
            this.agentTimers.delete(id)
          }
        }, 'cyrene: nightly dream task')
      } catch {
        // The agent was disposed meanwhile (its context is inactive): no task for it.
      }
    })
  }

  /** Today's lines of the people in live sessions: a quote the dream supplies may come from them. */
  private liveUserLines(): string[] {
    const today = localDate(this.now())
    const agents = ((this.optional('agents') as { roots(): SeenAgent[] } | undefined)?.roots() ?? []) as SeenAgent[]
    const out: string[] = []
    for (const a of agents)
      for (const e of a.session.events ?? []) {
        if (e.type !== 'user/message') continue
        const when = e.time === undefined ? today : localDate(new Date(e.time))
        const text = personTextOf(e.data)
        if (text !== undefined && when === today) out.push(text)
      }
    return out
  }

  /** Every wake: today's snapshot if due, then the night's dream if due (night.ts `nightWake`). */
  private async wake(trigger: string): Promise<void> {
    if (this.stopped || this.store === undefined) return
    await this.exclusive(async (deps) => {
      const r = await nightWake(deps, trigger, this.config.enabled)
      this.snapshotError = r.snapshotError
      return r.outcome
    }, trigger)
  }

  /** Run the night's dream (force: `/dream`); one at a time in this process, one per DSH_HOME by the lease. */
  async dream(trigger: string, force: boolean): Promise<NightOutcome | { kind: 'no-engine' }> {
    await this.ready
    return await this.dreamNow(trigger, force)
  }

  /** The dream itself; start() calls it before `ready` settles (the catch-up), so it must not wait for it. */
  private async dreamNow(trigger: string, force: boolean): Promise<NightOutcome | { kind: 'no-engine' }> {
    if (this.store === undefined) return { kind: 'no-engine' }
    return (await this.exclusive(async (deps) => await dreamNight(deps, { trigger, force }), trigger)) ?? { kind: 'no-engine' }
  }

  /** One night task at a time in this process (one per DSH_HOME is the lease's job); notes the outcome for the doctor. */
  private async exclusive(task: (deps: NightDeps) => Promise<NightOutcome | undefined>, trigger: string): Promise<NightOutcome | undefined> {
    const store = this.store!
    while (this.running !== undefined) await this.running.catch(() => undefined)
    await this.writeSightings()
    const run = task(this.deps(store))
    this.running = run
    try {
      const outcome = await run
      if (outcome !== undefined) {
        this.lastOutcome = `${new Date().toISOString()} ${trigger}: ${outcome.kind === 'dreamt' ? `${outcome.night} (${outcome.wrote ? 'journal written' : '本次未产出'})` : outcome.kind}`
        this.lastError =
          outcome.kind === 'dreamt'
            ? outcome.error
            : outcome.kind === 'no-model'
              ? 'no session has a model route yet and dream.provider/model are empty'
              : undefined
      }
      return outcome
    } catch (e) {
      this.lastError = (e as Error).message
      throw e
    } finally {
      this.running = undefined
    }
  }

  private deps(store: MemoryStore): NightDeps {
    const llm = this.optional('llm') as { stream(o: GenerateOptions): AsyncIterable<StreamChunk> } | undefined
    return {
      store,
      config: this.config,
      stream: (o) => {
        if (llm === undefined) throw new Error('no llm service in this DSH')
        return llm.stream(o)
      },
      system: () => {
        const block = this.memory().composedMemory()
        return dreamSystem({ nickname: '伙伴', memory: dataFrame(MEMORY_TITLE, block.text === '' ? '（暂时还没有写下的记忆。）' : block.text), model: 'dream' })
      },
      liveUserLines: () => this.liveUserLines(),
      defaultRoute: () => {
        try {
          const pick = (this.optional('agentDefaultModel') as { currentSelection(): { provider: string; model: string } } | undefined)?.currentSelection()
          return pick === undefined ? undefined : { provider: pick.provider, model: pick.model }
        } catch {
          return undefined
        }
      },
      wuyuVersion: async () => {
        const v = await readVolumes(store)
        return v?.volumes.find((x) => x.id === v.current)?.wuyu_version || undefined
      },
    }
  }

  /** `/cyrene dream on|off` for one session (registered on the spot if needed). */
  async setEnabled(sessionId: string, preset: string, enabled: boolean): Promise<void> {
    await this.ready
    if (this.store === undefined) throw new Error('the memory engine is not running here (see /cyrene doctor); nothing was changed')
    this.known.add(sessionId)
    await this.writeSightings()
    const read = await this.registryWrite((r) => {
      noteSession(r, { id: sessionId, preset, at: this.now() })
      r.sessions[sessionId]!.enabled = enabled
    })
    if (read === undefined) throw new Error(this.registryProblem ?? 'the dream registry could not be written')
    if (!enabled) {
      this.agentTimers.get(sessionId)?.stop()
      this.agentTimers.delete(sessionId)
    }
  }

  doctorState(): DreamState {
    return {
      enabled: this.config.enabled,
      at: this.config.at,
      nextWakeAt: this.timer.nextWakeAt?.toISOString(),
      tasks: [...this.agentTimers.keys()],
      registryProblem: this.registryProblem,
      lastOutcome: this.lastOutcome,
      lastError: this.lastError,
      snapshotError: this.snapshotError,
    }
  }
}
