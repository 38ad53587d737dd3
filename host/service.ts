import { Service, type Context } from '@deepseek-ai/cordis'
import { EngineBusyError, linkEntries, startEngine, writeAnchor, type LinkInput, type LinkResult, type MemoryStore, type WriteResult } from '../memory/index.ts'
import { writeVoiceSetting, type AnchorKey, type VoiceSettingKey } from '../memory/person.ts'
import { localDate, resolveRoot } from '../memory/paths.ts'
import type { NewEntry } from '../memory/format.ts'
import { charCount, promptSafe } from '../prompt/index.ts'
import { quoteOccurs } from './person-lines.ts'
import { StoreTexts } from './store-file.ts'
import { RunningRecall, type RecalledEntry } from '../recall/index.ts'
import { findNearDuplicate } from '../memory/near-duplicate.ts'
import { MemoryReader } from './memory-reader.ts'
import type { MemoryBlockResult } from './memory-block.ts'
import { VoiceSettingsReader } from './voice-settings.ts'
import type { HostServiceState } from './doctor-service.ts'
import { PERSONA_SOURCES } from './persona-sources.ts'

/** How long a turn waits for a memory engine or recall index that is still starting. */
const STARTUP_WAIT_MS = 5000

declare module '@deepseek-ai/cordis' {
  interface Context {
    cyreneMemory: CyreneMemory
  }
}

/** What the model's memory_write did: written (day or pending), or nothing added because the same memory is already kept. */
export type ModelWriteResult = WriteResult | { id: string; gate: 'duplicate'; file: string; reasons: string[]; notes: string[] }

export interface ServiceConfig {
  rootDir: string
  memoryChars: number
  recentDays: number
  /** The row's settings layer: defaults ← this ← 元/settings.json (memory/settings.ts). */
  settings: Record<string, unknown>
}

type EngineState =
  | { kind: 'starting' }
  | { kind: 'ready'; store: MemoryStore; root: string; problems: string[]; reader: MemoryReader }
  | { kind: 'busy'; root: string; detail: string; holder?: { lock: string; pid: string } }
  | { kind: 'failed'; detail: string }

/**
 * The host-plane service every Cyrene preset row reads through `ctx.get`.
 * It opens the memory engine of this DSH_HOME, reads the text of
 * `{{cyrene_memory}}` when DSH assembles a step, and it never lets a memory problem become a failed turn: a busy, missing or
 * broken store means an empty memory and a line in `/cyrene doctor`.
 */
export class CyreneMemory extends Service {
  readonly startedAt = new Date()
  readonly config: ServiceConfig
  private state: EngineState = { kind: 'starting' }
  /** The small store files the rails read at assembly (元/forms.md, 元/styles.md, 元/settings.json), under the root the engine knows. */
  readonly texts = new StoreTexts(() => this.knownRoot())
  /** `nickname` and `style` of 元/settings.json as the rails and the voice commands read them; `setVoiceSetting` writes them. */
  readonly voice: VoiceSettingsReader
  /** Recall over this engine's store (recall/running.ts): its index, and what its latest search said. */
  private readonly recallRun = new RunningRecall()
  readonly ready: Promise<void>

  constructor(ctx: Context, config: ServiceConfig) {
    super(ctx, 'cyreneMemory')
    this.config = config
    this.voice = new VoiceSettingsReader(this.texts, config.settings)
    this.ready = this.start()
    ctx.effect(() => () => this.stop(), 'cyrene: release the memory engine')
  }

  private async start(): Promise<void> {
    const options = { rootDir: this.config.rootDir === '' ? undefined : this.config.rootDir, env: process.env, settingsLayer: this.config.settings }
    let root = ''
    try {
      root = resolveRoot(options)
      const started = await startEngine({ ...options, persona: PERSONA_SOURCES })
      // Settings problems, drift and retired plugins are read fresh by the store lines of the doctor.
      const problems = started.problems.filter((p) => !started.store.settingsProblems.includes(p) && !p.startsWith('retired plugin'))
      // The index loads or builds in a worker thread: nothing of it runs on DSH's event loop (CONTRACT#never-stall).
      this.recallRun.start(started.store.root)
      this.state = { kind: 'ready', store: started.store, root, problems, reader: new MemoryReader(root, this.config.recentDays, this.config.memoryChars) }
    } catch (error) {
      this.state =
        error instanceof EngineBusyError
          ? { kind: 'busy', root, detail: error.message, holder: busyHolder(error) }
          : { kind: 'failed', detail: (error as Error).message }
    }
  }

  /** Settles when the recall index is built (or failed to build); recall is empty until then. */
  get recallReady(): Promise<void> {
    return this.recallRun.ready
  }

  private async stop(): Promise<void> {
    const state = this.state
    this.state = { kind: 'failed', detail: 'stopped' }
    await this.recallRun.close()
    if (state.kind === 'ready') await state.store.close().catch(() => undefined)
  }

  /**
   * The value of `{{cyrene_memory}}` for one assembly, read from the files now; never throws.
   * With `assembly` (DSH's assembly context), read once for it: its variable, the pass and the
   * hits' exclusions ask in the same assembly and see one block; the next assembly reads again.
   */
  composedMemory(assembly?: object): MemoryBlockResult {
    return this.state.kind === 'ready' ? this.state.reader.forAssembly(assembly) : { text: '', cut: 0, ids: [] }
  }

  /**
   * Day entries that match a message, with the index first brought level with
   * the files. Empty while the index builds, when the engine is not ours, or on
   * any failure (noted for the doctor): recall never fails a turn.
   */
  async recall(query: string, limit: number): Promise<RecalledEntry[]> {
    if (this.recallRun.starting) await this.startupOrLater(this.ready.then(() => this.recallRun.ready))
    return await this.recallRun.recall(query, limit, (this.store()?.now() ?? new Date()).getTime())
  }

  /** The index levelled with the files (the doctor's count is then the store's); a failure is noted, never thrown. */
  async levelRecall(): Promise<void> {
    await this.recallRun.level()
  }

  /**
   * A write the model asked for: through the gate (day or 余页/待定), refused
   * where only the person may write. Throws a message the model can act on.
   * When a day entry already says the same (memory/near-duplicate.ts), nothing
   * is added and its id comes back (CONTRACT#never-twice); a pending
   * entry never counts, so it cannot swallow a newer write that passes the gate.
   */
  async writeAsModel(input: NewEntry, said: readonly string[] = []): Promise<ModelWriteResult> {
    const store = await this.engineStore()
    const twin = typeof input.text === 'string' ? await this.dayTwinOf(store, input.text) : undefined
    if (twin !== undefined)
      return {
        id: twin.id,
        gate: 'duplicate',
        file: twin.file,
        reasons: [],
        // The stored text reaches the model here as it does in {{cyrene_memory}}: neutralised, never a frame or a line of its own.
        notes: [`与已记下的 ${twin.id}（${twin.date}）意思相同：「${promptSafe(twin.text)}」，没有另存一条`],
      }
    const { entry, notes } = await sourcesAsModel(store, input, said)
    const written = await store.write(entry, { by: 'model' })
    return notes.length === 0 ? written : { ...written, notes: [...written.notes, ...notes] }
  }

  /** A day entry that says the same as `text`: among its recall hits and the entries of today (which the index may not have yet). */
  private async dayTwinOf(store: MemoryStore, text: string): Promise<{ id: string; file: string; date: string; text: string } | undefined> {
    const candidates: { id: string; file: string; date: string; text: string }[] = []
    const today = localDate(store.now())
    try {
      for (const e of await store.entriesOfDate(today)) candidates.push({ id: e.id, file: e.file, date: today, text: e.text })
    } catch {
      /* an unreadable day file: the recall hits still count */
    }
    for (const hit of await this.recall(text, 8)) if (hit.area === 'day') candidates.push({ id: hit.id, file: hit.file, date: hit.date, text: hit.text })
    return findNearDuplicate(text, candidates)?.item
  }

  /** A dated section the model adds to an anchor (its core is the person's); cadence enforced by the store. */
  async anchorAsModel(key: AnchorKey, text: string): Promise<{ file: string; archived: number; chars: number }> {
    return await writeAnchor(await this.engineStore(), key, { text, mode: 'section' }, { by: 'model' })
  }

  /** A typed link between two existing entries (never a base entry's own; its text is never touched). */
  async linkAsModel(input: LinkInput): Promise<LinkResult> {
    return await linkEntries(await this.engineStore(), input, { by: 'model' })
  }

  /** Free writing appended to a file in 余页/ (never gated, never injected; the 余页 quota only). */
  async marginAsModel(file: string | undefined, text: string): Promise<{ file: string }> {
    const store = await this.engineStore()
    const rel = file === undefined || file.trim() === '' ? `随笔/${localDate(store.now())}.md` : file.trim()
    return { file: await store.writeMargin(rel, text, { by: 'model', mode: 'append' }) }
  }

  /**
   * A turn that arrives while the engine or the index is still starting (the
   * first message right after DSH starts) waits for it, up to STARTUP_WAIT_MS,
   * then goes on without it: the turn is never failed by our start.
   */
  private async startupOrLater(started: Promise<void>): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    await Promise.race([started, new Promise<void>((r) => (timer = setTimeout(r, STARTUP_WAIT_MS)))])
    clearTimeout(timer)
  }

  private async engineStore(): Promise<MemoryStore> {
    if (this.state.kind === 'starting') await this.startupOrLater(this.ready)
    if (this.state.kind === 'ready') return this.state.store
    throw new Error(
      this.state.kind === 'busy'
        ? 'the memory engine of this DSH_HOME is held by another DSH process; nothing was written (see /cyrene doctor)'
        : 'the memory engine is not running; nothing was written (see /cyrene doctor)',
    )
  }

  /** The open store, when this process holds the engine. */
  store(): MemoryStore | undefined {
    return this.state.kind === 'ready' ? this.state.store : undefined
  }

  /** The store root once the engine started or was found held by another process (its files are still the person's to read). */
  private knownRoot(): string | undefined {
    const s = this.state
    return s.kind === 'ready' || s.kind === 'busy' ? s.root : undefined
  }

  /** Save a voice key as the person's choice (a /cyrene command); refused while another process holds the engine. */
  async setVoiceSetting(key: VoiceSettingKey, value: string | undefined): Promise<void> {
    await writeVoiceSetting(await this.engineStore(), key, value)
  }

  /** What `/cyrene doctor` reports about this service; host/doctor.ts writes the lines. */
  doctorState(): HostServiceState {
    const s = this.state
    const read = s.kind === 'ready' ? s.reader.lastRead() : undefined
    return {
      startedAt: this.startedAt,
      engine: s.kind === 'ready' ? { kind: 'ready', root: s.root, problems: s.problems } : s,
      memoryBlock: {
        chars: charCount(read?.block.text ?? ''),
        budget: this.config.memoryChars,
        cut: read?.block.cut ?? 0,
        refreshError: read?.error,
        newestOnly: read?.newestOnly ?? [],
      },
      recall: this.recallRun.doctorState(),
    }
  }
}

/** Which lock and process hold the engine, for the doctor to word in the person's language (the error's sentence is English). */
function busyHolder(error: EngineBusyError): { lock: string; pid: string } | undefined {
  const said = error.said
  const lock = said?.params['lock']
  return lock === undefined ? undefined : { lock, pid: said?.params['pid'] ?? '?' }
}

/**
 * The sources a model's write gives, kept only where they are sources (docs/decisions/285): a
 * `src_quote` the person said, word for word, in this session (`said`), and `src_ids` of day entries
 * that exist. What is not one is left out with a note, so a decision, lesson or rule without a real
 * source waits in 余页/待定 like any other, and `/memory show` never prints words the person did not
 * say as their own.
 */
async function sourcesAsModel(store: MemoryStore, input: NewEntry, said: readonly string[]): Promise<{ entry: NewEntry; notes: string[] }> {
  const notes: string[] = []
  let entry = input
  if (typeof input.src_quote === 'string' && input.src_quote.trim() !== '' && !quoteOccurs(input.src_quote, said)) {
    const { src_quote: _notSaid, ...rest } = entry
    entry = rest
    notes.push(
      `src_quote「${promptSafe(input.src_quote)}」不是对方在这次会话里逐字说过的话，没有当作出处（引用就逐字照抄对方的原话；以前说过的，用 src_ids 指向记着它的条目）`,
    )
  }
  if (Array.isArray(input.src_ids) && input.src_ids.length > 0) {
    const kept: string[] = []
    const dropped: string[] = []
    for (const id of input.src_ids) {
      const source = typeof id === 'string' ? await store.get(id).catch(() => undefined) : undefined
      if (source?.area === 'day') kept.push(id)
      else dropped.push(String(id))
    }
    if (dropped.length > 0) {
      const { src_ids: _all, ...rest } = entry
      entry = kept.length > 0 ? { ...rest, src_ids: kept } : rest
      notes.push(`src_ids 里这些不是现有的日档条目，没有当作出处：${dropped.map((id) => promptSafe(id)).join('、')}`)
    }
  }
  return { entry, notes }
}
